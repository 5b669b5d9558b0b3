package jwt

import (
	"encoding/json"
	"testing"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

func BenchmarkParts(b *testing.B) {
	at := typicalAccessToken()
	payload, _ := encodeClaims(nil, &at)
	b.Run("parseClaims", func(b *testing.B) {
		for b.Loop() {
			var c Claims
			parseClaims(payload, defaultJSONLimits, &c, nil)
		}
	})
	b.Run("jsonx.Valid", func(b *testing.B) {
		for b.Loop() {
			jsonx.Valid(payload, defaultJSONLimits)
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		for b.Loop() {
			json.Valid(payload)
		}
	})
	b.Run("encode", func(b *testing.B) {
		var buf [512]byte
		for b.Loop() {
			encodeClaims(buf[:0], &at)
		}
	})
	b.Run("encode-registered", func(b *testing.B) {
		var buf [512]byte
		for b.Loop() {
			at.Claims.AppendJSON(buf[:0])
		}
	})
}

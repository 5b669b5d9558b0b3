package jws_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestVerifyRefusesEncEscaped pins the "enc" refusal (RFC 7516 §9) for a
// name spelled with JSON escapes, in the protected and the unprotected
// header, with crit or b64 beside it, detached, after a good header has
// been cached, and in one signature of two (VerifyEach refuses that
// signature only, as any other defect of one signature's header).
func TestVerifyRefusesEncEscaped(t *testing.T) {
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: membersKey})
	good := hs256Compact(`{"alg":"HS256"}`, "payload")
	parts := bytes.Split(good, []byte("."))
	// A good header cached first.
	if _, err := v.VerifyCompact(good); err != nil {
		t.Fatal(err)
	}
	for _, hdr := range []string{
		`{"alg":"HS256","\u0065nc":"A128GCM"}`,
		`{"alg":"HS256","\u0065\u006e\u0063":1}`,
		`{"alg":"HS256","crit":["enc"],"enc":"x"}`,
		`{"alg":"HS256","b64":false,"crit":["b64"],"enc":"x"}`,
	} {
		tok := hs256Compact(hdr, "payload")
		if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("compact %s: %v", hdr, err)
		}
		tp := bytes.Split(tok, []byte("."))
		if _, err := v.VerifyDetached(append(append(append([]byte{}, tp[0]...), '.', '.'), tp[2]...), []byte("payload")); err == nil {
			t.Errorf("detached %s: nil", hdr)
		}
	}
	for _, u := range []string{`{"\u0065nc":"x"}`, `{"en\u0063":null}`} {
		flat := `{"payload":"` + string(parts[1]) + `","protected":"` + string(parts[0]) + `","header":` + u + `,"signature":"` + string(parts[2]) + `"}`
		if _, err := v.VerifyJSON([]byte(flat)); !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("flat %s: %v", u, err)
		}
		general := `{"payload":"` + string(parts[1]) + `","signatures":[{"protected":"` + string(parts[0]) + `","signature":"` + string(parts[2]) + `"},{"protected":"` + string(parts[0]) + `","header":` + u + `,"signature":"` + string(parts[2]) + `"}]}`
		res, _, err := v.VerifyEach([]byte(general))
		if err != nil || len(res) != 2 || res[0].Err != nil || !errors.Is(res[1].Err, jose.ErrMalformed) {
			t.Errorf("VerifyEach, enc in the second signature's header %s: %v, %v", u, res, err)
		}
	}
}

package jwt

import (
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestRotatingKeySource: a Validator built once keeps working while the
// Verifier's key source changes (as a remote JWK Set behind a KeyFunc
// does): tokens of a new key validate after the rotation, tokens of a
// removed key stop validating, with the jws error.
func TestRotatingKeySource(t *testing.T) {
	key := func(kid string, b byte) *jose.JWK {
		k, err := jose.NewJWK(bytes.Repeat([]byte{b}, 32))
		if err != nil {
			t.Fatal(err)
		}
		k.KeyID = kid
		return k
	}
	k1, k2 := key("k1", 1), key("k2", 2)
	var current atomic.Pointer[jose.Set]
	current.Store(&jose.Set{Keys: []*jose.JWK{k1}})
	ver, err := jws.NewVerifier(jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
		KeyFunc: func(h *jose.Header) (any, error) {
			for _, k := range current.Load().LookupKeyID(h.KeyID) {
				return k, nil
			}
			return nil, fmt.Errorf("no key %q: %w", h.KeyID, jose.ErrKeyNotFound)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	v := mustValidator(t, ValidatorOptions{Verifier: ver, Audiences: []string{"https://api.example"}})
	tok1 := mustSign(t, mustSigner(t, jwa.HS256, k1, nil), typicalClaims())
	tok2 := mustSign(t, mustSigner(t, jwa.HS256, k2, nil), typicalClaims())
	if _, err := v.Validate(tok1, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate(tok2, nil); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Fatalf("k2 before rotation: %v", err)
	}
	current.Store(&jose.Set{Keys: []*jose.JWK{k2}})
	if got, err := v.Validate(tok2, nil); err != nil || got.Header.KeyID != "k2" {
		t.Fatalf("k2 after rotation: %v", err)
	}
	if _, err := v.Validate(tok1, nil); !errors.Is(err, jose.ErrKeyNotFound) || errors.Is(err, ErrInvalidClaims) {
		t.Fatalf("k1 after rotation: %v", err)
	}
}

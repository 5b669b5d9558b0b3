package jose_test

import (
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
)

// customAlg is a caller's own algorithm type, with only what
// jose.Algorithm asked before issue 23: a name, a kty and FitsKey. Review
// rv23t: adding KeyNeeds to jose.Algorithm (which only the internal key
// checks of jws and jwe use) broke the build of such callers of Select.
type customAlg string

func (customAlg) KeyType() string { return "oct" }
func (customAlg) FitsKey(key any) bool {
	_, ok := key.([]byte)
	return ok
}

func TestSelectCustomAlgorithm(t *testing.T) {
	set := &jose.Set{Keys: []*jose.JWK{{Key: make([]byte, 32), KeyID: "a"}}}
	got, err := jose.Select(nil, set, customAlg("X-HS"), "a", jose.OpVerify, 1, nil)
	if err != nil || len(got) != 1 || got[0].KeyID != "a" {
		t.Fatalf("Select with a custom algorithm: %v, %v", got, err)
	}
	if _, err := jose.Select(nil, set, customAlg("X-HS"), "b", jose.OpVerify, 1, nil); !errors.Is(err, jose.ErrKeyNotFound) {
		t.Errorf("Select of an absent kid: %v", err)
	}
}

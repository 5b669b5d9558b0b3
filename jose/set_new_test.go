package jose_test

import (
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
)

// TestNewSet: NewSet keeps the keys in order and refuses a nil or unusable
// key and a set mixing secret and public keys.
func TestNewSet(t *testing.T) {
	ec, err := jose.GenerateEC(jose.CurveP256)
	if err != nil {
		t.Fatal(err)
	}
	oct, err := jose.GenerateOct(256)
	if err != nil {
		t.Fatal(err)
	}
	pub := ec.Public()
	pub.KeyID = "a"
	s, err := jose.NewSet(pub, ec.Public())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Keys) != 2 || s.Keys[0] != pub {
		t.Fatalf("keys %v", s.Keys)
	}
	if got := s.LookupKeyID("a"); len(got) != 1 || got[0] != pub {
		t.Fatalf("LookupKeyID: %v", got)
	}
	if _, err := jose.NewSet(oct); err != nil {
		t.Fatalf("a set of one secret key: %v", err)
	}
	if s, err := jose.NewSet(); err != nil || s.Keys == nil || len(s.Keys) != 0 {
		t.Fatalf("empty set: %v, %v", s, err)
	}
	b, err := s.MarshalJSON()
	if err != nil || len(b) == 0 {
		t.Fatalf("MarshalJSON: %v", err)
	}
	for name, keys := range map[string][]*jose.JWK{
		"nil key":   {pub, nil},
		"no key":    {{KeyID: "x"}},
		"mixed":     {pub, ec},
		"mixed oct": {oct, pub},
	} {
		if _, err := jose.NewSet(keys...); !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: %v, want ErrInvalidKey", name, err)
		}
	}
}

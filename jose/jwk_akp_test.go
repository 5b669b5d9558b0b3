package jose

import (
	"errors"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// akpTFiles are the fixed AKP JWKs of testdata/keys (see its README.md).
var akpTFiles = map[string]string{"ML-DSA-44": "mldsa44.json", "ML-DSA-65": "mldsa65.json", "ML-DSA-87": "mldsa87.json"}

func akpTRead(t *testing.T, alg string) string {
	return string(vectortest.ReadTrimmed(t, "keys", akpTFiles[alg]))
}

// TestAKPMalformed checks the refusals that come before any key is built,
// and so are the same with every toolchain: a missing or unknown alg, a
// missing pub, and pub or priv of the wrong size.
func TestAKPMalformed(t *testing.T) {
	base := akpTRead(t, "ML-DSA-44")
	pub65 := jwkTMembers(t, []byte(akpTRead(t, "ML-DSA-65")))["pub"]
	for _, c := range []struct {
		name string
		fn   func(m map[string]any)
		want error
	}{
		{"no alg", func(m map[string]any) { delete(m, "alg") }, ErrMalformed},
		{"alg not a string", func(m map[string]any) { m["alg"] = 44 }, ErrMalformed},
		{"unknown alg", func(m map[string]any) { m["alg"] = "ML-DSA-42" }, ErrUnsupportedAlgorithm},
		{"SLH-DSA alg", func(m map[string]any) { m["alg"] = "SLH-DSA-SHA2-128s" }, ErrUnsupportedAlgorithm},
		{"lower-case alg", func(m map[string]any) { m["alg"] = "ml-dsa-44" }, ErrUnsupportedAlgorithm},
		{"no pub", func(m map[string]any) { delete(m, "pub") }, ErrMalformed},
		{"pub not a string", func(m map[string]any) { m["pub"] = []any{1} }, ErrMalformed},
		{"pub padded", func(m map[string]any) { m["pub"] = m["pub"].(string) + "==" }, ErrMalformed},
		{"pub standard base64", func(m map[string]any) { m["pub"] = "+" + m["pub"].(string)[1:] }, ErrMalformed},
		{"pub empty", func(m map[string]any) { m["pub"] = "" }, ErrInvalidKey},
		{"pub short", func(m map[string]any) { m["pub"] = m["pub"].(string)[:1300] }, ErrInvalidKey},
		{"pub long", func(m map[string]any) { m["pub"] = m["pub"].(string) + "AAAA" }, ErrInvalidKey},
		{"pub of ML-DSA-65 for ML-DSA-44", func(m map[string]any) { m["pub"] = pub65; delete(m, "priv") }, ErrInvalidKey},
		{"priv empty", func(m map[string]any) { m["priv"] = "" }, ErrInvalidKey},
		{"priv 31 bytes", func(m map[string]any) { m["priv"] = Base64URLEncode(make([]byte, 31)) }, ErrInvalidKey},
		{"priv 33 bytes", func(m map[string]any) { m["priv"] = Base64URLEncode(make([]byte, 33)) }, ErrInvalidKey},
		{"priv expanded (2560 bytes)", func(m map[string]any) { m["priv"] = Base64URLEncode(make([]byte, 2560)) }, ErrInvalidKey},
		{"priv not a string", func(m map[string]any) { m["priv"] = true }, ErrMalformed},
	} {
		data := jwkTMutate(t, base, c.fn)
		k, err := ParseKey([]byte(data))
		if !errors.Is(err, c.want) {
			t.Errorf("%s: ParseKey = %v, %v; want %v", c.name, k, err, c.want)
		}
	}
}

// TestAKPSetEntry checks that an AKP key in a JWK Set is either usable
// (Go 1.27) or kept as an unsupported entry that is never selected, and
// that a malformed AKP entry is never usable.
func TestAKPSetEntry(t *testing.T) {
	good := akpTRead(t, "ML-DSA-44")
	bad := jwkTMutate(t, good, func(m map[string]any) { delete(m, "alg") })
	s, err := ParseSet([]byte(`{"keys":[` + good + `,` + bad + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Keys) != 2 {
		t.Fatalf("%d keys", len(s.Keys))
	}
	if s.Keys[0].KeyType() != KeyTypeAKP || s.Keys[1].KeyType() != KeyTypeAKP {
		t.Errorf("KeyType = %q, %q", s.Keys[0].KeyType(), s.Keys[1].KeyType())
	}
	if s.Keys[1].Supported() || !errors.Is(s.Keys[1].Err(), ErrMalformed) {
		t.Errorf("AKP entry without alg: Supported = %v, Err = %v", s.Keys[1].Supported(), s.Keys[1].Err())
	}
	if got := s.Keys[0].Supported(); got != akpTSupported {
		t.Errorf("AKP entry: Supported = %v (Err %v), want %v", got, s.Keys[0].Err(), akpTSupported)
	}
	if !akpTSupported && !errors.Is(s.Keys[0].Err(), ErrUnsupportedAlgorithm) {
		t.Errorf("AKP entry before Go 1.27: Err = %v, want ErrUnsupportedAlgorithm", s.Keys[0].Err())
	}
	out, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if s2, err := ParseSet(out); err != nil || len(s2.Keys) != 2 {
		t.Errorf("set marshalled back: %v", err)
	}
}

// TestGenerateAKPNotAKP: GenerateAKP of a name that is no AKP algorithm
// (another JWS algorithm, "none", an unknown or miscased name, "") is
// refused before the build matters, with the same text with every
// toolchain: before Go 1.27 such a name read "AKP algorithm \"ES256\" :"
// (the empty reason of an algorithm jwa implements) or took the reason of
// the JWS algorithm ("the unsecured JWS"), and Go 1.27 builds said
// nothing of what to give.
func TestGenerateAKPNotAKP(t *testing.T) {
	for _, alg := range []string{"ES256", "HS256", "EdDSA", "none", "ML-DSA-99", "ml-dsa-65", ""} {
		_, err := GenerateAKP(alg)
		want := `jose: generate: AKP algorithm "` + alg + `": want ML-DSA-44, ML-DSA-65 or ML-DSA-87: unsupported algorithm`
		if !errors.Is(err, ErrUnsupportedAlgorithm) || err.Error() != want {
			t.Errorf("GenerateAKP(%q) = %v, want %s", alg, err, want)
		}
	}
}

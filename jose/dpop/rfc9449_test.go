package dpop

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
)

// rfcVector is one proof of testdata/rfc9449.json.
type rfcVector struct {
	Name        string `json:"name"`
	Proof       string `json:"proof"`
	Method      string `json:"method"`
	URI         string `json:"uri"`
	AccessToken string `json:"access_token"`
	Now         int64  `json:"now"`
	JTI         string `json:"jti"`
	JKT         string `json:"jkt"`
}

func rfcVectors(t testing.TB) []rfcVector {
	t.Helper()
	data, err := os.ReadFile("testdata/rfc9449.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Vectors []rfcVector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Vectors
}

// TestRFC9449Examples checks the example proofs of RFC 9449, whose
// signatures verify, at the time they were made, their thumbprint (the jkt
// of §6.1), the ath of §7.1, and that each is refused the second time.
func TestRFC9449Examples(t *testing.T) {
	for _, vec := range rfcVectors(t) {
		t.Run(vec.Name, func(t *testing.T) {
			v, err := NewVerifier(VerifierOptions{
				Algorithms: []jwa.SignatureAlgorithm{jwa.ES256},
				Now:        func() time.Time { return time.Unix(vec.Now, 0) },
			})
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.Check(context.Background(), []string{vec.Proof}, vec.Method, vec.URI, vec.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			if p.Thumbprint != vec.JKT || p.ID != vec.JTI || p.Method != vec.Method || p.URI != vec.URI || p.Algorithm != jwa.ES256 {
				t.Errorf("proof %+v, want jkt %s, jti %s", p, vec.JKT, vec.JTI)
			}
			if !p.IssuedAt.Equal(time.Unix(vec.Now, 0)) {
				t.Errorf("iat %v", p.IssuedAt)
			}
			if vec.AccessToken != "" && p.AccessTokenHash != AccessTokenHash(vec.AccessToken) {
				t.Errorf("ath %q, want %q", p.AccessTokenHash, AccessTokenHash(vec.AccessToken))
			}
			if err := CheckBinding(vec.JKT, p); err != nil {
				t.Errorf("CheckBinding: %v", err)
			}
			_, err = v.Check(context.Background(), []string{vec.Proof}, vec.Method, vec.URI, vec.AccessToken)
			wantRefusal(t, err, ErrReplay, CodeInvalidProof)
		})
	}
}

// TestRFC9449AccessTokenHash checks the "ath" of RFC 9449 §7.1.
func TestRFC9449AccessTokenHash(t *testing.T) {
	if got, want := AccessTokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"), "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"; got != want {
		t.Errorf("ath %s, want %s", got, want)
	}
}

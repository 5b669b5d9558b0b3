package dpop

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
)

// TestBinding checks cnf.jkt (RFC 9449 §6.1) and the Bearer refusal of §7.2.
func TestBinding(t *testing.T) {
	const jkt = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
	for _, tt := range []struct {
		claims, want string
		bad          bool
	}{
		{`{"sub":"x","cnf":{"jkt":"` + jkt + `"}}`, jkt, false},
		{`{"sub":"x","cnf":{"x5t#S256":"abc"}}`, "", false},
		{`{"sub":"x"}`, "", false},
		{`{"cnf":"x"}`, "", true},
		{`{"cnf":{"jkt":1}}`, "", true},
		// A "cnf" "jkt" that is there but empty, or not a string, is a
		// token meant to be bound: refused, never read as unbound.
		{`{"sub":"x","cnf":{"jkt":""}}`, "", true},
		{`{"cnf":{"jkt":null}}`, "", true},
		{`{"cnf":{"jkt":{"x":1}}}`, "", true},
		{`{"cnf":{"jkt":["` + jkt + `"]}}`, "", true},
		{`{"cnf":null}`, "", true},
		{`[1]`, "", true},
		{`{"cnf":{"jkt":"a"},"cnf":{"jkt":"b"}}`, "", true},
	} {
		got, err := TokenBinding([]byte(tt.claims))
		if got != tt.want || (err != nil) != tt.bad {
			t.Errorf("TokenBinding(%s) = %q, %v", tt.claims, got, err)
		}
		if err != nil && !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("TokenBinding(%s): %v does not wrap jose.ErrMalformed", tt.claims, err)
		}
	}
	p := &Proof{Thumbprint: jkt}
	if err := CheckBinding(jkt, p); err != nil {
		t.Error(err)
	}
	wantRefusal(t, CheckBinding("", p), ErrBinding, CodeInvalidToken)
	wantRefusal(t, CheckBinding(jkt[1:]+"A", p), ErrBinding, CodeInvalidToken)
	wantRefusal(t, CheckBinding(jkt, nil), ErrBinding, CodeInvalidToken)
	if err := CheckBearer(""); err != nil {
		t.Error(err)
	}
	wantRefusal(t, CheckBearer(jkt), ErrBoundBearer, CodeInvalidToken)
}

// TestThumbprintRefusesNonDPoPKeys: the jkt is the thumbprint of a proof
// key, an asymmetric signature key (RFC 9449 §4.2, §6.1): a symmetric
// (oct) key, a key-agreement key (X25519) or no key has none, with an
// error saying why, while RFC 7638 itself would hash an oct key.
func TestThumbprintRefusesNonDPoPKeys(t *testing.T) {
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		key  *jose.JWK
		want string
	}{
		{"oct", &jose.JWK{Key: []byte("0123456789abcdef0123456789abcdef")}, "symmetric"},
		{"X25519 public", &jose.JWK{Key: x.PublicKey()}, "not a signature key"},
		{"X25519 private", &jose.JWK{Key: x}, "not a signature key"},
		{"nil", nil, "nil key"},
		{"empty", &jose.JWK{}, "no key"},
	} {
		jkt, err := Thumbprint(tt.key)
		if err == nil || jkt != "" {
			t.Errorf("%s: Thumbprint = %q, %v", tt.name, jkt, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "dpop: ") || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, jose.ErrInvalidKey) {
			t.Errorf("%s: error %q, want one of package dpop saying %q and wrapping jose.ErrInvalidKey", tt.name, err, tt.want)
		}
	}
	// Asymmetric signature keys, private or public, have one: that of
	// the public key.
	k := ecKey(t)
	priv, err := Thumbprint(&jose.JWK{Key: k})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := Thumbprint(&jose.JWK{Key: k.Public()})
	if err != nil || pub != priv || len(pub) != 43 {
		t.Errorf("Thumbprint of the public key %q, %v; of the private key %q", pub, err, priv)
	}
	for _, key := range []any{edKey(t), rsaKey(t, "rsa2048.pem")} {
		if _, err := Thumbprint(&jose.JWK{Key: key}); err != nil {
			t.Errorf("Thumbprint(%T): %v", key, err)
		}
	}
}

// TestTokenBindingValidatorLimits: claims a Validator accepted within
// limits above jsonx's defaults (an object of 300 members, objects nested
// 37 deep) are read, not refused as malformed.
func TestTokenBindingValidatorLimits(t *testing.T) {
	var wide strings.Builder
	wide.WriteString(`{"perms":{`)
	for i := range 300 {
		if i > 0 {
			wide.WriteByte(',')
		}
		fmt.Fprintf(&wide, `"p%d":1`, i)
	}
	wide.WriteString(`}`)
	deep := `{"deep":` + strings.Repeat(`{"a":`, 36) + "1" + strings.Repeat("}", 36)
	for _, prefix := range []string{wide.String(), deep} {
		if jkt, err := TokenBinding([]byte(prefix + `}`)); jkt != "" || err != nil {
			t.Errorf("unbound: %q, %v", jkt, err)
		}
		if jkt, err := TokenBinding([]byte(prefix + `,"cnf":{"jkt":"abc"}}`)); jkt != "abc" || err != nil {
			t.Errorf("bound: %q, %v, want \"abc\"", jkt, err)
		}
	}
}

// TestAccessTokenHashChunks: the hash, written through a buffer of 512
// bytes, is SHA-256 of the whole token at every length around the
// buffer's; athMatches and equal, the comparisons of every DPoP request,
// do not allocate.
func TestAccessTokenHashChunks(t *testing.T) {
	for _, n := range []int{0, 1, 43, 511, 512, 513, 1024, 1500, 8 << 10} {
		tok := strings.Repeat("x", n-n/2) + strings.Repeat("y", n/2)
		sum := sha256.Sum256([]byte(tok))
		want := jose.Base64URLEncode(sum[:])
		if got := AccessTokenHash(tok); got != want {
			t.Errorf("%d bytes: ath %s, want %s", n, got, want)
		}
		if !athMatches(tok, want) || athMatches(tok+"z", want) {
			t.Errorf("%d bytes: athMatches does not tell the token's ath from another's", n)
		}
	}
	tok := strings.Repeat("t", 600)
	ath := AccessTokenHash(tok)
	jkt := AccessTokenHash("key")
	other := AccessTokenHash("other key")
	long, long2 := strings.Repeat("k", 200), strings.Repeat("k", 200)
	if !equal(jkt, jkt) || equal(jkt, other) || equal(jkt, jkt[:42]) || !equal(strings.Repeat("a", 100), strings.Repeat("a", 100)) || equal(strings.Repeat("a", 100), strings.Repeat("a", 99)+"b") {
		t.Error("equal is not string equality")
	}
	if n := testing.AllocsPerRun(100, func() {
		if !athMatches(tok, ath) || equal(jkt, other) || !equal(long, long2) {
			t.Fatal("wrong comparison")
		}
	}); n != 0 {
		t.Errorf("athMatches and equal allocate %v times, want 0", n)
	}
}

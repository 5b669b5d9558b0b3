package jose_test

// Attacker text in errors is quoted and cut (internal/untrusted): a 600 KB
// member name, a 1 MiB kid, a long alg, use, key_ops value, kty, crv or
// crit name becomes 64 bytes and its length, never a line of the input's
// size (issue 18, finding 4).

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/headers"
	"github.com/josebench/josebench/jose/internal/keysource"
	"github.com/josebench/josebench/jose/jwa"
)

// etCut reports whether err's text shows the attacker's text of n bytes,
// from the repeated byte c, cut: 64 of them then …" (n bytes), and whether
// the whole error stays below 1 KiB.
func etCut(t *testing.T, err error, c string, n int) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	want := `"` + strings.Repeat(c, 64/len(c)) + `…" (` + strconv.Itoa(n) + ` bytes)`
	if msg := err.Error(); !strings.Contains(msg, want) || len(msg) > 1<<10 {
		t.Errorf("error of %d bytes: %.400s\nwant it to show %s", len(msg), msg, want)
	}
}

func TestErrorTextCut(t *testing.T) {
	big := jose.Limits{MaxKeySize: 8 << 20, MaxSetSize: 8 << 20, MaxHeaderSize: 8 << 20}
	name600k := strings.Repeat("n", 600000)
	kid1M := strings.Repeat("k", 1<<20)
	long := strings.Repeat("x", 100000)
	oct := `"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"`

	t.Run("JWK duplicate member name of 600 KB", func(t *testing.T) {
		data := []byte(`{` + oct + `,"` + name600k + `":1,"` + name600k + `":2}`)
		_, err := jose.ParseKeyWithLimits(data, big)
		if !errors.Is(err, jose.ErrMalformed) {
			t.Fatalf("err = %v", err)
		}
		etCut(t, err, "n", len(name600k))
		// In a set, any duplicate name refuses the whole set.
		_, err = jose.ParseSetWithLimits([]byte(`{"keys":[`+string(data)+`]}`), big)
		etCut(t, err, "n", len(name600k))
		_, err = jose.ParseHeader([]byte(`{"alg":"HS256","jwk":`+string(data)+`}`), big)
		etCut(t, err, "n", len(name600k))
	})
	for _, c := range []struct{ name, key string }{
		{"kty", `{"kty":"` + long + `"}`},
		{"crv", `{"kty":"EC","crv":"` + long + `","x":"AA","y":"AA"}`},
		{"key_ops duplicate", `{` + oct + `,"key_ops":["` + long + `","` + long + `"]}`},
		{"AKP alg", `{"kty":"AKP","alg":"` + long + `","pub":"AA"}`},
	} {
		t.Run("JWK "+c.name, func(t *testing.T) {
			_, err := jose.ParseKeyWithLimits([]byte(c.key), big)
			etCut(t, err, "x", len(long))
		})
	}

	// A JWK of a remote set, with a kid of 1 MiB and long alg and use,
	// that fits none of the algorithms: keysource.CheckFits, Permits, Select.
	k := &jose.JWK{Key: make([]byte, 32), KeyID: kid1M}
	t.Run("keysource.CheckFits, kid of 1 MiB", func(t *testing.T) {
		err := keysource.CheckFits([]jwa.SignatureAlgorithm{jwa.RS256}, k, func(jwa.SignatureAlgorithm) jose.KeyOp { return jose.OpVerify })
		if !errors.Is(err, jose.ErrInvalidKey) {
			t.Fatalf("err = %v", err)
		}
		etCut(t, err, "k", len(kid1M))
		bound := &jose.JWK{Key: make([]byte, 32), KeyID: kid1M, Algorithm: long, Use: long, KeyOps: []jose.KeyOp{jose.KeyOp(long), jose.KeyOp(long)}}
		err = keysource.CheckFits([]jwa.SignatureAlgorithm{jwa.HS256}, bound, func(jwa.SignatureAlgorithm) jose.KeyOp { return jose.OpVerify })
		etCut(t, err, "k", len(kid1M))
		etCut(t, err, "x", len(long))
		if n := strings.Count(err.Error(), `…" (100000 bytes)`); n != 4 {
			t.Errorf("%d of alg, use and two key_ops cut: %s", n, err)
		}
		// MaxKeyOps values, long: a few are shown, and counted.
		var ops []jose.KeyOp
		for i := range jose.MaxKeyOps {
			ops = append(ops, jose.KeyOp(strings.Repeat("\x01", 100)+strconv.Itoa(i)))
		}
		many := &jose.JWK{Key: make([]byte, 32), KeyOps: ops}
		err = keysource.CheckFits([]jwa.SignatureAlgorithm{jwa.HS256}, many, func(jwa.SignatureAlgorithm) jose.KeyOp { return jose.OpVerify })
		if !errors.Is(err, jose.ErrInvalidKey) || len(err.Error()) > 1<<10 || !strings.Contains(err.Error(), `… (32 values)]`) {
			t.Errorf("%d key_ops: error of %d bytes: %.300s", len(ops), len(err.Error()), err)
		}
	})
	t.Run("Permits", func(t *testing.T) {
		err := (&jose.JWK{Key: make([]byte, 32), KeyID: kid1M, Algorithm: "HS384"}).Permits(long, jose.OpVerify)
		etCut(t, err, "k", len(kid1M))
		etCut(t, err, "x", len(long))
		err = (&jose.JWK{Key: make([]byte, 32), Use: long}).Permits("HS256", jose.OpVerify)
		etCut(t, err, "x", len(long))
		err = (&jose.JWK{Key: make([]byte, 32)}).Permits("HS256", jose.KeyOp(long))
		etCut(t, err, "x", len(long))
	})
	t.Run("Select, kid of 1 MiB", func(t *testing.T) {
		set := &jose.Set{Keys: []*jose.JWK{{Key: make([]byte, 32), KeyID: "k1"}, {Key: make([]byte, 32), KeyID: kid1M, Algorithm: "HS512"}}}
		for _, kid := range []string{kid1M, strings.Repeat("k", 1<<20-1)} {
			_, err := jose.Select(nil, set, jwa.HS256, kid, jose.OpVerify, 4, nil)
			if !errors.Is(err, jose.ErrKeyNotFound) && !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
				t.Fatalf("err = %v", err)
			}
			etCut(t, err, "k", len(kid))
		}
		two := &jose.Set{Keys: []*jose.JWK{{Key: make([]byte, 32), KeyID: kid1M}, {Key: make([]byte, 32), KeyID: kid1M}}}
		_, err := jose.Select(nil, two, jwa.HS256, kid1M, jose.OpVerify, 4, nil)
		etCut(t, err, "k", len(kid1M))
	})
	t.Run("header names and crit", func(t *testing.T) {
		for _, data := range []string{
			`{"alg":"HS256","` + long + `":1,"` + long + `":2}`,
			`{"alg":"HS256","crit":["` + long + `"],"` + long + `":1}`,
			`{"alg":"HS256","crit":["` + long + `"]}`,
			`{"alg":"HS256","crit":["` + long + `","` + long + `"]}`,
		} {
			h, err := jose.ParseHeader([]byte(data), big)
			if err == nil {
				err = headers.CheckCritical(h, nil)
			}
			etCut(t, err, "x", len(long))
		}
	})
	t.Run("MergeJOSEHeader", func(t *testing.T) {
		a, b := new(jose.Header), new(jose.Header)
		if err := a.Set(long, 1); err != nil {
			t.Fatal(err)
		}
		if err := b.Set(long, 2); err != nil {
			t.Fatal(err)
		}
		_, err := jose.MergeJOSEHeader(a, b)
		etCut(t, err, "x", len(long))
	})
	t.Run("AnalyzeSet", func(t *testing.T) {
		s := &jose.Set{Keys: []*jose.JWK{{Key: make([]byte, 32), KeyID: kid1M, Use: long, Algorithm: long}}}
		findings := jose.AnalyzeSet(s, false)
		if len(findings) == 0 {
			t.Fatal("no findings")
		}
		for _, f := range findings {
			if line := f.String(); len(line) > 1<<10 || !strings.Contains(line, `…" (1048576 bytes)`) {
				t.Errorf("finding of %d bytes: %.300s", len(line), line)
			}
		}
		// MaxSetKeys keys of one kid: the finding names a few and counts
		// them.
		same := &jose.Set{}
		for range jose.DefaultMaxSetKeys {
			same.Keys = append(same.Keys, &jose.JWK{Key: make([]byte, 32), KeyID: "k", Algorithm: "HS256", Use: "sig"})
		}
		shared := false
		for _, f := range jose.AnalyzeSet(same, false) {
			line := f.String()
			if len(line) > 1<<10 {
				t.Errorf("finding of %d bytes: %.300s", len(line), line)
			}
			shared = shared || strings.Contains(line, "kid is shared by keys 0, 1, 2, 3, 4, 5, 6, 7, … (1000 keys)")
		}
		if !shared {
			t.Error("no finding of the kid shared by 1000 keys")
		}
	})
}

// TestHeaderMemberTextNamesPackageOnce: a header member refused by this
// package's own key or base64url reader reads "jose: header member "epk":
// member "x": …", naming the package once (issue 23 item 2; the package
// doc of the errors), not "jose: header member "epk": jose: jwk: …", and
// still wraps the sentinel.
func TestHeaderMemberTextNamesPackageOnce(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{`{"alg":"ES256","jwk":{"kty":"EC"}}`,
			`jose: header member "jwk": jwk: missing member "crv": malformed input`},
		{`{"alg":"ECDH-ES","epk":{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}}`,
			`jose: header member "epk": jwk: member "x": 1 bytes, want 32 for P-256: malformed input`},
		{`{"alg":"A128GCMKW","iv":"!!"}`,
			`jose: header member "iv": base64url: invalid character '!' at offset 0: malformed input`},
	} {
		_, err := jose.ParseHeader([]byte(c.header), jose.Limits{})
		if err == nil || err.Error() != c.want || !errors.Is(err, jose.ErrMalformed) {
			t.Errorf("ParseHeader(%s):\n got %v\nwant %s", c.header, err, c.want)
		}
	}
}

// TestNewJWKUnknownKeyText: a value NewJWK cannot hold is said in words,
// its Go type only when jose does not know it (issue 23 item 2).
func TestNewJWKUnknownKeyText(t *testing.T) {
	for _, c := range []struct {
		key  any
		want string
	}{
		{42, "jose: jwk: a JWK cannot hold a key of Go type int, which jose does not know: unsupported algorithm"},
		{"secret", "jose: jwk: a JWK cannot hold a string (a secret or password is a []byte): unsupported algorithm"},
	} {
		_, err := jose.NewJWK(c.key)
		if err == nil || err.Error() != c.want || !errors.Is(err, jose.ErrUnsupportedAlgorithm) {
			t.Errorf("NewJWK(%T) = %v, want %s", c.key, err, c.want)
		}
	}
}

package jose

import (
	"bytes"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// The counted functions below run the code of ParseKey, ParseSet, NewJWK
// and ParseHeader (each exported function is the internal one with a nil
// count) and return the number of full RSA private-key validations
// (crypto/rsa precomputation and Validate) the call made.

func parseKeyCounted(data []byte) (*JWK, int, error) {
	var v validations
	k := new(JWK)
	if err := k.parse(data, Limits{}.WithDefaults(), &v); err != nil {
		return nil, v.rsa, err
	}
	return k, v.rsa, nil
}

func parseSetCounted(data []byte) (*Set, int, error) {
	var v validations
	s := new(Set)
	if err := s.parse(data, Limits{}.WithDefaults(), false, &v); err != nil {
		return nil, v.rsa, err
	}
	return s, v.rsa, nil
}

func newJWKCounted(key any) (*JWK, int, error) {
	var v validations
	k, err := newJWK(key, &v)
	return k, v.rsa, err
}

func parseHeaderCounted(data []byte, lim Limits) (*Header, int, error) {
	var v validations
	h := new(Header)
	if err := AnyHeader.parseInto(h, data, lim, &v); err != nil {
		return nil, v.rsa, err
	}
	return h, v.rsa, nil
}

// TestUntrustedRSAShapeFirst: an RSA private JWK whose parts do not fit
// together (issue 9: 16384-bit n and p, junk q, dp, dq, qi) is refused by
// the cheap checks, with no full validation; a consistent key, real or made
// of non-primes, costs exactly one.
func TestUntrustedRSAShapeFirst(t *testing.T) {
	real4096, err := NewJWK(vectortest.RSAKey(t, 4096))
	if err != nil {
		t.Fatal(err)
	}
	realJSON, err := real4096.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(m map[string]any)) string { return jwkTMutate(t, string(realJSON), f) }
	refused := []struct{ name, data string }{
		{"issue 9 key, 16384 bits", vectortest.HostileRSAJWK(16384, 1, false, "")},
		{"issue 9 key, 8192 bits", vectortest.HostileRSAJWK(8192, 2, false, "")},
		{"p·q ≠ n", mutate(func(m map[string]any) { m["q"] = m["p"] })},
		{"p of the wrong size", mutate(func(m map[string]any) { m["p"] = m["dq"].(string)[:20] })},
		{"dp ≥ p−1", mutate(func(m map[string]any) { m["dp"] = m["p"] })},
		{"qi ≥ p", mutate(func(m map[string]any) { m["qi"] = m["n"] })},
		{"dp·e ≢ 1", mutate(func(m map[string]any) { m["dp"] = m["dq"] })},
		{"qi·q ≢ 1", mutate(func(m map[string]any) { m["qi"] = m["dp"] })},
		{"d ≢ dp", mutate(func(m map[string]any) {
			m["d"] = Base64URLEncode(new(big.Int).Sub(real4096.Key.(*rsa.PrivateKey).D, big.NewInt(2)).Bytes())
		})},
		{"d small", mutate(func(m map[string]any) { m["d"] = m["dp"].(string)[:8] })},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, n, err := parseKeyCounted([]byte(c.data))
			if !errors.Is(err, ErrInvalidKey) {
				t.Fatalf("err = %v, want ErrInvalidKey", err)
			}
			if n != 0 {
				t.Errorf("%d full validations before the refusal, want 0", n)
			}
		})
	}
	t.Run("set of three issue 9 keys", func(t *testing.T) {
		var keys []string
		for i := range 3 {
			keys = append(keys, vectortest.HostileRSAJWK(16384, uint64(10+i), false, ""))
		}
		_, n, err := parseSetCounted([]byte(`{"keys":[` + strings.Join(keys, ",") + `]}`))
		if err == nil {
			t.Log("set accepted (entries kept as unusable)")
		}
		if n != 0 {
			t.Errorf("%d full validations, want 0", n)
		}
	})
	for _, c := range []struct{ name, data string }{
		{"real 4096-bit key", string(realJSON)},
		{"non-prime consistent 4096-bit key", vectortest.HostileRSAJWK(4096, 3, true, "")},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, n, err := parseKeyCounted([]byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Errorf("%d full validations, want 1", n)
			}
		})
	}
	t.Run("NewJWK", func(t *testing.T) {
		k := *vectortest.RSAKey(t, 2048)
		k.Primes = []*big.Int{k.Primes[0], new(big.Int).Add(k.Primes[1], big.NewInt(2))}
		_, n, err := newJWKCounted(&k)
		if !errors.Is(err, ErrInvalidKey) {
			t.Fatalf("err = %v, want ErrInvalidKey", err)
		}
		if n != 0 {
			t.Errorf("%d full validations for p·q ≠ n, want 0", n)
		}
		if _, n, err := newJWKCounted(vectortest.RSAKey(t, 2048)); err != nil || n != 1 {
			t.Errorf("valid key: %v, %d full validations, want 1", err, n)
		}
	})
}

// TestUntrustedHeaderKeySecrets: a "jwk" or "epk" with any member that
// carries secret material, or an "oct" key, is refused on its syntax
// alone: no key is built, so no RSA validation runs and allocation stays
// far below what building the 16384-bit key costs.
func TestUntrustedHeaderKeySecrets(t *testing.T) {
	ecPub := `{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"`
	keys := map[string]string{
		"RSA 16384 private": vectortest.HostileRSAJWK(16384, 1, false, ""),
		"oct":               `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}`,
		"oct escaped kty":   `{"kty":"o\u0063t","x":"AA"}`,
		"EC d":              ecPub + `,"d":"AA"}`,
	}
	for _, m := range privateMembers {
		keys["EC with "+m] = ecPub + `,"` + m + `":"AA"}`
	}
	for name, key := range keys {
		for _, member := range []string{"jwk", "epk"} {
			t.Run(member+"/"+name, func(t *testing.T) {
				data := []byte(`{"alg":"ES256","` + member + `":` + key + `}`)
				var err error
				n := 0
				alloc := vectortest.BytesAllocated(func() { _, n, err = parseHeaderCounted(data, Limits{MaxHeaderSize: 1 << 20}) })
				if err == nil || !strings.Contains(err.Error(), "secret key material") {
					t.Fatalf("err = %v, want the secret-material refusal", err)
				}
				if n != 0 {
					t.Errorf("%d RSA validations", n)
				}
				// The refusal scans the header: a few allocations of
				// the header's size at most (the scanner's buffers).
				// Building the 16384-bit key allocated megabytes.
				t.Logf("%d-byte header: %d bytes allocated", len(data), alloc)
				if bound := uint64(16<<10 + 2*len(data)); alloc > bound {
					t.Errorf("allocated %d bytes for a %d-byte header, bound %d", alloc, len(data), bound)
				}
			})
		}
	}
}

// FuzzHeaderKey embeds a JWK as the "jwk" and the "epk" of a header. A key
// with a member that carries secret material is refused without any RSA
// validation; a header that parses holds only public keys; every error
// wraps a jose sentinel.
func FuzzHeaderKey(f *testing.F) {
	for _, name := range vectortest.Glob(f, "cookbook/jwk/*.json") {
		f.Add(vectortest.ReadFile(f, "cookbook", "jwk", filepath.Base(name)))
	}
	f.Add([]byte(vectortest.Issue9RSAJWK(2048, 1)))
	f.Add([]byte(vectortest.HostileRSAJWK(2048, 2, true, "")))
	f.Add([]byte(`{"kty":"OKP","crv":"X25519","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`))
	f.Add([]byte(`{"kty":"o\u0063t","k":"AAAA"}`))
	f.Fuzz(func(t *testing.T, key []byte) {
		var members map[string]json.RawMessage
		secret := false
		if json.Unmarshal(key, &members) == nil {
			for _, m := range privateMembers {
				_, has := members[m]
				secret = secret || has
			}
		}
		for _, member := range []string{"jwk", "epk"} {
			data := append(append([]byte(`{"alg":"ES256","`+member+`":`), key...), '}')
			h, n, err := parseHeaderCounted(data, Limits{})
			vectortest.CheckErrorText(t, err)
			if err != nil {
				if !vectortest.WrapsAny(err, ErrMalformed, ErrLimitExceeded, ErrInvalidKey, ErrUnsupportedAlgorithm) {
					t.Fatalf("error %v wraps no jose sentinel error", err)
				}
				if secret && n != 0 {
					t.Fatalf("%s with a secret member: %d RSA validations before the refusal", member, n)
				}
				continue
			}
			if secret {
				t.Fatalf("%s with a secret member accepted: %s", member, key)
			}
			if h.JWK.IsPrivate() || h.EPK.IsPrivate() {
				t.Fatalf("%s: a private key in a parsed header", member)
			}
		}
	})
}

// TestUntrustedRSANonPrimeKeyUnusable: ParseKey accepts a consistent RSA
// private key whose "primes" are composite (no primality test, as in
// crypto/x509), but such a key is harmless: crypto/rsa checks every
// private-key result with the public key, so it never yields a signature
// (right or wrong, which could leak a factor through a CRT fault) or a
// decrypted key; every operation fails with an error.
func TestUntrustedRSANonPrimeKeyUnusable(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		k, err := ParseKey([]byte(vectortest.HostileRSAJWK(2048, seed, true, "")))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, alg := range []jwa.SignatureAlgorithm{jwa.RS256, jwa.PS256} {
			s, err := jwa.NewSigner(alg, k.Key)
			if err != nil {
				continue // refused when the signer is made: as good
			}
			if sig, err := s.Sign(nil, []byte("input")); err == nil {
				t.Errorf("seed %d, %s: non-prime key signed: %x", seed, alg, sig)
			}
		}
		pub := k.Public().Key
		for _, alg := range []jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.RSAOAEP256} {
			e, err := jwa.NewKeyEncrypter(alg, pub)
			if err != nil {
				t.Fatal(err)
			}
			cek, ek, err := e.EncryptKey(nil, jwa.A128GCM, &jwa.KeyParams{})
			if err != nil {
				t.Fatal(err)
			}
			d, err := jwa.NewKeyDecrypter(alg, k.Key)
			if err != nil {
				continue
			}
			if got, err := d.DecryptKey(ek, jwa.A128GCM, &jwa.KeyParams{}); err == nil {
				t.Errorf("seed %d, %s: non-prime key decrypted (right CEK: %v)", seed, alg, bytes.Equal(got, cek))
			}
		}
	}
}

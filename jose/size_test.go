package jose_test

// The byte limits of ParseKey and ParseSet (Limits.MaxKeySize,
// Limits.MaxSetSize): what the defaults must hold, and what they refuse
// before any parsing.

import (
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// thousandRSA4096 returns a JWK Set of DefaultMaxSetKeys RSA-4096 public
// keys as providers publish them (kty, use, alg, kid, n, e; the kid an
// RFC 7638 thumbprint). The moduli are random odd 4096-bit integers: a
// real modulus has the same size (512 bytes, 683 base64url characters),
// and a public key's parse never factors it.
func thousandRSA4096(t testing.TB) []byte {
	var b strings.Builder
	b.WriteString(`{"keys":[`)
	for i := range jose.DefaultMaxSetKeys {
		k, err := jose.ParseKey([]byte(vectortest.PublicRSAJWK(4096, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		tp, err := k.Thumbprint(crypto.SHA256)
		if err != nil {
			t.Fatal(err)
		}
		k.KeyID, k.Use, k.Algorithm = jose.Base64URLEncode(tp), jose.UseSignature, "RS256"
		data, err := k.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(data)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestMaxSetSizeHoldsThousandRSA4096: the default MaxSetSize holds
// MaxSetKeys RSA-4096 public keys, and jwks's default body limit too.
func TestMaxSetSizeHoldsThousandRSA4096(t *testing.T) {
	data := thousandRSA4096(t)
	t.Logf("%d RSA-4096 public keys: %d bytes (DefaultMaxSetSize %d)", jose.DefaultMaxSetKeys, len(data), jose.DefaultMaxSetSize)
	s, err := jose.ParseSet(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Keys) != jose.DefaultMaxSetKeys {
		t.Fatalf("%d keys", len(s.Keys))
	}
	for i, k := range s.Keys {
		if !k.Supported() {
			t.Fatalf("key %d: %v", i, k.Err())
		}
	}
	// Headroom: a set of that many keys with longer kids (a UUID, 36
	// bytes, against 43) or a few more members still fits.
	if len(data) > jose.DefaultMaxSetSize*9/10 {
		t.Errorf("%d bytes: less than 10%% headroom under %d", len(data), jose.DefaultMaxSetSize)
	}
}

// TestMaxKeySizeHoldsMaxCertificates: the default MaxKeySize holds an RSA
// key with MaxCertificates certificates in x5c, each larger than any CA
// certificate of a common trust store (0.4 to 2 KB of DER).
func TestMaxKeySizeHoldsMaxCertificates(t *testing.T) {
	key := vectortest.RSAKey(t, 4096)
	tmpl := &x509.Certificate{
		SerialNumber: new(big.Int).Lsh(big.NewInt(1), 159),
		Subject: pkix.Name{Country: []string{"ZZ"}, Organization: []string{"Example Certification Authority"},
			OrganizationalUnit: []string{"Key Set Publication"}, CommonName: "keys.example.com"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0),
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	// Names in the certificate until it is larger than any of the store
	// (about 24 of them; each try is an RSA-4096 signature).
	for i := range 20 {
		tmpl.DNSNames = append(tmpl.DNSNames, fmt.Sprintf("keys-%02d.region-%02d.example.com", i, i))
	}
	for i := 20; ; i++ {
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			t.Fatal(err)
		}
		if len(der) >= 2100 {
			t.Logf("certificate of %d bytes of DER", len(der))
			break
		}
		tmpl.DNSNames = append(tmpl.DNSNames, fmt.Sprintf("keys-%02d.region-%02d.example.com", i, i))
	}
	data := x5cJWK(t, key, true, tmpl)
	t.Logf("RSA-4096 private key with %d certificates: %d bytes (DefaultMaxKeySize %d)", jose.MaxCertificates, len(data), jose.DefaultMaxKeySize)
	if _, err := jose.ParseKey(data); err != nil {
		t.Fatal(err)
	}
	if _, err := jose.ParseSet([]byte(`{"keys":[` + string(data) + `]}`)); err != nil {
		t.Fatal(err)
	}
}

// TestSizeLimitsBeforeParsing: a 10 MiB JWK Set of consistent 16384-bit
// RSA private keys (issue 18: 10 s and 945 MiB of validation) and a
// 10 MiB JWK are refused with ErrLimitExceeded before any of it is read;
// raised limits admit what the defaults refuse, and an entry of a set
// longer than MaxKeySize is an unusable entry, no key built from it.
func TestSizeLimitsBeforeParsing(t *testing.T) {
	priv := vectortest.HostileRSAJWK(16384, 1, true, "")
	n := (10<<20)/(len(priv)+1) + 1
	set := []byte(`{"keys":[` + strings.Repeat(priv+",", n-1) + priv + "]}")
	bigKey := []byte(`{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA","x":"` + strings.Repeat("a", 10<<20) + `"}`)
	for _, c := range []struct {
		name  string
		parse func() error
	}{
		{"ParseSet", func() error { _, err := jose.ParseSet(set); return err }},
		{"ParseSetWithLimits", func() error { _, err := jose.ParseSetWithLimits(set, jose.Limits{MaxSetKeys: n}); return err }},
		{"ParsePublicSetWithLimits", func() error { _, err := jose.ParsePublicSetWithLimits(set, jose.Limits{}); return err }},
		{"Set.UnmarshalJSON", func() error { return new(jose.Set).UnmarshalJSON(set) }},
		{"ParseKey", func() error { _, err := jose.ParseKey(bigKey); return err }},
		{"ParseKeyWithLimits", func() error { _, err := jose.ParseKeyWithLimits(bigKey, jose.Limits{MaxSetSize: 20 << 20}); return err }},
		{"JWK.UnmarshalJSON", func() error { return new(jose.JWK).UnmarshalJSON(bigKey) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The least of three tries: TotalAlloc counts every goroutine
			// of the process, and what the others allocate meanwhile only
			// adds (one try in about ten saw 6,272 bytes of it).
			var err error
			alloc := uint64(math.MaxUint64)
			for range 3 {
				alloc = min(alloc, vectortest.BytesAllocated(func() { err = c.parse() }))
			}
			if !errors.Is(err, jose.ErrLimitExceeded) {
				t.Fatalf("err = %v, want ErrLimitExceeded", err)
			}
			if alloc > 4<<10 {
				t.Errorf("allocated %d bytes for 10 MiB refused by its size", alloc)
			}
			t.Log(err)
		})
	}

	t.Run("raised limits", func(t *testing.T) {
		small := []byte(`{"keys":[` + strings.Repeat(`{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"},`, 99) + `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}]}`)
		if _, err := jose.ParseSetWithLimits(small, jose.Limits{MaxSetSize: len(small) - 1}); !errors.Is(err, jose.ErrLimitExceeded) {
			t.Errorf("one byte over MaxSetSize: %v", err)
		}
		if s, err := jose.ParseSetWithLimits(small, jose.Limits{MaxSetSize: len(small)}); err != nil || len(s.Keys) != 100 {
			t.Errorf("exactly MaxSetSize: %v", err)
		}
		k := []byte(`{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA"}`)
		if _, err := jose.ParseKeyWithLimits(k, jose.Limits{MaxKeySize: len(k) - 1}); !errors.Is(err, jose.ErrLimitExceeded) {
			t.Errorf("one byte over MaxKeySize: %v", err)
		}
		if _, err := jose.ParseKeyWithLimits(bigKey, jose.Limits{MaxKeySize: len(bigKey)}); err != nil {
			t.Errorf("exactly MaxKeySize: %v", err)
		}
	})

	t.Run("set entry over MaxKeySize", func(t *testing.T) {
		long := `{"kty":"oct","kid":"long","k":"AAAAAAAAAAAAAAAAAAAAAA","x":"` + strings.Repeat("a", 200) + `"}`
		data := []byte(`{"keys":[{"kty":"oct","kid":"short","k":"AAAAAAAAAAAAAAAAAAAAAA"},` + long + `]}`)
		s, err := jose.ParseSetWithLimits(data, jose.Limits{MaxKeySize: 100})
		if err != nil {
			t.Fatal(err)
		}
		if !s.Keys[0].Supported() || s.Keys[1].Supported() || !errors.Is(s.Keys[1].Err(), jose.ErrLimitExceeded) {
			t.Fatalf("entries: %v, %v", s.Keys[0].Err(), s.Keys[1].Err())
		}
		if s.Keys[1].KeyID != "long" || s.Keys[1].KeyType() != "oct" {
			t.Errorf("unusable entry: kid %q, kty %q", s.Keys[1].KeyID, s.Keys[1].KeyType())
		}
	})
}

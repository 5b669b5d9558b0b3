package jose

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"errors"
	"slices"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// TestGenerate generates every kind of key except RSA (too slow for tests:
// only GenerateRSA's refusals are tested) and checks kid, metadata and a
// JSON round trip.
func TestGenerate(t *testing.T) {
	tests := []struct {
		name string
		gen  func() (*JWK, error)
		kty  string
		crv  string
		size int // oct key bytes
	}{
		{"oct 128", func() (*JWK, error) { return GenerateOct(128) }, "oct", "", 16},
		{"oct 512", func() (*JWK, error) { return GenerateOct(512) }, "oct", "", 64},
		{"P-256", func() (*JWK, error) { return GenerateEC("P-256") }, "EC", "P-256", 0},
		{"P-384", func() (*JWK, error) { return GenerateEC("P-384") }, "EC", "P-384", 0},
		{"P-521", func() (*JWK, error) { return GenerateEC("P-521") }, "EC", "P-521", 0},
		{"secp256k1", func() (*JWK, error) { return GenerateEC("secp256k1") }, "EC", "secp256k1", 0},
		{"Ed25519", func() (*JWK, error) { return GenerateOKP("Ed25519") }, "OKP", "Ed25519", 0},
		{"X25519", func() (*JWK, error) { return GenerateOKP("X25519") }, "OKP", "X25519", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := tt.gen()
			if err != nil {
				t.Fatal(err)
			}
			if k.KeyType() != tt.kty || k.Curve() != tt.crv || !k.IsPrivate() {
				t.Errorf("kty %q crv %q private %v", k.KeyType(), k.Curve(), k.IsPrivate())
			}
			tp, _ := k.Thumbprint(crypto.SHA256)
			if k.KeyID != Base64URLEncode(tp) {
				t.Errorf("kid %q is not the thumbprint", k.KeyID)
			}
			if tt.size != 0 && len(k.Key.([]byte)) != tt.size {
				t.Errorf("oct key of %d bytes", len(k.Key.([]byte)))
			}
			switch key := k.Key.(type) {
			case *ecdsa.PrivateKey, ed25519.PrivateKey, *jwa.Secp256k1PrivateKey:
			case *ecdh.PrivateKey:
				if key.Curve() != ecdh.X25519() {
					t.Errorf("curve %v", key.Curve())
				}
			case []byte:
			default:
				t.Errorf("Go key %T", key)
			}
			data, err := k.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParseKey(data)
			if err != nil || !jwkTEqualKeys(k.Key, back.Key) || back.KeyID != k.KeyID {
				t.Errorf("round trip: %v", err)
			}
			// Two generated keys differ.
			k2, _ := tt.gen()
			if k2.KeyID == k.KeyID {
				t.Error("two generated keys are equal")
			}
		})
	}
	k, err := GenerateKey(GenerateParams{KeyType: "EC", Curve: "P-256", KeyID: "mine", Use: "sig", Algorithm: "ES256", KeyOps: []KeyOp{OpSign}})
	if err != nil || k.KeyID != "mine" || k.Use != "sig" || k.Algorithm != "ES256" || !slices.Equal(k.KeyOps, []KeyOp{OpSign}) {
		t.Errorf("GenerateKey with parameters: %+v, %v", k, err)
	}
	if err := k.Permits("ES256", OpSign); err != nil {
		t.Error(err)
	}
}

// TestGenerateRefusals checks the sizes and curves refused.
func TestGenerateRefusals(t *testing.T) {
	tests := []struct {
		name string
		p    GenerateParams
		err  error
	}{
		{"RSA 1024", GenerateParams{KeyType: "RSA", Bits: 1024}, ErrInvalidKey},
		{"RSA 2047", GenerateParams{KeyType: "RSA", Bits: 2047}, ErrInvalidKey},
		{"RSA 0", GenerateParams{KeyType: "RSA"}, ErrInvalidKey},
		{"RSA too large", GenerateParams{KeyType: "RSA", Bits: MaxRSAModulusBits + 8}, ErrInvalidKey},
		{"oct 64", GenerateParams{KeyType: "oct", Bits: 64}, ErrInvalidKey},
		{"oct 130", GenerateParams{KeyType: "oct", Bits: 130}, ErrInvalidKey},
		{"oct too large", GenerateParams{KeyType: "oct", Bits: MaxOctBits + 8}, ErrInvalidKey},
		{"EC P-224", GenerateParams{KeyType: "EC", Curve: "P-224"}, ErrUnsupportedAlgorithm},
		{"EC Ed25519", GenerateParams{KeyType: "EC", Curve: "Ed25519"}, ErrUnsupportedAlgorithm},
		{"OKP Ed448", GenerateParams{KeyType: "OKP", Curve: "Ed448"}, ErrUnsupportedAlgorithm},
		{"OKP P-256", GenerateParams{KeyType: "OKP", Curve: "P-256"}, ErrUnsupportedAlgorithm},
		{"unknown kty", GenerateParams{KeyType: "DSA"}, ErrUnsupportedAlgorithm},
	}
	for _, tt := range tests {
		if k, err := GenerateKey(tt.p); !errors.Is(err, tt.err) || k != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := GenerateRSA(1024); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("GenerateRSA(1024): %v", err)
	}
}

package jose

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
)

// jwkTPEM encodes der as one PEM block.
func jwkTPEM(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// TestParseKeyPEM reads every PEM form of the fixed RSA key, of EC, Ed25519
// and X25519 keys, and of the RFC 7517 Appendix B certificate.
func TestParseKeyPEM(t *testing.T) {
	rk, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/rsa2048.pem"))
	if err != nil {
		t.Fatal(err)
	}
	rsaKey := rk.Key.(*rsa.PrivateKey)
	if rsaKey.N.BitLen() != 2048 {
		t.Fatalf("%d-bit key", rsaKey.N.BitLen())
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	ecDER, _ := x509.MarshalECPrivateKey(ecKey)
	ecPKCS8, _ := x509.MarshalPKCS8PrivateKey(ecKey)
	ecSPKI, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	edPKCS8, _ := x509.MarshalPKCS8PrivateKey(edKey)
	edSPKI, _ := x509.MarshalPKIXPublicKey(edKey.Public())
	xKey, _ := ecdh.X25519().GenerateKey(rand.Reader)
	xPKCS8, _ := x509.MarshalPKCS8PrivateKey(xKey)
	xSPKI, _ := x509.MarshalPKIXPublicKey(xKey.PublicKey())
	rsaSPKI, _ := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	b, _ := ParseKey(jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	certPEM := jwkTPEM("CERTIFICATE", b.Certificates[0].Raw)
	ecParams := jwkTPEM("EC PARAMETERS", []byte{6, 5, 43, 129, 4, 0, 34})

	tests := []struct {
		name  string
		data  []byte
		want  any
		certs int
	}{
		{"PKCS #1 private", jwkTPEM("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)), rsaKey, 0},
		{"PKCS #1 public", jwkTPEM("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey)), &rsaKey.PublicKey, 0},
		{"SPKI RSA", jwkTPEM("PUBLIC KEY", rsaSPKI), &rsaKey.PublicKey, 0},
		{"SEC 1", jwkTPEM("EC PRIVATE KEY", ecDER), ecKey, 0},
		{"SEC 1 after EC PARAMETERS", append(ecParams, jwkTPEM("EC PRIVATE KEY", ecDER)...), ecKey, 0},
		{"PKCS #8 EC", jwkTPEM("PRIVATE KEY", ecPKCS8), ecKey, 0},
		{"SPKI EC", jwkTPEM("PUBLIC KEY", ecSPKI), &ecKey.PublicKey, 0},
		{"PKCS #8 Ed25519", jwkTPEM("PRIVATE KEY", edPKCS8), edKey, 0},
		{"SPKI Ed25519", jwkTPEM("PUBLIC KEY", edSPKI), edKey.Public(), 0},
		{"PKCS #8 X25519", jwkTPEM("PRIVATE KEY", xPKCS8), xKey, 0},
		{"SPKI X25519", jwkTPEM("PUBLIC KEY", xSPKI), xKey.PublicKey(), 0},
		{"certificate", certPEM, b.Key, 1},
		{"certificate chain", append(append(append([]byte("leading text\n"), certPEM...), certPEM...), jwkTPEM("PRIVATE KEY", ecPKCS8)...), b.Key, 2},
	}
	for _, tt := range tests {
		k, err := ParseKeyPEM(tt.data)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !jwkTEqualKeys(tt.want, k.Key) || len(k.Certificates) != tt.certs {
			t.Errorf("%s: got %T with %d certificates", tt.name, k.Key, len(k.Certificates))
		}
		if _, err := k.MarshalJSON(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	// The certificate's JWK is the RFC 7517 Appendix B JWK, without kid
	// and use.
	k, _ := ParseKeyPEM(certPEM)
	k.KeyID, k.Use = "1b94c", "sig"
	out, _ := k.MarshalJSON()
	if !vectortest.SameJSON(t, out, jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk")) {
		t.Errorf("certificate JWK: %s", out)
	}
}

// TestParseKeyPEMRefusals checks the PEM inputs refused.
func TestParseKeyPEMRefusals(t *testing.T) {
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	edPKCS8, _ := x509.MarshalPKCS8PrivateKey(edKey)
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-128-CBC,00"}, Bytes: []byte{1}})
	dsa := jwkTPEM("DSA PRIVATE KEY", []byte{1})
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	p224DER, _ := x509.MarshalECPrivateKey(p224)
	tests := []struct {
		name string
		data []byte
		err  error
	}{
		{"empty", nil, ErrMalformed},
		{"not PEM", []byte("-----BEGIN"), ErrMalformed},
		{"only EC PARAMETERS", jwkTPEM("EC PARAMETERS", []byte{1}), ErrMalformed},
		{"encrypted PKCS #8", jwkTPEM("ENCRYPTED PRIVATE KEY", []byte{1}), ErrUnsupportedAlgorithm},
		{"encrypted legacy", encrypted, ErrUnsupportedAlgorithm},
		{"unknown type", dsa, ErrUnsupportedAlgorithm},
		{"bad PKCS #8", jwkTPEM("PRIVATE KEY", edPKCS8[:20]), ErrMalformed},
		{"bad PKCS #1", jwkTPEM("RSA PRIVATE KEY", []byte{1, 2}), ErrMalformed},
		{"bad PKCS #1 public", jwkTPEM("RSA PUBLIC KEY", []byte{1, 2}), ErrMalformed},
		{"bad SEC 1", jwkTPEM("EC PRIVATE KEY", []byte{1, 2}), ErrMalformed},
		{"bad SPKI", jwkTPEM("PUBLIC KEY", []byte{1, 2}), ErrMalformed},
		{"bad certificate", jwkTPEM("CERTIFICATE", []byte{1, 2}), ErrMalformed},
		{"P-224", jwkTPEM("EC PRIVATE KEY", p224DER), ErrUnsupportedAlgorithm},
		{"too many certificates", []byte(strings.Repeat(string(jwkTPEM("CERTIFICATE", jwkTRSACert(t))), MaxCertificates+1)), ErrLimitExceeded},
	}
	for _, tt := range tests {
		k, err := ParseKeyPEM(tt.data)
		if !errors.Is(err, tt.err) || k != nil || !strings.HasPrefix(err.Error(), "jose: ") {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := (&JWK{}).MarshalPEM(); err == nil {
		t.Error("MarshalPEM of an empty JWK")
	}
}

func jwkTRSACert(t *testing.T) []byte {
	b, err := ParseKey(jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	if err != nil {
		t.Fatal(err)
	}
	return b.Certificates[0].Raw
}

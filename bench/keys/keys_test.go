package keys

import (
	"crypto/ecdh"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestRSA(t *testing.T) {
	for _, bits := range []int{2048, 3072, 4096} {
		k, err := RSA(bits)
		if err != nil {
			t.Fatal(err)
		}
		if k.N.BitLen() != bits || k.E != 65537 {
			t.Errorf("rsa%d: %d bits, e=%d", bits, k.N.BitLen(), k.E)
		}
	}
	if _, err := RSA(1024); err == nil {
		t.Error("RSA(1024) did not fail")
	}
}

func TestEC(t *testing.T) {
	for crv, bits := range map[string]int{"P-256": 256, "P-384": 384, "P-521": 521} {
		k, err := EC(crv)
		if err != nil {
			t.Fatal(err)
		}
		if k.Curve.Params().BitSize != bits {
			t.Errorf("%s: curve of %d bits", crv, k.Curve.Params().BitSize)
		}
	}
	if _, err := EC("P-192"); err == nil {
		t.Error("EC(P-192) did not fail")
	}
}

// RFC 8037 §A.6: Bob's public key is de9edb7d...4e6f (hex).
func TestCurve25519(t *testing.T) {
	if _, err := Ed25519(); err != nil {
		t.Fatal(err)
	}
	x, err := X25519()
	if err != nil {
		t.Fatal(err)
	}
	if x.Curve() != ecdh.X25519() {
		t.Error("not an X25519 key")
	}
	if got := hex.EncodeToString(x.PublicKey().Bytes()); got != "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f" {
		t.Errorf("X25519 public key %s", got)
	}
}

func TestOct(t *testing.T) {
	for _, bits := range []int{128, 192, 256, 384, 512} {
		k, err := Oct(bits)
		if err != nil {
			t.Fatal(err)
		}
		if len(k)*8 != bits {
			t.Errorf("oct%d: %d bytes", bits, len(k))
		}
	}
	if _, err := Oct(64); err == nil {
		t.Error("Oct(64) did not fail")
	}
}

// RFC 7520 §5.3.1: the password "entrap_o–peter_long–credit_tun" with two
// U+2013 dashes.
func TestPBES2Password(t *testing.T) {
	p := PBES2Password()
	sum := sha256.Sum256([]byte("entrap_o\u2013peter_long\u2013credit_tun"))
	if sha256.Sum256(p) != sum {
		t.Errorf("password %q", p)
	}
}

// The second keys load, have the size of the first ones and differ from
// them: a token made under one must not load under the other.
func TestOtherKeys(t *testing.T) {
	for _, bits := range []int{2048, 3072, 4096} {
		k, err := RSA(bits)
		if err != nil {
			t.Fatal(err)
		}
		o, err := OtherRSA(bits)
		if err != nil {
			t.Fatal(err)
		}
		if o.N.BitLen() != bits || o.N.Cmp(k.N) == 0 {
			t.Errorf("other rsa%d: %d bits, same modulus %v", bits, o.N.BitLen(), o.N.Cmp(k.N) == 0)
		}
	}
	for _, crv := range []string{"P-256", "P-384", "P-521"} {
		k, _ := EC(crv)
		o, err := OtherEC(crv)
		if err != nil {
			t.Fatal(err)
		}
		if o.Curve != k.Curve || o.Equal(k) {
			t.Errorf("other %s: curve %s, equal %v", crv, o.Curve.Params().Name, o.Equal(k))
		}
	}
	ed, _ := Ed25519()
	if o, err := OtherEd25519(); err != nil || o.Equal(ed) {
		t.Errorf("other Ed25519: %v, equal %v", err, o.Equal(ed))
	}
	x, _ := X25519()
	if o, err := OtherX25519(); err != nil || o.Equal(x) {
		t.Errorf("other X25519: %v, equal %v", err, o.Equal(x))
	}
	for _, bits := range []int{128, 192, 256, 384, 512} {
		k, _ := Oct(bits)
		o, err := OtherOct(bits)
		if err != nil || len(o) != len(k) || string(o) == string(k) {
			t.Errorf("other oct%d: %v, %d bytes, equal %v", bits, err, len(o), string(o) == string(k))
		}
	}
	if string(OtherPBES2Password()) == string(PBES2Password()) {
		t.Error("other PBES2 password is the same")
	}
}

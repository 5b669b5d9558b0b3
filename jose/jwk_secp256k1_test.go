package jose

import (
	"crypto"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// The public secp256k1 JWK of the Wycheproof ES256K vectors
// (../testdata/wycheproof/ecdsa_secp256k1_sha256_p1363_test.json, first
// group's publicKeyJwk, Apache-2.0), and a fixed private key of this test.
const secp256k1TestPublic = `{"kty":"EC","crv":"secp256k1","x":"uDj_ROW8F3vyEYnQdmCC_J2EMiaIf8l2A3EQC37iCm8","y":"8MnXW_unsxpryhl0SW7rVt41cHGVXYPEsbraoLIYMuk"}`

func secp256k1TestKey(t *testing.T) *jwa.Secp256k1PrivateKey {
	t.Helper()
	d := sha256.Sum256([]byte("josebench jose secp256k1"))
	k, err := jwa.NewSecp256k1PrivateKey(d[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSecp256k1JWK parses, marshals, thumbprints, analyzes and converts
// secp256k1 JWKs (RFC 8812 §3.1), and refuses bad ones.
func TestSecp256k1JWK(t *testing.T) {
	k, err := ParseKey([]byte(secp256k1TestPublic))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := k.Key.(*jwa.Secp256k1PublicKey); !ok || k.KeyType() != "EC" || k.Curve() != "secp256k1" || k.IsPrivate() || !k.Supported() {
		t.Fatalf("parsed %T kty %s crv %s", k.Key, k.KeyType(), k.Curve())
	}
	out, err := k.MarshalJSON()
	if err != nil || string(out) != secp256k1TestPublic {
		t.Errorf("MarshalJSON = %s, %v", out, err)
	}
	// RFC 7638 §3.2: the EC members crv, kty, x, y in that order.
	in, err := k.thumbprintInput()
	if want := `{"crv":"secp256k1","kty":"EC","x":"uDj_ROW8F3vyEYnQdmCC_J2EMiaIf8l2A3EQC37iCm8","y":"8MnXW_unsxpryhl0SW7rVt41cHGVXYPEsbraoLIYMuk"}`; err != nil || string(in) != want {
		t.Errorf("thumbprint input %s, %v", in, err)
	}
	tp, _ := k.Thumbprint(crypto.SHA256)
	if sum := sha256.Sum256(in); string(tp) != string(sum[:]) {
		t.Error("thumbprint is not the SHA-256 of its input")
	}

	priv := secp256k1TestKey(t)
	pk, err := NewJWK(priv)
	if err != nil {
		t.Fatal(err)
	}
	pk.Algorithm, pk.Use, pk.KeyID = "ES256K", "sig", "k1"
	js, err := pk.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseKey(js)
	if err != nil || !back.IsPrivate() || !back.Key.(*jwa.Secp256k1PrivateKey).Equal(priv) {
		t.Fatalf("round trip of %s: %v", js, err)
	}
	if pub := back.Public(); pub == nil || !pub.Key.(*jwa.Secp256k1PublicKey).Equal(priv.PublicKey()) || strings.Contains(mustJSON(t, pub), `"d"`) {
		t.Errorf("Public() = %+v", pub)
	}
	if f := AnalyzeKey(pk); len(f) != 0 {
		t.Errorf("AnalyzeKey of a good ES256K key: %v", f)
	}
	pk.Algorithm = "ES256"
	if f := AnalyzeKey(pk); len(f) == 0 || !strings.Contains(f[0].String(), "secp256k1") {
		t.Errorf("AnalyzeKey of a secp256k1 key for ES256: %v", f)
	}
	pk.Algorithm = "ECDH-ES"
	pk.Use = "enc"
	if f := AnalyzeKey(pk); len(f) == 0 {
		t.Error("AnalyzeKey of a secp256k1 key for ECDH-ES: no finding (ECDH with secp256k1 is not registered)")
	}

	for _, z := range []any{new(jwa.Secp256k1PublicKey), new(jwa.Secp256k1PrivateKey)} {
		if _, err := NewJWK(z); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("NewJWK(zero %T): %v", z, err)
		}
		if _, err := (&JWK{Key: z}).MarshalJSON(); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("MarshalJSON(zero %T): %v", z, err)
		}
	}

	wrongD := strings.Replace(string(js), `"d":"`, `"d":"A`, 1)
	otherD := func() string {
		o, _ := NewJWK(secp256k1Other(t))
		b, _ := o.MarshalJSON()
		i := strings.Index(string(b), `"d":`)
		j := strings.Index(string(js), `"d":`)
		return string(js[:j]) + string(b[i:])
	}()
	for name, c := range map[string]struct {
		json string
		err  error
	}{
		"off curve":        {strings.Replace(secp256k1TestPublic, `"y":"8`, `"y":"9`, 1), ErrInvalidKey},
		"short x":          {strings.Replace(secp256k1TestPublic, `"x":"uD`, `"x":"`, 1), ErrMalformed},
		"missing y":        {`{"kty":"EC","crv":"secp256k1","x":"uDj_ROW8F3vyEYnQdmCC_J2EMiaIf8l2A3EQC37iCm8"}`, ErrMalformed},
		"d of 33 bytes":    {wrongD, ErrMalformed},
		"d of another key": {otherD, ErrInvalidKey},
		"d = 0":            {string(js[:strings.Index(string(js), `"d":`)]) + `"d":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`, ErrInvalidKey},
		"crv Secp256k1":    {strings.Replace(secp256k1TestPublic, "secp256k1", "Secp256k1", 1), ErrUnsupportedAlgorithm},
	} {
		if _, err := ParseKey([]byte(c.json)); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", name, err, c.err)
		}
	}
}

func secp256k1Other(t *testing.T) *jwa.Secp256k1PrivateKey {
	d := sha256.Sum256([]byte("josebench jose secp256k1 other"))
	k, err := jwa.NewSecp256k1PrivateKey(d[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustJSON(t *testing.T, k *JWK) string {
	t.Helper()
	b, err := k.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecp256k1PEM reads OpenSSL's three forms of one secp256k1 key
// (../testdata/keys/secp256k1.*.pem) and the Wycheproof public key PEM,
// and writes PEM that reads back to the same key.
func TestSecp256k1PEM(t *testing.T) {
	var priv *jwa.Secp256k1PrivateKey
	for _, name := range []string{"secp256k1.sec1.pem", "secp256k1.pkcs8.pem"} {
		k, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/"+name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p, ok := k.Key.(*jwa.Secp256k1PrivateKey)
		if !ok || (priv != nil && !p.Equal(priv)) {
			t.Fatalf("%s: %T, or another key", name, k.Key)
		}
		priv = p
	}
	pub, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/secp256k1.pub.pem"))
	if err != nil || !pub.Key.(*jwa.Secp256k1PublicKey).Equal(priv.PublicKey()) {
		t.Fatalf("public PEM: %v", err)
	}
	for _, k := range []*JWK{{Key: priv}, {Key: priv.PublicKey()}} {
		out, err := k.MarshalPEM()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseKeyPEM(out)
		if err != nil || !jwkTEqualKeys(k.Key, back.Key) {
			t.Errorf("PEM round trip of %T: %v\n%s", k.Key, err, out)
		}
	}
	wp, err := ParseKeyPEM([]byte("-----BEGIN PUBLIC KEY-----\nMFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEuDj/ROW8F3vyEYnQdmCC/J2EMiaIf8l2\nA3EQC37iCm/wyddb+6ezGmvKGXRJbutW3jVwcZVdg8Sxutqgshgy6Q==\n-----END PUBLIC KEY-----\n"))
	want, _ := ParseKey([]byte(secp256k1TestPublic))
	if err != nil || !jwkTEqualKeys(wp.Key, want.Key) {
		t.Errorf("Wycheproof public key PEM: %v", err)
	}
}

// TestSecp256k1PEMRefusals: a SEC 1 key whose public key is another
// key's, a scalar of 0, a compressed public point, and trailing data are
// refused, each with its sentinel.
func TestSecp256k1PEMRefusals(t *testing.T) {
	a, b := secp256k1TestKey(t), secp256k1Other(t)
	sec1 := func(d, pub []byte) []byte {
		der, err := asn1.Marshal(secp256k1ECPrivateKey{Version: 1, PrivateKey: d, Curve: oidSecp256k1, PublicKey: asn1.BitString{Bytes: pub, BitLength: 8 * len(pub)}})
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	}
	spki := func(point []byte, extra ...byte) []byte {
		der, err := asn1.Marshal(secp256k1SPKI{secp256k1AlgID{oidECPublicKey, oidSecp256k1}, asn1.BitString{Bytes: point, BitLength: 8 * len(point)}})
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: append(der, extra...)})
	}
	if _, err := ParseKeyPEM(sec1(a.Bytes(), a.PublicKey().Bytes())); err != nil {
		t.Fatalf("control: %v", err)
	}
	compressed := append([]byte{2 + a.PublicKey().Bytes()[64]&1}, a.PublicKey().Bytes()[1:33]...)
	for name, c := range map[string]struct {
		pem []byte
		err error
	}{
		"another key's public key": {sec1(a.Bytes(), b.PublicKey().Bytes()), ErrInvalidKey},
		"zero scalar":              {sec1(make([]byte, 32), nil), ErrInvalidKey},
		"compressed point":         {spki(compressed), ErrInvalidKey},
		"trailing data":            {spki(a.PublicKey().Bytes(), 0), ErrMalformed},
	} {
		if _, err := ParseKeyPEM(c.pem); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", name, err, c.err)
		}
	}
}

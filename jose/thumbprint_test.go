package jose

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"math/big"
	"strings"
	"testing"
)

// thumbprintInput returns the JSON that [JWK.Thumbprint] hashes.
func (k *JWK) thumbprintInput() ([]byte, error) {
	return k.appendThumbprintInput(nil)
}

// TestThumbprintRFC7638 checks RFC 7638 §3.1 byte for byte: the JSON that
// is hashed and the SHA-256 thumbprint (latchset rfc7638_3.1.thp), and the
// RFC 9278 §3 thumbprint URI of the same key.
func TestThumbprintRFC7638(t *testing.T) {
	set, err := ParseSet(jwkTRead(t, "../testdata/latchset/rfc7517_A.1.jwkset"))
	if err != nil {
		t.Fatal(err)
	}
	k := set.LookupKeyID("2011-04-29")[0]
	in, err := k.thumbprintInput()
	if err != nil {
		t.Fatal(err)
	}
	n := jwkTMembers(t, jwkTRead(t, "../testdata/latchset/rfc7517_A.1.jwkset"))["keys"].([]any)[1].(map[string]any)["n"].(string)
	if want := `{"e":"AQAB","kty":"RSA","n":"` + n + `"}`; string(in) != want {
		t.Errorf("RFC 7638 §3.1 JSON:\n got %s\nwant %s", in, want)
	}
	want := strings.TrimSpace(string(jwkTRead(t, "../testdata/latchset/non-json/rfc7638_3.1.thp")))
	tp, err := k.Thumbprint(crypto.SHA256)
	if err != nil || Base64URLEncode(tp) != want {
		t.Errorf("thumbprint %s, want %s (%v)", Base64URLEncode(tp), want, err)
	}
	uri, err := k.ThumbprintURI(crypto.SHA256)
	if err != nil || uri != "urn:ietf:params:oauth:jwk-thumbprint:sha-256:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs" {
		t.Errorf("RFC 9278 URI %s, %v", uri, err)
	}
}

// TestThumbprintEveryKeyType checks the hashed JSON of each key type
// against its definition (RFC 7638 §3.2, RFC 8037 §2), and other hashes.
func TestThumbprintEveryKeyType(t *testing.T) {
	tests := []struct {
		key  string
		want string
	}{
		{`{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","alg":"A128KW","kid":"x"}`, `{"k":"GawgguFyGrWKav7AX4VKUg","kty":"oct"}`},
		{jwkTECPriv, `{"crv":"P-256","kty":"EC","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}`},
		{jwkTEd25519Priv, `{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`},
		{jwkTX25519Pub, `{"crv":"X25519","kty":"OKP","x":"hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo"}`},
	}
	for _, tt := range tests {
		k, err := ParseKey([]byte(tt.key))
		if err != nil {
			t.Fatal(err)
		}
		in, err := k.thumbprintInput()
		if err != nil || string(in) != tt.want {
			t.Errorf("got %s, want %s (%v)", in, tt.want, err)
		}
		sum := sha256.Sum256([]byte(tt.want))
		if tp, err := k.Thumbprint(crypto.SHA256); err != nil || !bytes.Equal(tp, sum[:]) {
			t.Errorf("%s: SHA-256 thumbprint %x", tt.want, tp)
		}
		for _, h := range []struct {
			h    crypto.Hash
			name string
		}{{crypto.SHA384, "sha-384"}, {crypto.SHA512, "sha-512"}, {crypto.SHA3_224, "sha3-224"}, {crypto.SHA3_256, "sha3-256"}, {crypto.SHA3_384, "sha3-384"}, {crypto.SHA3_512, "sha3-512"}} {
			hh := h.h.New()
			hh.Write([]byte(tt.want))
			uri, err := k.ThumbprintURI(h.h)
			if want := ThumbprintURIPrefix + h.name + ":" + Base64URLEncode(hh.Sum(nil)); err != nil || uri != want {
				t.Errorf("URI %s, want %s (%v)", uri, want, err)
			}
		}
	}
	k, _ := ParseKey([]byte(jwkTEd25519Pub))
	if _, err := k.ThumbprintURI(crypto.SHA1); err == nil {
		t.Error("SHA-1 thumbprint URI: SHA-1 has no registered name")
	}
	if _, err := k.Thumbprint(crypto.Hash(0)); err == nil {
		t.Error("thumbprint with no hash")
	}
	if _, err := (&JWK{}).ThumbprintURI(crypto.SHA256); err == nil {
		t.Error("thumbprint URI of an empty JWK")
	}
}

// TestThumbprintInputDirect: the public EC and Ed25519 keys, whose
// thumbprint input is written directly, get the bytes of the general path
// (AppendJSON read back), and the same error for a point off the curve;
// the input is appended after dst's bytes. A SHA-256 thumbprint of a
// public EC key allocates the sum and what crypto/ecdsa's Bytes does (3
// allocations for P-256 in Go 1.26 and 1.27, 6 for P-384 and P-521),
// where reading back AppendJSON cost 19 for P-256.
func TestThumbprintInputDirect(t *testing.T) {
	var keys []any
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		k, err := ecdsa.GenerateKey(c, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, &k.PublicKey)
	}
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, pub)
	for _, key := range keys {
		k := &JWK{Key: key}
		got, err := k.appendThumbprintInput([]byte("prefix"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := thumbprintInputOf([]byte("prefix"), key)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%T: direct input\n%s\nwant\n%s", key, got, want)
		}
		tp, err := k.Thumbprint(crypto.SHA256)
		if sum := sha256.Sum256(want[len("prefix"):]); err != nil || !bytes.Equal(tp, sum[:]) {
			t.Errorf("%T: thumbprint %x, want %x (%v)", key, tp, sum, err)
		}
	}

	// A point off the curve (1, 1), the point at infinity (0, 0), a
	// coordinate of the key's point plus p (the same residue, not
	// canonical) and a negative one: AppendJSON's error, not a
	// thumbprint.
	good := keys[0].(*ecdsa.PublicKey)
	p := elliptic.P256().Params().P
	for name, off := range map[string]*ecdsa.PublicKey{
		"(1, 1)":   {Curve: elliptic.P256(), X: big.NewInt(1), Y: big.NewInt(1)},
		"infinity": {Curve: elliptic.P256(), X: new(big.Int), Y: new(big.Int)},
		"x+p":      {Curve: elliptic.P256(), X: new(big.Int).Add(good.X, p), Y: good.Y},
		"y+p":      {Curve: elliptic.P256(), X: good.X, Y: new(big.Int).Add(good.Y, p)},
		"-x":       {Curve: elliptic.P256(), X: new(big.Int).Neg(good.X), Y: good.Y},
	} {
		_, want := thumbprintInputOf(nil, off)
		if want == nil {
			t.Fatalf("%s: the general path accepts a point off the curve", name)
		}
		if _, err := (&JWK{Key: off}).Thumbprint(crypto.SHA256); err == nil || err.Error() != want.Error() || !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}

	// Every key's input fits thumbprintSHA256's buffer: a SHA-256
	// thumbprint allocates the sum and what crypto/ecdsa's Bytes does,
	// nothing more. P-521's input, the longest, is 216 bytes; a buffer
	// too short for it cost P-384 and P-521 an allocation more.
	for _, key := range keys {
		k := &JWK{Key: key}
		want := 1.0
		if pub, ok := key.(*ecdsa.PublicKey); ok {
			want += testing.AllocsPerRun(100, func() { pub.Bytes() })
		}
		if n := testing.AllocsPerRun(100, func() { k.Thumbprint(crypto.SHA256) }); n > want {
			t.Errorf("%s: a SHA-256 thumbprint allocates %v times, want at most %v", k.Curve(), n, want)
		}
	}
}

// TestThumbprintLeadingZeros: a coordinate whose first byte is zero is
// written in the curve's full size (RFC 7518 §6.2.1.2, §6.2.1.3), by the
// direct path as by the general one, for the private key as for its
// public key. The scalars d are the first whose public x (or y) starts
// with a zero byte.
func TestThumbprintLeadingZeros(t *testing.T) {
	for _, c := range []struct {
		curve elliptic.Curve
		d     int64
		coord string
	}{
		{elliptic.P256(), 379, "x"}, {elliptic.P256(), 43, "y"},
		{elliptic.P384(), 197, "x"}, {elliptic.P384(), 176, "y"},
		{elliptic.P521(), 1, "x"}, {elliptic.P521(), 2, "y"},
	} {
		size := (c.curve.Params().BitSize + 7) / 8
		priv, err := ecdsa.ParseRawPrivateKey(c.curve, big.NewInt(c.d).FillBytes(make([]byte, size)))
		if err != nil {
			t.Fatal(err)
		}
		name := c.curve.Params().Name + " " + c.coord
		in, err := (&JWK{Key: &priv.PublicKey}).thumbprintInput()
		if err != nil {
			t.Fatal(err)
		}
		members := jwkTMembers(t, in)
		v, err := Base64URLDecode(members[c.coord].(string))
		if err != nil || len(v) != size || v[0] != 0 {
			t.Errorf("%s: %q decodes to %x (%v), want %d bytes starting with 0", name, members[c.coord], v, err, size)
		}
		general, err := thumbprintInputOf(nil, &priv.PublicKey)
		if err != nil || !bytes.Equal(in, general) {
			t.Errorf("%s: direct input\n%s\nwant\n%s (%v)", name, in, general, err)
		}
		pub, err := (&JWK{Key: &priv.PublicKey}).Thumbprint(crypto.SHA256)
		if err != nil {
			t.Fatal(err)
		}
		if tp, err := (&JWK{Key: priv}).Thumbprint(crypto.SHA256); err != nil || !bytes.Equal(tp, pub) {
			t.Errorf("%s: the private key's thumbprint %x, the public key's %x (%v)", name, tp, pub, err)
		}
	}
}

package jwe_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

func rvDecrypter(t *testing.T, o jwe.DecryptOptions) *jwe.Decrypter {
	t.Helper()
	if o.KeyAlgorithms == nil {
		o.KeyAlgorithms = jwa.KeyAlgorithms()
	}
	if o.ContentEncryptions == nil {
		o.ContentEncryptions = jwa.ContentEncryptions()
	}
	d, err := jwe.NewDecrypter(o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ecKeys returns a fresh P-256 ECDSA key and a fresh X25519 key, for the
// ECDH-ES key agreement of RFC 7518 §4.6 and RFC 8037 §3.2.
func ecKeys(t *testing.T) (*ecdsa.PrivateKey, *ecdh.PrivateKey) {
	t.Helper()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return ec, x
}

func rvCompact(t *testing.T, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, opts *jwe.EncrypterOptions) []byte {
	t.Helper()
	e, err := jwe.NewEncrypter(alg, enc, key, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Compact([]byte("attack at dawn"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// rvSegs splits a compact token (test input only).
func rvSegs(tok []byte) []string { return strings.Split(string(tok), ".") }

func rvJoin(s []string) []byte { return []byte(strings.Join(s, ".")) }

// TestRVOpaqueErrorText: every failure after the header checks gives the
// same error, with the same text.
func TestRVOpaqueErrorText(t *testing.T) {
	rk := vectortest.RSAKey(t, 2048)
	k16 := bytes.Repeat([]byte{7}, 16)
	want := ""
	check := func(name string, d *jwe.Decrypter, tok []byte) {
		t.Helper()
		_, err := d.DecryptCompact(tok)
		if !errors.Is(err, jose.ErrDecryptionFailed) {
			t.Errorf("%s: %v, want ErrDecryptionFailed", name, err)
			return
		}
		if want == "" {
			want = err.Error()
		}
		if err.Error() != want {
			t.Errorf("%s: text %q, want %q", name, err, want)
		}
	}
	dk := rvDecrypter(t, jwe.DecryptOptions{Key: k16})
	tok := rvCompact(t, jwa.A128KW, jwa.A128GCM, k16, nil)
	s := rvSegs(tok)
	s2 := append([]string(nil), s...)
	s2[4] = s[4][:len(s[4])-2] // 15-byte tag... re-encode properly below
	tag, _ := jose.Base64URLDecode(s[4])
	s2[4] = jose.Base64URLEncode(tag[:12])
	check("truncated GCM tag", dk, rvJoin(s2))
	s2[4] = jose.Base64URLEncode(append(tag, 0))
	check("extended GCM tag", dk, rvJoin(s2))
	copy(s2, s)
	iv, _ := jose.Base64URLDecode(s[2])
	s2[2] = jose.Base64URLEncode(append(iv, 0, 0, 0, 0))
	check("16-byte GCM iv", dk, rvJoin(s2))
	copy(s2, s)
	ek, _ := jose.Base64URLDecode(s[1])
	ek[3] ^= 1
	s2[1] = jose.Base64URLEncode(ek)
	check("AES-KW integrity", dk, rvJoin(s2))
	s2[1] = jose.Base64URLEncode(ek[:16])
	check("AES-KW short", dk, rvJoin(s2))
	check("wrong key", rvDecrypter(t, jwe.DecryptOptions{Key: bytes.Repeat([]byte{8}, 16)}), tok)

	dr := rvDecrypter(t, jwe.DecryptOptions{Key: rk})
	for _, alg := range []jwa.KeyAlgorithm{jwa.RSA1_5, jwa.RSAOAEP, jwa.RSAOAEP256} {
		tok := rvCompact(t, alg, jwa.A256GCM, &rk.PublicKey, nil)
		s := rvSegs(tok)
		ek, _ := jose.Base64URLDecode(s[1])
		ek[10] ^= 1
		s[1] = jose.Base64URLEncode(ek)
		check(string(alg)+" bad ek", dr, rvJoin(s))
		s[1] = jose.Base64URLEncode(ek[:100])
		check(string(alg)+" short ek", dr, rvJoin(s))
		// A well-padded CEK of the wrong size for enc.
		var wrong []byte
		if alg == jwa.RSA1_5 {
			wrong, _ = rsa.EncryptPKCS1v15(rand.Reader, &rk.PublicKey, k16)
		} else {
			wrong = nil
		}
		if wrong != nil {
			s[1] = jose.Base64URLEncode(wrong)
			check(string(alg)+" CEK of the wrong size", dr, rvJoin(s))
		}
	}
}

// TestRVSetCandidatesBounded: a token without a kid makes the Decrypter try
// at most jwe.MaxKeyCandidates keys of a JWK Set per recipient, so the work
// one token causes does not grow with the set.
func TestRVSetCandidatesBounded(t *testing.T) {
	set := &jose.Set{}
	for i := range jwe.MaxKeyCandidates + 1 {
		set.Keys = append(set.Keys, &jose.JWK{Key: bytes.Repeat([]byte{byte(i + 1)}, 16)})
	}
	d := rvDecrypter(t, jwe.DecryptOptions{Keys: set})
	in := rvCompact(t, jwa.A128KW, jwa.A128GCM, set.Keys[jwe.MaxKeyCandidates-1].Key, nil)
	if _, err := d.DecryptCompact(in); err != nil {
		t.Fatalf("key within the bound: %v", err)
	}
	out := rvCompact(t, jwa.A128KW, jwa.A128GCM, set.Keys[jwe.MaxKeyCandidates].Key, nil)
	if _, err := d.DecryptCompact(out); err == nil {
		t.Fatal("a key past MaxKeyCandidates was tried")
	}
	// With a kid, the key is found wherever it is.
	set.Keys[jwe.MaxKeyCandidates].KeyID = "last"
	kid := rvCompact(t, jwa.A128KW, jwa.A128GCM, set.Keys[jwe.MaxKeyCandidates].Key, &jwe.EncrypterOptions{KeyID: "last"})
	if _, err := rvDecrypter(t, jwe.DecryptOptions{Keys: set}).DecryptCompact(kid); err != nil {
		t.Fatalf("by kid: %v", err)
	}
}

// TestRVKeyFunc: whatever KeyFunc returns, nothing decrypts with a key that
// does not fit, and nothing panics.
func TestRVKeyFunc(t *testing.T) {
	rk := vectortest.RSAKey(t, 2048)
	tok := rvCompact(t, jwa.RSAOAEP, jwa.A128GCM, &rk.PublicKey, nil)
	rj, _ := jose.NewJWK(rk)
	rj.Algorithm = "RSA1_5"
	pub, _ := jose.NewJWK(&rk.PublicKey)
	unsupported, err := jose.ParseSet([]byte(`{"keys":[{"kty":"XYZ","kid":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		key  any
	}{
		{"public key", &rk.PublicKey},
		{"public JWK", pub},
		{"JWK alg differs", rj},
		{"bytes", bytes.Repeat([]byte{1}, 16)},
		{"nil", nil},
		{"nil JWK", (*jose.JWK)(nil)},
		{"unsupported entry", unsupported.Keys[0]},
		{"string", "key"},
	} {
		d := rvDecrypter(t, jwe.DecryptOptions{KeyFunc: func(*jose.Header) (any, error) { return c.key, nil }})
		if m, err := d.DecryptCompact(tok); err == nil || m != nil {
			t.Errorf("%s: decrypted", c.name)
		}
		if c.key != nil {
			// A key that fits no algorithm is refused by NewDecrypter.
			d, err := jwe.NewDecrypter(jwe.DecryptOptions{KeyAlgorithms: jwa.KeyAlgorithms(), ContentEncryptions: jwa.ContentEncryptions(), Key: c.key})
			if err != nil {
				if !errors.Is(err, jose.ErrInvalidKey) {
					t.Errorf("%s (Key): NewDecrypter: %v, want ErrInvalidKey", c.name, err)
				}
				continue
			}
			if m, err := d.DecryptCompact(tok); err == nil || m != nil {
				t.Errorf("%s (Key): decrypted", c.name)
			}
		}
	}
}

// TestRVECDHEPK: the epk must be a public key on the receiver's curve.
func TestRVECDHEPK(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	d := rvDecrypter(t, jwe.DecryptOptions{Key: p256})
	tok := rvCompact(t, jwa.ECDHES, jwa.A128GCM, &p256.PublicKey, nil)
	if _, err := d.DecryptCompact(tok); err != nil {
		t.Fatal(err)
	}
	s := rvSegs(tok)
	hb, _ := jose.Base64URLDecode(s[0])
	var h map[string]any
	json.Unmarshal(hb, &h)
	for name, epk := range map[string]*ecdsa.PrivateKey{"private epk": p256, "other curve": p384} {
		j, _ := jose.NewJWK(epk)
		if name == "other curve" {
			j = j.Public()
		}
		jb, _ := json.Marshal(j)
		var jm any
		json.Unmarshal(jb, &jm)
		h["epk"] = jm
		nb, _ := json.Marshal(h)
		s2 := append([]string(nil), s...)
		s2[0] = jose.Base64URLEncode(nb)
		if _, err := d.DecryptCompact(rvJoin(s2)); err == nil {
			t.Errorf("%s: decrypted", name)
		}
	}
}

// TestRVJSONRules: dir among several recipients, zip outside the protected
// header, and overlapping header names are refused; AAD is authenticated.
func TestRVJSONRules(t *testing.T) {
	k16 := bytes.Repeat([]byte{7}, 16)
	e, err := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, k16, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := e.Flattened([]byte("pt"), []byte("aad"))
	if err != nil {
		t.Fatal(err)
	}
	d := rvDecrypter(t, jwe.DecryptOptions{Key: k16})
	if m, err := d.DecryptJSON(tok); err != nil || string(m.AAD) != "aad" {
		t.Fatalf("%v", err)
	}
	var m map[string]any
	json.Unmarshal(tok, &m)
	mod := func(f func(m map[string]any)) []byte {
		var c map[string]any
		json.Unmarshal(tok, &c)
		f(c)
		b, _ := json.Marshal(c)
		return b
	}
	for name, in := range map[string][]byte{
		"aad changed":      mod(func(c map[string]any) { c["aad"] = jose.Base64URLEncode([]byte("aae")) }),
		"aad removed":      mod(func(c map[string]any) { delete(c, "aad") }),
		"zip unprotected":  mod(func(c map[string]any) { c["unprotected"] = map[string]any{"zip": "DEF"} }),
		"zip per-recip":    mod(func(c map[string]any) { c["header"] = map[string]any{"zip": "DEF"} }),
		"alg overlap":      mod(func(c map[string]any) { c["header"] = map[string]any{"alg": "A128KW"} }),
		"enc in shared":    mod(func(c map[string]any) { c["unprotected"] = map[string]any{"enc": "A128GCM"} }),
		"crit unprotected": mod(func(c map[string]any) { c["unprotected"] = map[string]any{"crit": []string{"x"}, "x": 1} }),
	} {
		if _, err := d.DecryptJSON(in); err == nil {
			t.Errorf("%s: decrypted", name)
		}
	}
	// dir in a general JSON with two recipients.
	dd := rvDecrypter(t, jwe.DecryptOptions{Key: k16})
	de, _ := jwe.NewEncrypter(jwa.Direct, jwa.A128GCM, k16, nil)
	ft, _ := de.Flattened([]byte("pt"), nil)
	var fm map[string]any
	json.Unmarshal(ft, &fm)
	fm["recipients"] = []any{map[string]any{}, map[string]any{}}
	b, _ := json.Marshal(fm)
	if _, err := dd.DecryptJSON(b); err == nil {
		t.Error("dir with two recipients decrypted")
	}
}

// TestRVPBES2CountBeforeWork: p2c outside the range is refused as a limit.
func TestRVPBES2CountBeforeWork(t *testing.T) {
	pw := []byte("password")
	d := rvDecrypter(t, jwe.DecryptOptions{Key: pw})
	for _, p2c := range []string{"1000000000", "0", "-1", "999", "600001", "1e3", "1.5", `"1000"`} {
		h := `{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"AAAAAAAAAAA","p2c":` + p2c + `}`
		tok := jose.Base64URLEncode([]byte(h)) + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA"
		if _, err := d.DecryptCompact([]byte(tok)); err == nil || errors.Is(err, jose.ErrDecryptionFailed) {
			t.Errorf("p2c %s: %v", p2c, err)
		}
	}
}

func TestRVShortInputs(t *testing.T) {
	d := rvDecrypter(t, jwe.DecryptOptions{Key: bytes.Repeat([]byte{7}, 16)})
	for _, in := range []string{"", "....", ".....", "a....", "{", "{}", `{"recipients":[]}`, `{"recipients":[{}],"iv":"","ciphertext":"","tag":""}`, `{"protected":"","iv":"","ciphertext":"","tag":""}`, `{"iv":"","ciphertext":"","tag":"","unprotected":{"alg":"dir","enc":"A128GCM"}}`} {
		_, err1 := d.DecryptCompact([]byte(in))
		_, err2 := d.DecryptJSON([]byte(in))
		for i, err := range []error{err1, err2} {
			if !vectortest.WrapsAny(err, rvSentinels...) {
				t.Errorf("%q, call %d: error %v wraps no jose sentinel", in, i, err)
			}
		}
	}
}

// rvSentinels are the errors every refusal of a token wraps.
var rvSentinels = []error{jose.ErrMalformed, jose.ErrAlgorithmNotAllowed, jose.ErrLimitExceeded, jose.ErrKeyNotFound,
	jose.ErrDecryptionFailed, jose.ErrUnsupportedCritical, jose.ErrUnsupportedAlgorithm}

// TestRVPBES2WorkPerToken: the PBKDF2 iterations one token can cost are
// bounded by Limits.PBES2MaxCount, however many PBES2 recipients it has
// (CVE-2023-50967, multiplied by recipients): with p2c 1000 and a maximum
// of 3000, the key of the third recipient is found, that of the fourth is
// past the budget.
func TestRVPBES2WorkPerToken(t *testing.T) {
	const within = 3
	var rs []jwe.Recipient
	pw := func(i int) []byte { return []byte("password number " + string(rune('a'+i))) }
	for i := range within + 1 {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.PBES2HS256A128KW, Key: pw(i)})
	}
	tok, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("pt"), nil, &jwe.EncrypterOptions{PBES2Count: 1000}, rs...)
	if err != nil {
		t.Fatal(err)
	}
	lim := jose.Limits{PBES2MinCount: 1000, PBES2MaxCount: within * 1000}
	last := rvDecrypter(t, jwe.DecryptOptions{Key: pw(within - 1), Limits: lim})
	if _, err := last.DecryptJSON(tok); err != nil {
		t.Fatalf("recipient within the budget: %v", err)
	}
	past := rvDecrypter(t, jwe.DecryptOptions{Key: pw(within), Limits: lim})
	if _, err := past.DecryptJSON(tok); !errors.Is(err, jose.ErrLimitExceeded) {
		t.Fatalf("recipient past the budget: %v, want ErrLimitExceeded", err)
	}
}

// TestRVKeyCopied: NewDecrypter keeps its own copy of a []byte Key, so a
// caller reusing (or zeroing) its buffer afterwards changes nothing.
func TestRVKeyCopied(t *testing.T) {
	for _, alg := range []jwa.KeyAlgorithm{jwa.Direct, jwa.A128KW, jwa.PBES2HS256A128KW} {
		key := bytes.Repeat([]byte{9}, 16)
		tok := rvCompact(t, alg, jwa.A128GCM, key, &jwe.EncrypterOptions{PBES2Count: 1000})
		d := rvDecrypter(t, jwe.DecryptOptions{Key: key})
		clear(key)
		if _, err := d.DecryptCompact(tok); err != nil {
			t.Errorf("%s: key changed after NewDecrypter: %v", alg, err)
		}
	}
}

// TestRVExtraNameEscaped: a member name of EncrypterOptions.Extra is
// written as a JSON string, so that it cannot inject members (here "cty")
// into the protected header.
func TestRVExtraNameEscaped(t *testing.T) {
	key := bytes.Repeat([]byte{9}, 16)
	name := `a":1,"cty":"injected","b`
	for _, alg := range []jwa.KeyAlgorithm{jwa.Direct, jwa.A128GCMKW} {
		e, err := jwe.NewEncrypter(alg, jwa.A128GCM, key, &jwe.EncrypterOptions{Extra: map[string]any{name: 1}})
		if err != nil {
			continue // refusing such a name is fine too
		}
		tok, err := e.Compact([]byte("pt"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := rvDecrypter(t, jwe.DecryptOptions{Key: key}).DecryptCompact(tok)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if m.Header.ContentType != "" || m.Header.Extra[name] == nil {
			t.Errorf("%s: Extra name injected members: cty %q, extra %q", alg, m.Header.ContentType, m.Header.Extra)
		}
	}
}

// TestRVNilKeys: a nil key of a supported type (a caller bug, from Key or
// KeyFunc) is an error, not a panic.
func TestRVNilKeys(t *testing.T) {
	for _, k := range []any{(*rsa.PublicKey)(nil), (*rsa.PrivateKey)(nil), (*ecdsa.PublicKey)(nil), (*ecdsa.PrivateKey)(nil), (*ecdh.PrivateKey)(nil), []byte(nil), &rsa.PrivateKey{}, &ecdsa.PrivateKey{}} {
		for _, alg := range []jwa.KeyAlgorithm{jwa.RSAOAEP, jwa.ECDHES, jwa.A128KW, jwa.Direct, jwa.PBES2HS256A128KW} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%T %s: panic %v", k, alg, r)
					}
				}()
				d := rvDecrypter(t, jwe.DecryptOptions{KeyFunc: func(*jose.Header) (any, error) { return k, nil }})
				h := `{"alg":"` + string(alg) + `","enc":"A128GCM","epk":{"kty":"EC","crv":"P-256","x":"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ","y":"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"},"p2s":"AAAAAAAAAAA","p2c":1000}`
				d.DecryptCompact([]byte(jose.Base64URLEncode([]byte(h)) + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA"))
				jwe.NewEncrypter(alg, jwa.A128GCM, k, nil)
			}()
		}
	}
}

// TestRVEncrypterHeaderChecked: NewEncrypter and EncryptGeneral refuse
// Extra members that make a protected header every Decrypter refuses (RFC
// 7516 §4.1.13 crit rules, JSON limits), as jws.NewSigner does.
func TestRVEncrypterHeaderChecked(t *testing.T) {
	key := bytes.Repeat([]byte{9}, 16)
	big := map[string]any{}
	for i := range 100 {
		big[string(rune('A'+i%26))+string(rune('a'+i/26))] = i
	}
	for name, o := range map[string]jwe.EncrypterOptions{
		"crit in Extra":          {Extra: map[string]any{"crit": []string{"exp"}, "exp": 1}},
		"critical absent name":   {Critical: []string{"exp"}},
		"critical registered":    {Extra: map[string]any{"x": 1}, Critical: []string{"kid"}},
		"critical b64":           {Extra: map[string]any{"x": 1}, Critical: []string{"b64"}},
		"critical twice":         {Extra: map[string]any{"exp": 1}, Critical: []string{"exp", "exp"}},
		"owned member in Extra":  {Extra: map[string]any{"p2c": 1000}},
		"mistyped registered":    {Extra: map[string]any{"jwk": "not a key"}},
		"100 members":            {Extra: big},
		"unmarshalable in Extra": {Extra: map[string]any{"f": func() {}}},
	} {
		if _, err := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, key, &o); err == nil {
			t.Errorf("NewEncrypter: %s accepted", name)
		}
		if _, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("pt"), nil, &o, jwe.Recipient{Algorithm: jwa.A128KW, Key: key}); err == nil {
			t.Errorf("EncryptGeneral: %s accepted", name)
		}
	}
	tok := rvCompact(t, jwa.A128KW, jwa.A128GCM, key, &jwe.EncrypterOptions{Extra: map[string]any{"exp": 1}, Critical: []string{"exp"}})
	m, err := rvDecrypter(t, jwe.DecryptOptions{Key: key, Critical: []string{"exp"}}).DecryptCompact(tok)
	if err != nil {
		t.Fatalf("valid crit: %v", err)
	}
	if len(m.Header.Critical) != 1 || m.Header.Critical[0] != "exp" {
		t.Fatalf("crit %q, want [exp]", m.Header.Critical)
	}
	if _, err := rvDecrypter(t, jwe.DecryptOptions{Key: key}).DecryptCompact(tok); !errors.Is(err, jose.ErrUnsupportedCritical) {
		t.Fatalf("crit not understood: %v", err)
	}
}

package jwe

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// reuseSetup returns Encrypters of different headers and algorithms and
// one Decrypter for all of them.
func reuseSetup(t *testing.T) (map[string]*Encrypter, *Decrypter) {
	t.Helper()
	dirKey := bytes.Repeat([]byte{0x42}, 16)
	kwKey := bytes.Repeat([]byte{0x17}, 16)
	ecEnc, ecDec := rtKeys(t, jwa.ECDHESA128KW, jwa.A128GCM, "P-256")
	mk := func(alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, key any, opts *EncrypterOptions) *Encrypter {
		e, err := NewEncrypter(alg, enc, key, opts)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	encs := map[string]*Encrypter{
		"dir":       mk(jwa.Direct, jwa.A128GCM, dirKey, &EncrypterOptions{KeyID: "d1"}),
		"dir-zip":   mk(jwa.Direct, jwa.A128GCM, dirKey, &EncrypterOptions{KeyID: "d2", Compress: true}),
		"dir-extra": mk(jwa.Direct, jwa.A128GCM, dirKey, &EncrypterOptions{KeyID: "d3", Extra: map[string]any{"x-list": []int{1, 2}}}),
		"kw":        mk(jwa.A128KW, jwa.A128CBCHS256, kwKey, &EncrypterOptions{KeyID: "k", Type: "JWT"}),
		"ecdh":      mk(jwa.ECDHESA128KW, jwa.A128GCM, ecEnc, &EncrypterOptions{KeyID: "e"}),
	}
	d, err := NewDecrypter(DecryptOptions{
		KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.Direct, jwa.A128KW, jwa.ECDHESA128KW},
		ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM, jwa.A128CBCHS256},
		KeyFunc: func(h *jose.Header) (any, error) {
			switch jwa.KeyAlgorithm(h.Algorithm) {
			case jwa.Direct:
				return dirKey, nil
			case jwa.A128KW:
				return kwKey, nil
			}
			return ecDec, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return encs, d
}

// TestDecryptCompactIntoReuse decrypts tokens of different headers,
// algorithms and plaintext sizes (growing and shrinking) into one Message
// and checks each result against DecryptCompact.
func TestDecryptCompactIntoReuse(t *testing.T) {
	encs, d := reuseSetup(t)
	steps := []struct {
		enc  string
		size int
	}{
		{"dir", 10}, {"dir", 167}, {"kw", 3000}, {"dir-zip", 5000}, {"ecdh", 1},
		{"dir-extra", 500}, {"dir", 0}, {"kw", 64}, {"dir-zip", 3}, {"ecdh", 4000},
		{"dir", 167}, {"dir-extra", 2}, {"dir", 167},
	}
	var m Message
	var tok []byte
	for i, st := range steps {
		pt := bytes.Repeat([]byte{byte('A' + i)}, st.size)
		var err error
		if tok, err = encs[st.enc].AppendCompact(tok[:0], pt); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		want, err := d.DecryptCompact(tok)
		if err != nil {
			t.Fatalf("step %d: DecryptCompact: %v", i, err)
		}
		if err := d.DecryptCompactInto(&m, tok); err != nil {
			t.Fatalf("step %d: DecryptCompactInto: %v", i, err)
		}
		if !bytes.Equal(m.Plaintext, pt) || !bytes.Equal(want.Plaintext, pt) {
			t.Fatalf("step %d (%s, %d bytes): plaintext of %d bytes", i, st.enc, st.size, len(m.Plaintext))
		}
		if m.Header != &m.hdr {
			t.Fatalf("step %d: Header does not point into the Message", i)
		}
		if !reflect.DeepEqual(*m.Header, *want.Header) || m.Header.KeyID != encs[st.enc].kidForTest() {
			t.Fatalf("step %d: header %+v, DecryptCompact's %+v", i, m.Header, want.Header)
		}
		if m.AAD != nil {
			t.Fatalf("step %d: AAD %q", i, m.AAD)
		}
	}
}

// kidForTest returns the kid of e's protected header.
func (e *Encrypter) kidForTest() string { return e.hdr.KeyID }

// TestDecryptCompactIntoStorage checks that a reused Message keeps its
// plaintext buffer, and that modifying the Message changes nothing for the
// next call (the header cache is copied, never handed out).
func TestDecryptCompactIntoStorage(t *testing.T) {
	encs, d := reuseSetup(t)
	big, err := encs["dir"].Compact(bytes.Repeat([]byte("x"), 1000))
	if err != nil {
		t.Fatal(err)
	}
	small, err := encs["dir"].Compact([]byte("small"))
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	for range 2 { // the second time, the header comes from the cache
		if err := d.DecryptCompactInto(&m, big); err != nil {
			t.Fatal(err)
		}
	}
	p0 := &m.Plaintext[:1][0]
	m.Header.Algorithm, m.Header.Encryption, m.Header.KeyID = "A256KW", "A256GCM", "evil"
	m.Header.Compression = "DEF"
	for i := range m.Plaintext {
		m.Plaintext[i] = '!'
	}
	if err := d.DecryptCompactInto(&m, small); err != nil {
		t.Fatal(err)
	}
	if string(m.Plaintext) != "small" || &m.Plaintext[:1][0] != p0 {
		t.Fatalf("plaintext %q, or its buffer was not reused", m.Plaintext)
	}
	h := m.Header
	if h.Algorithm != "dir" || h.Encryption != "A128GCM" || h.KeyID != "d1" || h.Compression != "" {
		t.Fatalf("header %+v after the caller modified the previous one", h)
	}
	msg, err := d.DecryptCompact(small)
	if err != nil {
		t.Fatal(err)
	}
	if cap(msg.Plaintext) != len(msg.Plaintext) {
		t.Fatalf("DecryptCompact's plaintext has spare capacity %d", cap(msg.Plaintext)-len(msg.Plaintext))
	}
}

// TestDecryptCompactIntoErrors checks that every refusal leaves a warm
// Message empty, with its buffer zeroed.
func TestDecryptCompactIntoErrors(t *testing.T) {
	encs, d := reuseSetup(t)
	pt := bytes.Repeat([]byte("secret "), 40)
	good, err := encs["dir"].Compact(pt)
	if err != nil {
		t.Fatal(err)
	}
	kwGood, err := encs["kw"].Compact(pt)
	if err != nil {
		t.Fatal(err)
	}
	flipLast := func(tok []byte, seg int) []byte {
		tok = bytes.Clone(tok)
		parts := bytes.Split(tok, []byte("."))
		s := parts[seg]
		// Another base64url character, in the middle: all its bits count.
		if s[len(s)/2] == 'A' {
			s[len(s)/2] = 'B'
		} else {
			s[len(s)/2] = 'A'
		}
		return bytes.Join(parts, []byte("."))
	}
	a256, err := NewEncrypter(jwa.A256KW, jwa.A128GCM, bytes.Repeat([]byte{1}, 32), nil)
	if err != nil {
		t.Fatal(err)
	}
	notAllowed, err := a256.Compact(pt)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		tok  []byte
		want error
	}{
		"tag":              {flipLast(good, 4), jose.ErrDecryptionFailed},
		"ciphertext":       {flipLast(good, 3), jose.ErrDecryptionFailed},
		"iv":               {flipLast(good, 2), jose.ErrDecryptionFailed},
		"cbc ciphertext":   {flipLast(kwGood, 3), jose.ErrDecryptionFailed},
		"wrapped key":      {flipLast(kwGood, 1), jose.ErrDecryptionFailed},
		"segments":         {good[:bytes.LastIndexByte(good, '.')], jose.ErrMalformed},
		"alg not allowed":  {notAllowed, jose.ErrAlgorithmNotAllowed},
		"header too large": {[]byte(strings.Repeat("e", 20000) + "...."), jose.ErrLimitExceeded},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var m Message
			if err := d.DecryptCompactInto(&m, good); err != nil {
				t.Fatal(err)
			}
			full := m.Plaintext[:cap(m.Plaintext)]
			err := d.DecryptCompactInto(&m, c.tok)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if len(m.Plaintext) != 0 || m.Header != nil || m.AAD != nil {
				t.Fatalf("after an error: plaintext %q, header %+v", m.Plaintext, m.Header)
			}
			if !bytes.Equal(full, make([]byte, len(full))) {
				t.Fatal("the plaintext buffer is not zeroed after an error")
			}
			if !reflect.DeepEqual(m.hdr, jose.Header{}) {
				t.Fatalf("header storage %+v after an error", m.hdr)
			}
			if err := d.DecryptCompactInto(&m, good); err != nil || !bytes.Equal(m.Plaintext, pt) {
				t.Fatalf("after recovery: %q, %v", m.Plaintext, err)
			}
		})
	}
}

// TestEncrypterAppendCompact checks that AppendCompact keeps dst's
// contents, and leaves dst alone on error.
func TestEncrypterAppendCompact(t *testing.T) {
	encs, d := reuseSetup(t)
	for _, name := range []string{"dir", "kw", "ecdh", "dir-zip"} {
		dst := []byte("prefix:")
		got, err := encs[name].AppendCompact(dst, rtPlaintext)
		if err != nil {
			t.Fatal(err)
		}
		tok, ok := bytes.CutPrefix(got, []byte("prefix:"))
		if !ok {
			t.Fatalf("%s: %q", name, got)
		}
		m, err := d.DecryptCompact(tok)
		if err != nil || !bytes.Equal(m.Plaintext, rtPlaintext) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	withUnprotected, err := NewEncrypter(jwa.Direct, jwa.A128GCM, bytes.Repeat([]byte{0x42}, 16),
		&EncrypterOptions{Unprotected: &jose.Header{KeyID: "u"}})
	if err != nil {
		t.Fatal(err)
	}
	dst := []byte("prefix:")
	got, err := withUnprotected.AppendCompact(dst, rtPlaintext)
	if err == nil || string(got) != "prefix:" {
		t.Fatalf("unprotected header in compact: %q, %v", got, err)
	}
}

// TestRoundTripReuseAllocs checks that a dir + A128GCM round trip with a
// reused token buffer and Message allocates nothing.
func TestRoundTripReuseAllocs(t *testing.T) {
	key := bytes.Repeat([]byte{0x42}, 16)
	e, err := NewEncrypter(jwa.Direct, jwa.A128GCM, key, &EncrypterOptions{KeyID: "k"})
	if err != nil {
		t.Fatal(err)
	}
	d := rtDecrypter(t, jwa.Direct, jwa.A128GCM, key)
	var m Message
	var tok []byte
	// The first round warms the buffers and the header cache.
	failed := vectortest.ZeroAllocs(t, "round trip", 100, func() error {
		if tok, err = e.AppendCompact(tok[:0], bnPayload); err != nil {
			return err
		}
		return d.DecryptCompactInto(&m, tok)
	})
	if failed != nil || !bytes.Equal(m.Plaintext, bnPayload) {
		t.Fatalf("%v, plaintext %q", failed, m.Plaintext)
	}
}

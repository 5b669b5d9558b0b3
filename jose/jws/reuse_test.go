package jws_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// reuseKeys are two HMAC keys of a JWK Set, selected by kid.
func reuseSetup(t *testing.T) (map[string]*jws.Signer, *jws.Verifier) {
	t.Helper()
	ka := bytes.Repeat([]byte{0x11}, 32)
	kb := bytes.Repeat([]byte{0x22}, 48)
	set := &jose.Set{Keys: []*jose.JWK{
		{Key: ka, KeyID: "a"},
		{Key: kb, KeyID: "b"},
	}}
	v := rtVerifier(t, jws.VerifyOptions{
		Algorithms: []jwa.SignatureAlgorithm{jwa.HS256, jwa.HS384},
		Keys:       set,
		Critical:   []string{"exp-x"},
	})
	mk := func(alg jwa.SignatureAlgorithm, key []byte, opts *jws.SignerOptions) *jws.Signer {
		s, err := jws.NewSigner(alg, key, opts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return map[string]*jws.Signer{
		"a":       mk(jwa.HS256, ka, &jws.SignerOptions{KeyID: "a"}),
		"a-typ":   mk(jwa.HS256, ka, &jws.SignerOptions{KeyID: "a", Type: "JWT", ContentType: "json"}),
		"b":       mk(jwa.HS384, kb, &jws.SignerOptions{KeyID: "b"}),
		"b-extra": mk(jwa.HS384, kb, &jws.SignerOptions{KeyID: "b", Extra: map[string]any{"x-list": []int{1, 2}, "x-n": 7}}),
		"a-b64":   mk(jwa.HS256, ka, &jws.SignerOptions{KeyID: "a", Unencoded: true}),
	}, v
}

// TestVerifyCompactIntoReuse verifies tokens of different headers, keys
// and payload sizes (growing and shrinking) into one Message and checks
// each result against VerifyCompact.
func TestVerifyCompactIntoReuse(t *testing.T) {
	signers, v := reuseSetup(t)
	steps := []struct {
		signer string
		size   int
	}{
		{"a", 10}, {"a", 167}, {"b", 3000}, {"a-typ", 1}, {"b-extra", 500},
		{"a", 0}, {"a-b64", 200}, {"b", 64}, {"b-extra", 4000}, {"a", 167},
		{"a-typ", 2}, {"a-b64", 0},
	}
	var m jws.Message
	var dst []byte
	for i, st := range steps {
		payload := bytes.Repeat([]byte{byte('A' + i)}, st.size)
		var err error
		dst, err = signers[st.signer].AppendCompact(dst[:0], payload)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		want, err := v.VerifyCompact(dst)
		if err != nil {
			t.Fatalf("step %d: VerifyCompact: %v", i, err)
		}
		if err := v.VerifyCompactInto(&m, dst); err != nil {
			t.Fatalf("step %d: VerifyCompactInto: %v", i, err)
		}
		if !bytes.Equal(m.Payload, payload) || !bytes.Equal(want.Payload, payload) {
			t.Fatalf("step %d (%s, %d bytes): payload of %d bytes, want %d", i, st.signer, st.size, len(m.Payload), len(payload))
		}
		if !reflect.DeepEqual(m.Header, want.Header) {
			t.Fatalf("step %d: header %+v, VerifyCompact's %+v", i, m.Header, want.Header)
		}
		if wantKid := st.signer[:1]; m.Header.KeyID != wantKid {
			t.Fatalf("step %d: kid %q, want %q", i, m.Header.KeyID, wantKid)
		}
	}
}

// TestVerifyCompactIntoStorage checks that a reused Message keeps its
// payload buffer and header storage, and that modifying them (or the
// Message returned by VerifyCompact) changes nothing for the next call.
func TestVerifyCompactIntoStorage(t *testing.T) {
	signers, v := reuseSetup(t)
	big, err := signers["a"].Compact(bytes.Repeat([]byte("x"), 1000))
	if err != nil {
		t.Fatal(err)
	}
	small, err := signers["a"].Compact([]byte("small"))
	if err != nil {
		t.Fatal(err)
	}
	var m jws.Message
	for range 2 { // the second time, the header comes from the cache
		if err := v.VerifyCompactInto(&m, big); err != nil {
			t.Fatal(err)
		}
	}
	p0, h0 := &m.Payload[:1][0], m.Header
	// The caller scribbles over everything it was given.
	m.Header.Algorithm, m.Header.KeyID, m.Header.Type = "none", "evil", "evil"
	m.Header.Critical = []string{"evil"}
	for i := range m.Payload {
		m.Payload[i] = '!'
	}
	if err := v.VerifyCompactInto(&m, small); err != nil {
		t.Fatal(err)
	}
	if string(m.Payload) != "small" {
		t.Fatalf("payload %q", m.Payload)
	}
	if &m.Payload[:1][0] != p0 || m.Header != h0 {
		t.Fatal("the Message's payload buffer or header storage was not reused")
	}
	if m.Header.Algorithm != "HS256" || m.Header.KeyID != "a" || m.Header.Type != "" || m.Header.Critical != nil {
		t.Fatalf("header %+v after the caller modified the previous one", m.Header)
	}
	// VerifyCompact's Message belongs to the caller too.
	msg, err := v.VerifyCompact(small)
	if err != nil {
		t.Fatal(err)
	}
	msg.Header.KeyID = "evil"
	if err := v.VerifyCompactInto(&m, small); err != nil || m.Header.KeyID != "a" {
		t.Fatalf("kid %q, %v", m.Header.KeyID, err)
	}
	if cap(msg.Payload) != len(msg.Payload) {
		t.Fatalf("VerifyCompact's payload has spare capacity %d", cap(msg.Payload)-len(msg.Payload))
	}
}

// TestVerifyCompactIntoErrors checks that every refusal leaves a warm
// Message empty.
func TestVerifyCompactIntoErrors(t *testing.T) {
	signers, v := reuseSetup(t)
	good, err := signers["a"].Compact([]byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	badSig := bytes.Clone(good)
	badSig[len(badSig)-2] = rtFlip(badSig[len(badSig)-2])
	badPayload := bytes.Clone(good)
	i := bytes.IndexByte(badPayload, '.')
	badPayload[i+2] = rtFlip(badPayload[i+2])
	hs512 := rtForge(t, `{"alg":"HS512","kid":"a"}`, []byte("payload"))
	cases := map[string]struct {
		tok  []byte
		want error
	}{
		"signature":   {badSig, jose.ErrVerificationFailed},
		"payload":     {badPayload, jose.ErrVerificationFailed},
		"segments":    {good[:i], jose.ErrMalformed},
		"alg":         {hs512, jose.ErrAlgorithmNotAllowed},
		"none":        {rtForge(t, `{"alg":"none"}`, []byte("payload")), jose.ErrAlgorithmNotAllowed},
		"header size": {[]byte(strings.Repeat("e", 20000) + ".e30.e30"), jose.ErrLimitExceeded},
		"bad base64":  {[]byte(string(good[:i+1]) + "!!!" + string(good[i+1+3:])), jose.ErrMalformed},
		"unknown kid": {rtForge(t, `{"alg":"HS256","kid":"zz"}`, []byte("payload")), jose.ErrKeyNotFound},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var m jws.Message
			if err := v.VerifyCompactInto(&m, good); err != nil {
				t.Fatal(err)
			}
			err := v.VerifyCompactInto(&m, c.tok)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if len(m.Payload) != 0 || m.Header != nil {
				t.Fatalf("after an error: payload %q, header %+v", m.Payload, m.Header)
			}
			// The Message is still usable.
			if err := v.VerifyCompactInto(&m, good); err != nil || string(m.Payload) != "payload" {
				t.Fatalf("after recovery: %q, %v", m.Payload, err)
			}
		})
	}
}

// TestAppendCompact checks that AppendCompact appends exactly what Compact
// returns, and leaves dst alone on error.
func TestAppendCompact(t *testing.T) {
	signers, _ := reuseSetup(t)
	pl := bytes.ReplaceAll(benchPayload, []byte("."), []byte("!"))
	for _, name := range []string{"a", "b", "a-b64", "b-extra"} {
		s := signers[name]
		want, err := s.Compact(pl)
		if err != nil {
			t.Fatal(err)
		}
		dst := []byte("prefix:")
		got, err := s.AppendCompact(dst, pl)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "prefix:"+string(want) {
			t.Fatalf("%s: AppendCompact %q, want prefix:%q", name, got, want)
		}
	}
	dst := []byte("prefix:")
	got, err := signers["a-b64"].AppendCompact(dst, []byte("a.b"))
	if err == nil || string(got) != "prefix:" {
		t.Fatalf("unencoded payload with a dot: %q, %v", got, err)
	}
}

// TestRoundTripReuseAllocs checks that an HS256 sign and verify round trip
// with a reused token buffer and Message allocates nothing.
func TestRoundTripReuseAllocs(t *testing.T) {
	key := bytes.Repeat([]byte{0x5a}, 32)
	s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: "bench"})
	if err != nil {
		t.Fatal(err)
	}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}, Key: key})
	var m jws.Message
	var tok []byte
	// The first round warms the buffers and the header cache.
	failed := vectortest.ZeroAllocs(t, "round trip", 100, func() error {
		if tok, err = s.AppendCompact(tok[:0], benchPayload); err != nil {
			return err
		}
		return v.VerifyCompactInto(&m, tok)
	})
	if failed != nil || !bytes.Equal(m.Payload, benchPayload) {
		t.Fatalf("%v, payload %q", failed, m.Payload)
	}
}

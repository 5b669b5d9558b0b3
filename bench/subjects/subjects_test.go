package subjects

import (
	"bytes"
	"errors"
	"testing"

	"github.com/josebench/josebench/bench"
)

// Every variant the suite can select prepares: its keys load, the token
// packages accept them, and a token round-trips to the input, in both
// serializations.
func TestPrepareEveryVariant(t *testing.T) {
	m := bench.DefaultConfig().Measure
	m.Subjects = []string{bench.SubjectRoundTrip}
	m.RSASignBits = bench.RSABits
	m.Serializations = bench.Serializations
	if testing.Short() {
		m.RSAEncBits = []int{2048}
		m.RSASignBits = []int{2048}
	}
	vs, err := bench.Select(m, []string{"JWS", "JWE"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range vs {
		v := &vs[i]
		op, err := Prepare(v)
		if err != nil {
			t.Errorf("%s: %v", v.ID(), err)
			continue
		}
		if err := op(); err != nil {
			t.Errorf("%s: op: %v", v.ID(), err)
		}
	}
}

// Each subject gives an op that succeeds repeatedly, also with a payload
// size other than the default.
func TestPrepareSubjects(t *testing.T) {
	m := bench.DefaultConfig().Measure
	m.RSAEncBits = []int{2048}
	m.Curves = []string{"X25519"}
	m.Payloads = []string{bench.PayloadRFC7520, "1000"}
	m.Serializations = bench.Serializations
	vs, err := bench.Select(m, []string{"HS256", "EdDSA", "A128KW", "ECDH-ES", "dir", "PBES2-HS256+A128KW"})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range vs {
		v := &vs[i]
		seen[v.Subject] = true
		op, err := Prepare(v)
		if err != nil {
			t.Fatalf("%s: %v", v.ID(), err)
		}
		for range 3 {
			if err := op(); err != nil {
				t.Fatalf("%s: %v", v.ID(), err)
			}
		}
	}
	if len(seen) != len(bench.Subjects) {
		t.Errorf("subjects seen: %v", seen)
	}
}

// A token that does not give back the input is an error before timing, as
// is an operation that fails.
func TestPrepareChecks(t *testing.T) {
	payload := []byte("payload")
	sign := func(p []byte) ([]byte, error) { return append([]byte("tok:"), p...), nil }
	good := func(t []byte) ([]byte, error) { return bytes.TrimPrefix(t, []byte("tok:")), nil }
	wrong := func(t []byte) ([]byte, error) { return []byte("other"), nil }
	failing := func(t []byte) ([]byte, error) { return nil, errors.New("bad signature") }
	for _, subj := range []string{bench.SubjectSignature, bench.SubjectVerification, bench.SubjectRoundTrip} {
		if _, err := prepareJWS(subj, payload, sign, good); err != nil {
			t.Errorf("%s: good pair refused: %v", subj, err)
		}
		if _, err := prepareJWS(subj, payload, sign, wrong); !errors.Is(err, errMismatch) {
			t.Errorf("%s: wrong payload: got %v", subj, err)
		}
		if _, err := prepareJWS(subj, payload, sign, failing); err == nil {
			t.Errorf("%s: failing verify accepted", subj)
		}
	}
	if _, err := prepareJWS(bench.SubjectEncryption, payload, sign, good); err == nil {
		t.Error("JWE subject accepted for JWS")
	}

	enc := func(p []byte) ([]byte, error) { return append([]byte("enc:"), p...), nil }
	dec := func(aad []byte) decryptFunc {
		return func(t []byte) ([]byte, []byte, error) { return bytes.TrimPrefix(t, []byte("enc:")), aad, nil }
	}
	aad := []byte("A,B,C,D")
	for _, subj := range []string{bench.SubjectEncryption, bench.SubjectDecryption, bench.SubjectRoundTrip} {
		if _, err := prepareJWE(subj, payload, aad, enc, dec(aad)); err != nil {
			t.Errorf("%s: good pair refused: %v", subj, err)
		}
		if _, err := prepareJWE(subj, payload, aad, enc, dec([]byte("A,B"))); !errors.Is(err, errMismatch) {
			t.Errorf("%s: wrong AAD: got %v", subj, err)
		}
	}
	if _, err := prepareJWE(bench.SubjectSignature, payload, nil, enc, dec(nil)); err == nil {
		t.Error("JWS subject accepted for JWE")
	}
}

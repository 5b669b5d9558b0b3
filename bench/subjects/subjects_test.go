package subjects

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose"
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
	vs, err := bench.Select(m, []string{"JWS", "JWE", "JWT"})
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
	vs, err := bench.Select(m, []string{"HS256", "EdDSA", "A128KW", "ECDH-ES", "dir", "PBES2-HS256+A128KW", "JWTHS256"})
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

// partOf returns one base64url part of a token: segment i of a compact
// token, or member of a flattened JSON one.
func partOf(t *testing.T, tok []byte, ser string, segment int, member string) string {
	t.Helper()
	if ser == bench.SerializationJSON {
		var m map[string]any
		if err := json.Unmarshal(tok, &m); err != nil {
			t.Fatal(err)
		}
		s, _ := m[member].(string)
		return s
	}
	return strings.Split(string(tok), ".")[segment]
}

// withPart returns tok with one part replaced by value.
func withPart(t *testing.T, tok []byte, ser string, segment int, member, value string) []byte {
	t.Helper()
	if ser == bench.SerializationJSON {
		var m map[string]any
		if err := json.Unmarshal(tok, &m); err != nil {
			t.Fatal(err)
		}
		m[member] = value
		b, _ := json.Marshal(m)
		return b
	}
	segs := strings.Split(string(tok), ".")
	segs[segment] = value
	return []byte(strings.Join(segs, "."))
}

// sameBut reports whether tokens a and b differ at most in one part.
func sameBut(t *testing.T, a, b []byte, ser string, segment int, member string) bool {
	v := partOf(t, b, ser, segment, member)
	return string(withPart(t, a, ser, segment, member, v)) == string(withPart(t, b, ser, segment, member, v))
}

func variant(t *testing.T, group, ser string) *bench.Variant {
	t.Helper()
	m := bench.DefaultConfig().Measure
	m.Subjects = []string{bench.SubjectRoundTrip}
	m.Serializations = []string{ser}
	vs, err := bench.Select(m, []string{group})
	if err != nil || len(vs) == 0 {
		t.Fatalf("%s: %v", group, err)
	}
	return &vs[0]
}

// checkFailed asserts that err is the CheckError of check.
func checkFailed(t *testing.T, name string, err error, check string) {
	t.Helper()
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Check != check {
		t.Errorf("%s: got %v, want the %q check to fail", name, err, check)
		return
	}
	if !strings.Contains(err.Error(), check) {
		t.Errorf("%s: error %q does not name the check", name, err)
	}
}

// Deliberately broken JWS subjects, each a real HS256 signer and verifier
// with one flaw, fail the check that covers the flaw, in both
// serializations; the real pair passes every check.
func TestChecksBrokenJWS(t *testing.T) {
	payload := []byte(bench.RFC7520Payload)
	for _, ser := range bench.Serializations {
		real, err := jwsFuncs(variant(t, "HS256", ser))
		if err != nil {
			t.Fatal(err)
		}
		if err := real.check(payload); err != nil {
			t.Fatalf("%s: the real pair fails: %v", ser, err)
		}
		genuine, err := real.sign(payload)
		if err != nil {
			t.Fatal(err)
		}
		sig := partOf(t, genuine, ser, 2, "signature")
		pl := partOf(t, genuine, ser, 1, "payload")
		broken := func(f func(p *jwsPair)) *jwsPair {
			p := *real
			f(&p)
			return &p
		}
		for _, c := range []struct {
			name  string
			pair  *jwsPair
			check string
		}{
			{"gives back another payload", broken(func(p *jwsPair) {
				p.verify = func(tok []byte) ([]byte, error) { return []byte("other"), nil }
			}), CheckRoundTrip},
			{"fails on the good token", broken(func(p *jwsPair) {
				p.verify = func(tok []byte) ([]byte, error) { return nil, jose.ErrVerificationFailed }
			}), CheckRoundTrip},
			{"ignores the signature", broken(func(p *jwsPair) {
				p.verify = func(tok []byte) ([]byte, error) { return real.verify(withPart(t, tok, ser, 2, "signature", sig)) }
			}), CheckFlippedSignature},
			{"ignores the payload", broken(func(p *jwsPair) {
				p.verify = func(tok []byte) ([]byte, error) { return real.verify(withPart(t, tok, ser, 1, "payload", pl)) }
			}), CheckFlippedPayload},
			{"refuses with another error", broken(func(p *jwsPair) {
				p.verify = func(tok []byte) ([]byte, error) {
					m, err := real.verify(tok)
					if err != nil {
						return nil, errors.New("jws: bad token")
					}
					return m, nil
				}
			}), CheckFlippedSignature},
			{"accepts any key", broken(func(p *jwsPair) { p.verifyOther = real.verify }), CheckOtherKey},
		} {
			checkFailed(t, ser+": "+c.name, c.pair.check(payload), c.check)
			for _, subj := range []string{bench.SubjectSignature, bench.SubjectVerification, bench.SubjectRoundTrip} {
				if _, err := prepareJWS(subj, payload, c.pair); err == nil {
					t.Errorf("%s: %s: %s prepared", ser, c.name, subj)
				}
			}
		}
	}
	if _, err := prepareJWS(bench.SubjectEncryption, payload, &jwsPair{}); err == nil {
		t.Error("JWE subject accepted for JWS")
	}
}

// Deliberately broken JWE subjects, on a real A128KW/A128CBC-HS256 pair.
func TestChecksBrokenJWE(t *testing.T) {
	plaintext := []byte(bench.RFC7520Payload)
	for _, ser := range bench.Serializations {
		v := variant(t, "A128KW", ser)
		real, aad, err := jweFuncs(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := real.check(plaintext, aad); err != nil {
			t.Fatalf("%s: the real pair fails: %v", ser, err)
		}
		broken := func(f func(p *jwePair)) *jwePair {
			p := *real
			f(&p)
			return &p
		}
		for _, c := range []struct {
			name  string
			pair  *jwePair
			check string
		}{
			{"gives back other plaintext", broken(func(p *jwePair) {
				p.decrypt = func(tok []byte) ([]byte, []byte, error) { return []byte("other"), aad, nil }
			}), CheckRoundTrip},
			// Tokens are random (CEK, IV): these remember the last token
			// that decrypted, the good one the check makes first.
			{"ignores the tag", broken(func(p *jwePair) {
				var last []byte
				p.decrypt = func(tok []byte) ([]byte, []byte, error) {
					if last != nil && sameBut(t, tok, last, ser, 4, "tag") {
						tok = last
					}
					pt, a, err := real.decrypt(tok)
					if err == nil {
						last = tok
					}
					return pt, a, err
				}
			}), CheckFlippedTag},
			{"ignores the ciphertext", broken(func(p *jwePair) {
				var last []byte
				p.decrypt = func(tok []byte) ([]byte, []byte, error) {
					if last != nil && sameBut(t, tok, last, ser, 3, "ciphertext") {
						tok = last
					}
					pt, a, err := real.decrypt(tok)
					if err == nil {
						last = tok
					}
					return pt, a, err
				}
			}), CheckFlippedContent},
			{"refuses with another error", broken(func(p *jwePair) {
				p.decrypt = func(tok []byte) ([]byte, []byte, error) {
					pt, a, err := real.decrypt(tok)
					if err != nil {
						return nil, nil, jose.ErrMalformed
					}
					return pt, a, nil
				}
			}), CheckFlippedTag},
			{"accepts any key", broken(func(p *jwePair) { p.decryptOther = real.decrypt }), CheckOtherKey},
		} {
			checkFailed(t, ser+": "+c.name, c.pair.check(plaintext, aad), c.check)
			for _, subj := range []string{bench.SubjectEncryption, bench.SubjectDecryption, bench.SubjectRoundTrip} {
				if _, err := prepareJWE(subj, plaintext, aad, c.pair); err == nil {
					t.Errorf("%s: %s: %s prepared", ser, c.name, subj)
				}
			}
		}
		if ser == bench.SerializationJSON {
			wrongAAD := broken(func(p *jwePair) {
				p.decrypt = func(tok []byte) ([]byte, []byte, error) {
					pt, _, err := real.decrypt(tok)
					return pt, []byte("A,B"), err
				}
			})
			checkFailed(t, "wrong AAD", wrongAAD.check(plaintext, aad), CheckRoundTrip)
		}
	}
	if _, err := prepareJWE(bench.SubjectSignature, plaintext, nil, &jwePair{}); err == nil {
		t.Error("JWS subject accepted for JWE")
	}
}

// flip changes exactly one bit of the decoded part it names.
func TestFlip(t *testing.T) {
	tok := []byte("eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.AAEC")
	got, err := flip(tok, bench.SerializationCompact, 2, "signature")
	if err != nil || string(got) != "eyJhbGciOiJIUzI1NiJ9.cGF5bG9hZA.AAED" {
		t.Errorf("compact: %s, %v", got, err)
	}
	got, err = flip([]byte(`{"payload":"cGF5bG9hZA","signature":"AAEC"}`), bench.SerializationJSON, 1, "payload")
	if err != nil || string(got) != `{"payload":"cGF5bG9hZQ","signature":"AAEC"}` {
		t.Errorf("json: %s, %v", got, err)
	}
	for _, bad := range []string{"a.b", `{"payload":1}`, "a..c"} {
		ser := bench.SerializationCompact
		if bad[0] == '{' {
			ser = bench.SerializationJSON
		}
		if _, err := flip([]byte(bad), ser, 2, "signature"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// runParallel runs the op of v on goroutines goroutines at once, as
// Runner.Parallel does, each calling it calls times, and reports every
// error of a call (a goroutine stops at its first).
func runParallel(t *testing.T, v *bench.Variant, goroutines, calls int) {
	t.Helper()
	op, err := Prepare(v)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for range goroutines {
		wg.Go(func() {
			for range calls {
				if err := op(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("%s: %v", v.ID(), err)
	}
}

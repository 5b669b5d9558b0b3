package jwks

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
)

// padded returns the set of keys with the base64url of each "x" padded
// with "=", which RFC 7515 §2 forbids: every entry is unusable.
func padded(t *testing.T, keys ...ecKey) []byte {
	t.Helper()
	return regexp.MustCompile(`("x":"[^"]*)"`).ReplaceAll(setJSON(t, keys...), []byte(`$1="`))
}

// TestNoUsableKey: a 200 answer whose set holds no key usable here (no
// key at all, only unknown key types, only entries jose refuses) is a
// failed fetch: the last good set stays in use until MaxStale past its
// lifetime, Status reports the error, and without a set held it is the
// error of every call (issue 18, finding 8a).
func TestNoUsableKey(t *testing.T) {
	k := newECKey(t, "k1")
	good := setJSON(t, k)
	for _, c := range []struct {
		name, body, text string
	}{
		{"empty", `{"keys":[]}`, "no key"},
		{"unknown kty", `{"keys":[{"kty":"XYZ","kid":"k1"},{"kty":"PQ","kid":"k2"}]}`, `entry 0, kid "k1"`},
		{"padded base64", string(padded(t, newECKey(t, "k1"), newECKey(t, "k2"))), `entry 0, kid "k1"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newProvider(t, false, serveSet(good, "Cache-Control", "max-age=600"))
			clk := newClock()
			r := newRemote(t, p, clk, Options{})
			v := verifier(t, r)
			tok := k.token(t, false)
			if _, err := v.VerifyCompact(tok); err != nil {
				t.Fatal(err)
			}
			p.set(serveSet([]byte(c.body), "Cache-Control", "max-age=600"))
			clk.Add(600 * time.Second)
			err := r.Refresh(t.Context())
			if !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "no key usable") || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("Refresh: %v", err)
			}
			st := r.Status()
			if st.LastError == nil || st.LastError.Error() != err.Error() || st.Keys != 1 || !st.LastFetch.Equal(clk.Now().Add(-600*time.Second)) {
				t.Fatalf("status %+v", st)
			}
			// The stale set is used, up to MaxStale past its lifetime.
			clk.Add(DefaultMaxStale - time.Second)
			if _, err := v.VerifyCompact(tok); err != nil {
				t.Fatalf("stale set: %v", err)
			}
			r.fetches.Wait()
			clk.Add(time.Second)
			if _, err := v.VerifyCompact(tok); !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "no key usable") {
				t.Fatalf("beyond MaxStale: %v", err)
			}

			// Without a set held, the answer is an error too.
			p2 := newProvider(t, false, serveSet([]byte(c.body)))
			r2 := newRemote(t, p2, newClock(), Options{})
			if err := r2.Refresh(t.Context()); !errors.Is(err, ErrFetch) || !strings.Contains(err.Error(), "no key usable") {
				t.Fatalf("first fetch: %v", err)
			}
			if _, err := verifier(t, r2).VerifyCompact(tok); !errors.Is(err, ErrFetch) || errors.Is(err, jose.ErrKeyNotFound) {
				t.Fatalf("token without a set: %v", err)
			}
			if st := r2.Status(); st.Keys != 0 || st.LastError == nil {
				t.Fatalf("status without a set: %+v", st)
			}
		})
	}
	// One usable entry among unusable ones is a set.
	body := bytes.Replace(setJSON(t, k), []byte(`{"keys":[`), []byte(`{"keys":[{"kty":"XYZ","kid":"odd"},`), 1)
	p := newProvider(t, false, serveSet(body))
	if err := newRemote(t, p, newClock(), Options{}).Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestUnusableEntriesReported: Status lists the unusable entries of the
// set in use with their reason, in bounded text, and a token whose kid
// names one is told it is unusable and why (issue 18, finding 8d).
func TestUnusableEntriesReported(t *testing.T) {
	k1, k2 := newECKey(t, "k1"), newECKey(t, "k2")
	long := strings.Repeat(`\u001b`, 2000) // ESC, escaped in JSON
	bad := padded(t, k2)
	body := []byte(`{"keys":[` + string(bad[len(`{"keys":[`):len(bad)-2]) + `,{"kty":"XYZ","kid":"` + long + `"},` +
		string(setJSON(t, k1)[len(`{"keys":[`):]))
	p := newProvider(t, false, serveSet(body))
	r := newRemote(t, p, newClock(), Options{})
	v := verifier(t, r)
	if _, err := v.VerifyCompact(k1.token(t, false)); err != nil {
		t.Fatal(err)
	}
	st := r.Status()
	if st.Keys != 3 || len(st.Unusable) != 2 ||
		!strings.HasPrefix(st.Unusable[0], `entry 0, kid "k2": `) || !strings.Contains(st.Unusable[0], `member "x"`) ||
		!strings.HasPrefix(st.Unusable[1], `entry 1, kid "\x1b\x1b`) || !strings.Contains(st.Unusable[1], "(2000 bytes)") || len(st.Unusable[1]) > 1<<10 {
		t.Fatalf("status %+v", st)
	}
	_, err := v.VerifyCompact(k2.token(t, false))
	if !errors.Is(err, jose.ErrKeyNotFound) || errors.Is(err, jose.ErrAlgorithmNotAllowed) ||
		!strings.Contains(err.Error(), "unusable") || !strings.Contains(err.Error(), `member "x"`) {
		t.Fatalf("token of the unusable entry: %v", err)
	}
	if n := p.requests.Load(); n != 1 {
		t.Fatalf("%d requests", n) // the kid is in the set: no fetch
	}

	// Many unusable entries: a bounded list.
	var many strings.Builder
	many.WriteString(`{"keys":[`)
	for i := range 100 {
		fmt.Fprintf(&many, `{"kty":"XYZ","kid":"%d"},`, i)
	}
	many.WriteString(string(setJSON(t, k1)[len(`{"keys":[`):]))
	p.set(serveSet([]byte(many.String())))
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	st = r.Status()
	if n := len(st.Unusable); n != maxUnusableListed+1 || st.Unusable[n-1] != "and 84 more unusable entries" {
		t.Fatalf("%d lines, last %q", n, st.Unusable[n-1])
	}
}

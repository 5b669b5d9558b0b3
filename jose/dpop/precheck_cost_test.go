package dpop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
)

// signRaw signs payload, as is, under header with key (ES256).
func signRaw(t testing.TB, key any, header any, payload string) string {
	t.Helper()
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	return signInput(t, jwa.ES256, key, jose.Base64URLEncode(h)+"."+jose.Base64URLEncode([]byte(payload)))
}

// hostileClaims returns the claims of a valid proof (goodClaims) with a
// member "x" whose value costs jsonx the most it can per byte, as long as
// the proof signed under header stays within DefaultMaxProofSize: an
// array of objects of 17 members ("nested", each object's names going into
// a map, 132 KB for the proof), or, at the top level, 250 members of
// escaped names ("flat", an allocation each; the strict parse takes up to
// 256 members).
func hostileClaims(t testing.TB, kind string, sign func(payload string) string) string {
	t.Helper()
	best := ""
	for n := 1; ; n++ {
		var b strings.Builder
		b.WriteString(`{"jti":"b","htm":"GET","htu":"` + testURI + `","iat":` + fmt.Sprint(testNow.Unix()))
		switch kind {
		case "nested":
			b.WriteString(`,"x":[`)
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('{')
				for j := range 17 {
					if j > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, `"%c":0`, 'a'+j)
				}
				b.WriteByte('}')
			}
			b.WriteString("]}")
		case "flat":
			for i := range n {
				fmt.Fprintf(&b, `,"\u%04x":0`, 0x100+i)
			}
			b.WriteString("}")
		}
		p := sign(b.String())
		if len(p) > DefaultMaxProofSize || kind == "flat" && n > 250 {
			if best == "" {
				t.Fatal("no hostile proof fits")
			}
			return best
		}
		best = p
	}
}

// TestPrecheckCostBounded: the claims read before the signature cost a
// forged proof (its signature another key's) no more allocations when its
// payload is the costliest JSON that fits in DefaultMaxProofSize than when
// it holds the claims of an honest proof of the same size, beside the
// error that stops the reading and, for escaped names, one allocation
// for each of the at most 16 read: the reading stops at what an honest
// proof does not hold (a nested value, more members than a proof has:
// preLimits), leaving the payload to the strict parse, which only a proof
// whose signature verifies reaches. Read whole, such a payload cost the
// refusal of a forged ES256 proof about twice an honest one's (twice the
// CPU time, 284 allocations and 132 KB against 59 and 5 KB).
func TestPrecheckCostBounded(t *testing.T) {
	key, other := ecKey(t), ecKey(t)
	header := goodHeader(t, key, "ES256")
	forged := func(payload string) string { return signRaw(t, other, header, payload) }
	v := newVerifier(t, VerifierOptions{Replay: new(recordingStore)})
	ctx := context.Background()
	allocs := func(proof string) float64 {
		t.Helper()
		_, err := v.Check(ctx, []string{proof}, "GET", testURI, "")
		wantRefusal(t, err, ErrSignature, CodeInvalidProof)
		return testing.AllocsPerRun(20, func() { _, _ = v.Check(ctx, []string{proof}, "GET", testURI, "") })
	}
	// An honest proof of about the same size (jws buffers a larger
	// token apart): its claims and a long string.
	padded := func(n int) string {
		c, err := json.Marshal(goodClaims("b"))
		if err != nil {
			t.Fatal(err)
		}
		return forged(string(c[:len(c)-1]) + `,"pad":"` + strings.Repeat("a", n) + `"}`)
	}
	n := 0
	for len(padded(n+100)) <= DefaultMaxProofSize {
		n += 100
	}
	honest := allocs(padded(n))
	for _, kind := range []string{"nested", "flat"} {
		proof := hostileClaims(t, kind, forged)
		// Signed by its own key, the proof is accepted: it is a valid one,
		// for the strict parse too.
		if _, err := v.Check(ctx, []string{hostileClaims(t, kind, func(p string) string { return signRaw(t, key, header, p) })}, "GET", testURI, ""); err != nil {
			t.Fatalf("%s: the proof signed by its key is refused: %v", kind, err)
		}
		limit := honest + 1 // the error that stops the reading
		if kind == "flat" {
			limit += float64(preLimits.MaxMembers)
		}
		if n := allocs(proof); n > limit && !vectortest.RaceEnabled {
			t.Errorf("%s: a forged proof of %d bytes allocates %v times, one of honest claims %v (limit %v)", kind, len(proof), n, honest, limit)
		}
	}
}

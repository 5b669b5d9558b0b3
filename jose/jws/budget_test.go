package jws_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestKeyLookupBudgetX5C is issue 18 finding 2: a general JWS JSON
// Serialization of 16 signatures, each with a 4.7 KB x5c (an intermediate
// with a 16,384-bit RSA key, a leaf with a fake signature), made
// jws.NewX5CKeyFunc verify a chain 16 times. The key function is now
// called at most Limits.MaxKeyLookups times per token (4 by default),
// whatever the calls return, and the token costs at most that many chain
// verifications: counted by calls, and by allocations against one chain's.
// (X5COptions.MaxRSABits is raised to 16,384 for the chains to be
// verified at all; by default the intermediate is refused before,
// TestX5CMaxRSABits.)
func TestKeyLookupBudgetX5C(t *testing.T) {
	hc := newHostileChain(t, 16384, 65537, 1)
	signers := hc.signers(t, 16)
	tok, err := jws.SignGeneral([]byte(`{"sub":"x5c"}`), signers...)
	if err != nil {
		t.Fatal(err)
	}
	one, err := signers[0].Compact([]byte(`{"sub":"x5c"}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hc.x5c(hc.inter)[1]) * 3 / 4; n < 2300 {
		t.Fatalf("intermediate of %d bytes", n)
	}
	t.Logf("token of %d bytes; one x5c of %d DER bytes", len(tok), hc.leaf0Size(t)+len(hc.inter.Raw))

	kf, calls := hc.keyFunc(t, jws.X5COptions{MaxRSABits: 16384})
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
	res, _, err := v.VerifyEach(tok)
	if err == nil || len(res) != 16 {
		t.Fatalf("VerifyEach: %v, %d results", err, len(res))
	}
	if *calls != jose.DefaultMaxKeyLookups {
		t.Errorf("x5c key function called %d times, want %d", *calls, jose.DefaultMaxKeyLookups)
	}
	for i, r := range res {
		want := jose.ErrLimitExceeded // no call left
		if i < jose.DefaultMaxKeyLookups {
			want = jose.ErrKeyNotFound // the chain does not verify
		}
		if !errors.Is(r.Err, want) {
			t.Errorf("signature %d: %v, want %v", i, r.Err, want)
		}
	}

	// Allocations: what the x5c work adds to the 16-signature token is at
	// most 4 times what it adds to one compact token (each compared with
	// the same token verified with a key function that fails at once).
	if vectortest.RaceEnabled {
		return
	}
	cheap := rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: func(*jose.Header) (any, error) {
		return nil, jose.ErrKeyNotFound
	}})
	allocs := func(v *jws.Verifier, json bool) (float64, uint64) {
		f := func() {
			if json {
				v.VerifyEach(tok)
			} else {
				v.VerifyCompact(one)
			}
		}
		return testing.AllocsPerRun(5, f), vectortest.BytesAllocated(f)
	}
	x16, xb16 := allocs(v, true)
	c16, cb16 := allocs(cheap, true)
	x1, xb1 := allocs(v, false)
	c1, cb1 := allocs(cheap, false)
	perChain, perChainBytes := x1-c1, xb1-cb1
	t.Logf("16 signatures: %v allocations, %d bytes (%v, %d with a failing key function); one chain: %v allocations, %d bytes",
		x16, xb16, c16, cb16, perChain, perChainBytes)
	if perChain < 100 {
		t.Fatalf("one chain verification costs %v allocations: the fixture does not reach the chain verification", perChain)
	}
	if got, max := x16-c16, float64(jose.DefaultMaxKeyLookups)*perChain*1.05; got > max {
		t.Errorf("16 signatures: the x5c work costs %v allocations, more than %d chains (%v)", got, jose.DefaultMaxKeyLookups, max)
	}
	if got, max := xb16-cb16, uint64(jose.DefaultMaxKeyLookups)*perChainBytes*21/20; got > max {
		t.Errorf("16 signatures: the x5c work allocates %d bytes, more than %d chains (%d)", got, jose.DefaultMaxKeyLookups, max)
	}
}

// leaf0Size is the DER size of a leaf of the chain.
func (hc *hostileChain) leaf0Size(t testing.TB) int {
	leaf, _ := hc.leaf(t, 1)
	return len(leaf.Raw)
}

// TestKeyLookupBudget: every call of a key function counts against
// Limits.MaxKeyLookups, whether it fails or finds a key, in every
// serialization; a raised limit is honoured.
func TestKeyLookupBudget(t *testing.T) {
	key := bytes.Repeat([]byte{0x5a}, 32)
	var signers []*jws.Signer
	for i := range 16 {
		s, err := jws.NewSigner(jwa.HS256, key, &jws.SignerOptions{KeyID: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		signers = append(signers, s)
	}
	payload := []byte("payload")
	general, _ := jws.SignGeneral(payload, signers...)
	flat, _ := signers[0].Flattened(payload, nil)
	compact, _ := signers[0].Compact(payload)
	errSource := errors.New("key server down")
	for _, c := range []struct {
		name      string
		fails     bool
		lim       jose.Limits
		wantCalls int
		verified  int
	}{
		{"failing", true, jose.Limits{}, 4, 0},
		{"finding the key", false, jose.Limits{MaxKeyAttempts: 16}, 4, 4},
		{"failing, MaxKeyLookups 16", true, jose.Limits{MaxKeyLookups: 16}, 16, 0},
		{"finding the key, both limits 16", false, jose.Limits{MaxKeyLookups: 16, MaxKeyAttempts: 16}, 16, 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			v := rtVerifier(t, jws.VerifyOptions{
				Algorithms: []jwa.SignatureAlgorithm{jwa.HS256},
				Limits:     c.lim,
				KeyFunc: func(*jose.Header) (any, error) {
					calls++
					if c.fails {
						return nil, errSource
					}
					return key, nil
				},
			})
			res, _, _ := v.VerifyEach(general)
			if calls != c.wantCalls {
				t.Errorf("general, 16 signatures: %d calls, want %d", calls, c.wantCalls)
			}
			verified := 0
			for i, r := range res {
				switch {
				case r.Err == nil:
					verified++
				case i >= c.wantCalls && !errors.Is(r.Err, jose.ErrLimitExceeded):
					t.Errorf("signature %d: %v, want ErrLimitExceeded", i, r.Err)
				case i < c.wantCalls && !errors.Is(r.Err, errSource):
					t.Errorf("signature %d: %v, want the key function's error", i, r.Err)
				}
			}
			if verified != c.verified {
				t.Errorf("%d signatures verified, want %d", verified, c.verified)
			}
			for _, tk := range []struct {
				name string
				f    func() error
			}{
				{"flattened", func() error { _, err := v.VerifyJSON(flat); return err }},
				{"compact", func() error { _, err := v.VerifyCompact(compact); return err }},
				{"detached", func() error {
					d, _ := signers[0].CompactDetached(payload)
					_, err := v.VerifyDetached(d, payload)
					return err
				}},
			} {
				calls = 0
				err := tk.f()
				if calls != 1 || (err != nil) != c.fails {
					t.Errorf("%s: %d calls, %v", tk.name, calls, err)
				}
			}
		})
	}
	if got := (jose.Limits{}).WithDefaults().MaxKeyLookups; got != 4 {
		t.Errorf("default MaxKeyLookups %d", got)
	}
}

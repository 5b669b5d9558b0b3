package subjects

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// The checks of the DPoP variants, made with the variant's prover and a
// verifier like the timed one before it is timed: a fresh proof is
// accepted and refused when sent again, and a proof tampered with, for
// another request or for another access token is refused with the
// sentinel of its check of RFC 9449 §4.3.
const (
	CheckDPoPAccepted  = "dpop: accepted"          // a fresh proof: accepted, with the key's thumbprint and the claims
	CheckDPoPReplay    = "dpop: replay"            // the same proof again: dpop.ErrReplay
	CheckDPoPSignature = "dpop: flipped signature" // one bit flipped in the signature: dpop.ErrSignature
	CheckDPoPOtherKey  = "dpop: other key"         // the header (and jwk) of another key's proof: dpop.ErrSignature
	CheckDPoPMethod    = "dpop: other method"      // checked as a POST: dpop.ErrMethod
	CheckDPoPURI       = "dpop: other URI"         // checked for another path: dpop.ErrURI
	CheckDPoPToken     = "dpop: other token"       // ath=yes: another access token, dpop.ErrAccessTokenHash; ath=no: a token, dpop.ErrMissingClaim
)

// The request every DPoP proof is made and checked for.
const (
	dpopMethod = "GET"
	dpopURI    = "https://api.example/orders"
)

// dpopPool is the number of proofs a benchValidate variant makes before it
// is timed and checks in turn, round and round; its replay store holds
// dpopPool/2 of them, so that each proof's entry has been evicted by the
// time it comes again (see prepareDPoP).
const dpopPool = 256

// prepareDPoP returns the op of a DPoP variant after the checks.
//
// benchIssue makes a proof, as a client does for each request: a random
// "jti", "htm", "htu", "iat" (the current time), "ath" with ath=yes, and
// the signature; the header with the public "jwk" is encoded once per
// key, by dpop.NewProver.
//
// benchValidate checks a proof with dpop.Verifier.Check, every check of
// §4.3 and the replay store included, and does not make it: the timed
// region holds only the server's work, and the take and return of a proof
// from a channel. A proof is accepted once, so the proofs are made before
// timing, dpopPool of them, and checked in turn; the Verifier's store (a
// dpop.MemoryStore) holds dpopPool/2 entries, so that it is full from the
// first half on and each check records its proof and evicts the oldest
// entry, the steady state of a busy server's store (whose default
// capacity, 65,536, a pool could not exceed at a reasonable cost). Its
// map of 128 entries stays in the CPU's caches, where a full default
// store's 8.5 MB does not: a Remember there cost 1.5-5.4 µs against
// 0.9-1.1 µs (measured at a load of 19 on 2 cores), a few percent of an
// ES256 check, which the variants leave out. The
// Verifier's clock is fixed at the proofs' "iat", so that they stay within
// its window however long the run. The access token's own validation is
// not part of it (the JWT and Bearer groups measure that), nor its
// binding, dpop.CheckBinding, a comparison of two thumbprints.
func prepareDPoP(v *bench.Variant) (bench.Op, error) {
	if v.Subject != bench.SubjectIssue && v.Subject != bench.SubjectValidate {
		return nil, fmt.Errorf("subjects: %s is not a DPoP subject", v.Subject)
	}
	var withAth bool
	switch v.Param("ath") {
	case bench.DPoPWithAth:
		withAth = true
	case bench.DPoPWithoutAth:
	default:
		return nil, fmt.Errorf("subjects: a DPoP variant with ath=%q", v.Param("ath"))
	}
	alg := jwa.SignatureAlgorithm(v.Alg)
	priv, _, err := signatureKey(v, false)
	if err != nil {
		return nil, err
	}
	otherPriv, _, err := signatureKey(v, true)
	if err != nil {
		return nil, err
	}
	prover, err := dpop.NewProver(alg, priv)
	if err != nil {
		return nil, err
	}
	other, err := dpop.NewProver(alg, otherPriv)
	if err != nil {
		return nil, err
	}
	var token, otherToken string
	if withAth {
		if token, err = dpopAccessToken(prover.Thumbprint(), "user-1234"); err != nil {
			return nil, err
		}
		if otherToken, err = dpopAccessToken(prover.Thumbprint(), "user-5678"); err != nil {
			return nil, err
		}
	}
	opts := &dpop.ProofOptions{AccessToken: token, IssuedAt: jwtNow}
	newVerifier := func(capacity int) (*dpop.Verifier, error) {
		return dpop.NewVerifier(dpop.VerifierOptions{
			Algorithms: []jwa.SignatureAlgorithm{alg},
			Replay:     dpop.NewMemoryStore(capacity),
			Now:        func() time.Time { return jwtNow },
		})
	}
	checker, err := newVerifier(0)
	if err != nil {
		return nil, err
	}
	if err := checkDPoP(checker, prover, other, opts, otherToken); err != nil {
		return nil, err
	}

	if v.Subject == bench.SubjectIssue {
		live := &dpop.ProofOptions{AccessToken: token} // iat: the current time
		if !withAth {
			live = nil
		}
		return func() error { _, err := prover.Proof(dpopMethod, dpopURI, live); return err }, nil
	}
	ver, err := newVerifier(dpopPool / 2)
	if err != nil {
		return nil, err
	}
	// The pool is a queue: a proof goes back to its end only once its
	// check is done, so that on several goroutines (Runner.Parallel) too a
	// proof is checked again only after the others were taken, and at
	// least dpopPool-2n+1 of them recorded, n the goroutines: enough for
	// the store to have evicted it while n <= 64.
	pool := make(chan []string, dpopPool)
	for range dpopPool {
		proof, err := prover.Proof(dpopMethod, dpopURI, opts)
		if err != nil {
			return nil, err
		}
		pool <- []string{proof} // the request's DPoP header values
	}
	ctx := context.Background()
	return func() error {
		proof := <-pool
		_, err := ver.Check(ctx, proof, dpopMethod, dpopURI, token)
		pool <- proof
		return err
	}, nil
}

// dpopAccessToken returns an access token bound to the key of thumbprint
// jkt (RFC 9449 §6.1): the JWT variants' claims with "cnf", signed with
// ES256 by the suite's P-256 key. Only its hash is checked ("ath").
func dpopAccessToken(jkt, subject string) (string, error) {
	k, err := ecKey("P-256", false)
	if err != nil {
		return "", err
	}
	s, err := jws.NewSigner(jwa.ES256, k, nil)
	if err != nil {
		return "", err
	}
	c := accessToken(jwtNow.Add(time.Hour), jwtAudience)
	c.Subject = subject
	claims, err := json.Marshal(struct {
		*jwtClaims
		Cnf struct {
			JKT string `json:"jkt"`
		} `json:"cnf"`
	}{jwtClaims: c, Cnf: struct {
		JKT string `json:"jkt"`
	}{jkt}})
	if err != nil {
		return "", err
	}
	tok, err := s.Compact(claims)
	return string(tok), err
}

// checkDPoP runs the checks of a DPoP variant with ver, a Verifier like
// the timed one, on proofs of p (and one of other, another key of the same
// type) made with opts; otherToken is another access token (ath=yes) or
// "" (ath=no).
func checkDPoP(ver *dpop.Verifier, p, other *dpop.Prover, opts *dpop.ProofOptions, otherToken string) error {
	ctx := context.Background()
	token := opts.AccessToken
	check := func(proof, method, uri, token string) (*dpop.Proof, error) {
		return ver.Check(ctx, []string{proof}, method, uri, token)
	}
	proof, err := p.Proof(dpopMethod, dpopURI, opts)
	if err != nil {
		return &CheckError{CheckDPoPAccepted, err}
	}
	got, err := check(proof, dpopMethod, dpopURI, token)
	switch {
	case err != nil:
		return &CheckError{CheckDPoPAccepted, err}
	case got.Thumbprint != p.Thumbprint() || got.Method != dpopMethod || got.URI != dpopURI || !got.IssuedAt.Equal(jwtNow) ||
		(token == "") != (got.AccessTokenHash == "") || (token != "" && got.AccessTokenHash != dpop.AccessTokenHash(token)):
		return &CheckError{CheckDPoPAccepted, fmt.Errorf("proof %+v", got)}
	}
	_, err = check(proof, dpopMethod, dpopURI, token)
	if err := want(CheckDPoPReplay, err, dpop.ErrReplay, "dpop.ErrReplay"); err != nil {
		return err
	}

	fresh := func(check string) (string, error) {
		proof, err := p.Proof(dpopMethod, dpopURI, opts)
		if err != nil {
			return "", &CheckError{check, err}
		}
		return proof, nil
	}
	flipped, err := fresh(CheckDPoPSignature)
	if err != nil {
		return err
	}
	b, err := flip([]byte(flipped), bench.SerializationCompact, 2, "signature")
	if err != nil {
		return &CheckError{CheckDPoPSignature, err}
	}
	otherProof, err := other.Proof(dpopMethod, dpopURI, opts)
	if err != nil {
		return &CheckError{CheckDPoPOtherKey, err}
	}
	swapped, err := fresh(CheckDPoPOtherKey)
	if err != nil {
		return err
	}
	swapped = otherProof[:strings.IndexByte(otherProof, '.')] + swapped[strings.IndexByte(swapped, '.'):]
	cases := []struct {
		check, method, uri, token string
		sentinel                  error
		name                      string
	}{
		{CheckDPoPSignature, dpopMethod, dpopURI, token, dpop.ErrSignature, "dpop.ErrSignature"},
		{CheckDPoPOtherKey, dpopMethod, dpopURI, token, dpop.ErrSignature, "dpop.ErrSignature"},
		{CheckDPoPMethod, "POST", dpopURI, token, dpop.ErrMethod, "dpop.ErrMethod"},
		{CheckDPoPURI, dpopMethod, dpopURI + "/1", token, dpop.ErrURI, "dpop.ErrURI"},
		{CheckDPoPToken, dpopMethod, dpopURI, otherToken, dpop.ErrAccessTokenHash, "dpop.ErrAccessTokenHash"},
	}
	if token == "" {
		cases[len(cases)-1].token, cases[len(cases)-1].sentinel, cases[len(cases)-1].name = "an access token", dpop.ErrMissingClaim, "dpop.ErrMissingClaim"
	}
	for _, c := range cases {
		proof := ""
		switch c.check {
		case CheckDPoPSignature:
			proof = string(b)
		case CheckDPoPOtherKey:
			proof = swapped
		default:
			if proof, err = fresh(c.check); err != nil {
				return err
			}
		}
		_, err := check(proof, c.method, c.uri, c.token)
		if err := want(c.check, err, c.sentinel, c.name); err != nil {
			return err
		}
	}
	return nil
}

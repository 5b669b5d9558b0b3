package dpop

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestCheckRefusals makes, for each check of RFC 9449 §4.3, a proof that
// fails that check alone, and expects its own sentinel.
func TestCheckRefusals(t *testing.T) {
	key := ecKey(t)
	other := ecKey(t)
	good := func(mod func(h, c map[string]any)) string {
		h, c := goodHeader(t, key, "ES256"), goodClaims("id-"+t.Name())
		if mod != nil {
			mod(h, c)
		}
		return forge(t, jwa.ES256, key, h, c)
	}
	privJWK, err := (&jose.JWK{Key: key}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	ed := edKey(t)
	rsa1024 := rsaKey(t, "rsa1024.pem")
	rsa8192 := rsaKey(t, "rsa8192-e2147483647.pem")
	tests := []struct {
		name        string
		proofs      []string
		method, uri string
		token       string
		opts        VerifierOptions
		want        error
		code        string
	}{
		{name: "no header", proofs: nil, want: ErrNoProof},
		{name: "two headers", proofs: []string{good(nil), good(nil)}, want: ErrMultipleProofs},
		{name: "too large", proofs: []string{strings.Repeat("a", DefaultMaxProofSize+1)}, want: ErrProofTooLarge},
		{name: "too large for the option", proofs: []string{good(nil)}, opts: VerifierOptions{MaxProofSize: 100}, want: ErrProofTooLarge},
		{name: "not a JWT", proofs: []string{"not.a.jwt"}, want: ErrMalformedProof},
		{name: "two dots only", proofs: []string{".."}, want: ErrMalformedProof},
		{name: "JWE", proofs: []string{"a.b.c.d.e"}, want: ErrMalformedProof},
		{name: "claims not an object", proofs: []string{forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), []int{1})}, want: ErrMalformedProof},
		{name: "htm not a string", proofs: []string{good(func(_, c map[string]any) { c["htm"] = 1 })}, want: ErrMalformedProof},
		{name: "iat a string", proofs: []string{good(func(_, c map[string]any) { c["iat"] = "now" })}, want: ErrMalformedProof},
		{name: "unknown crit", proofs: []string{good(func(h, _ map[string]any) { h["crit"] = []string{"x"}; h["x"] = 1 })}, want: ErrMalformedProof},
		{name: "no jti", proofs: []string{good(func(_, c map[string]any) { delete(c, "jti") })}, want: ErrMissingClaim},
		{name: "no htm", proofs: []string{good(func(_, c map[string]any) { delete(c, "htm") })}, want: ErrMissingClaim},
		{name: "empty htm", proofs: []string{good(func(_, c map[string]any) { c["htm"] = "" })}, want: ErrMissingClaim},
		{name: "no htu", proofs: []string{good(func(_, c map[string]any) { delete(c, "htu") })}, want: ErrMissingClaim},
		{name: "empty htu", proofs: []string{good(func(_, c map[string]any) { c["htu"] = "" })}, want: ErrMissingClaim},
		{name: "no iat", proofs: []string{good(func(_, c map[string]any) { delete(c, "iat") })}, want: ErrMissingClaim},
		{name: "no jwk", proofs: []string{good(func(h, _ map[string]any) { delete(h, "jwk") })}, want: ErrMissingClaim},
		{name: "no ath with a token", proofs: []string{good(nil)}, token: "tok", want: ErrMissingClaim},
		{name: "typ JWT", proofs: []string{good(func(h, _ map[string]any) { h["typ"] = "JWT" })}, want: ErrType},
		{name: "no typ", proofs: []string{good(func(h, _ map[string]any) { delete(h, "typ") })}, want: ErrType},
		{name: "typ at+jwt", proofs: []string{good(func(h, _ map[string]any) { h["typ"] = "at+jwt" })}, want: ErrType},
		{name: "alg none", proofs: []string{forgeNone(t, goodHeader(t, key, "none"), goodClaims("n"))}, want: ErrAlgorithm},
		{name: "alg HS256", proofs: []string{forge(t, jwa.HS256, make([]byte, 32), map[string]any{"typ": Type, "alg": "HS256", "jwk": publicJWK(t, key)}, goodClaims("h"))}, want: ErrAlgorithm},
		{name: "alg not allowed", proofs: []string{forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), goodClaims("x"))}, opts: VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.EdDSA}}, want: ErrAlgorithm},
		{name: "alg unknown", proofs: []string{good(func(h, _ map[string]any) { h["alg"] = "ES999" })}, want: ErrAlgorithm},
		{name: "private jwk", proofs: []string{good(func(h, _ map[string]any) { h["jwk"] = json.RawMessage(privJWK) })}, want: ErrKey},
		{name: "symmetric jwk", proofs: []string{good(func(h, _ map[string]any) { h["jwk"] = map[string]string{"kty": "oct", "k": "AAAA"} })}, want: ErrKey},
		{name: "jwk of another type", proofs: []string{good(func(h, _ map[string]any) { h["jwk"] = publicJWK(t, ed) })}, want: ErrKey},
		{name: "jwk forbids alg", proofs: []string{good(func(h, _ map[string]any) {
			var m map[string]any
			json.Unmarshal(publicJWK(t, key), &m)
			m["alg"] = "ES384"
			h["jwk"] = m
		})}, want: ErrKey},
		{name: "jwk for encryption", proofs: []string{good(func(h, _ map[string]any) {
			var m map[string]any
			json.Unmarshal(publicJWK(t, key), &m)
			m["use"] = "enc"
			h["jwk"] = m
		})}, want: ErrKey},
		{name: "RSA jwk too weak", proofs: []string{forge(t, jwa.RS256, rsa1024, goodHeader(t, rsa1024, "RS256"), goodClaims("w"))}, want: ErrKey},
		{name: "RSA jwk too large", proofs: []string{forge(t, jwa.RS256, rsa8192, goodHeader(t, rsa8192, "RS256"), goodClaims("l"))}, opts: VerifierOptions{MaxProofSize: 16 << 10}, want: ErrKey},
		{name: "signature of another key", proofs: []string{forge(t, jwa.ES256, other, goodHeader(t, key, "ES256"), goodClaims("o"))}, want: ErrSignature},
		{name: "signature tampered", proofs: []string{tamper(good(nil))}, want: ErrSignature},
		{name: "htm", proofs: []string{good(nil)}, method: "POST", want: ErrMethod},
		{name: "htm case", proofs: []string{good(func(_, c map[string]any) { c["htm"] = "get" })}, want: ErrMethod},
		{name: "htu path", proofs: []string{good(nil)}, uri: "https://api.example/other", want: ErrURI},
		{name: "htu scheme", proofs: []string{good(nil)}, uri: "http://api.example/r", want: ErrURI},
		{name: "htu host", proofs: []string{good(nil)}, uri: "https://evil.example/r", want: ErrURI},
		{name: "htu port", proofs: []string{good(nil)}, uri: "https://api.example:8443/r", want: ErrURI},
		{name: "htu not a URI", proofs: []string{good(func(_, c map[string]any) { c["htu"] = "/r" })}, want: ErrURI},
		{name: "nonce missing", proofs: []string{good(nil)}, opts: VerifierOptions{Nonces: fixedNonces("n-1")}, want: ErrNonce, code: CodeUseNonce},
		{name: "nonce stale", proofs: []string{good(func(_, c map[string]any) { c["nonce"] = "n-0" })}, opts: VerifierOptions{Nonces: fixedNonces("n-1")}, want: ErrNonce, code: CodeUseNonce},
		{name: "iat too old", proofs: []string{good(func(_, c map[string]any) { c["iat"] = testNow.Add(-DefaultMaxAge - DefaultLeeway - time.Second).Unix() })}, want: ErrIssuedAt},
		{name: "iat in the future", proofs: []string{good(func(_, c map[string]any) { c["iat"] = testNow.Add(DefaultLeeway + time.Second).Unix() })}, want: ErrIssuedAt},
		{name: "iat beyond a short window", proofs: []string{good(func(_, c map[string]any) { c["iat"] = testNow.Add(-3 * time.Second).Unix() })}, opts: VerifierOptions{MaxAge: time.Second, Leeway: -1}, want: ErrIssuedAt},
		{name: "expired", proofs: []string{good(func(_, c map[string]any) { c["exp"] = testNow.Add(-time.Minute).Unix() })}, want: ErrIssuedAt},
		{name: "ath of another token", proofs: []string{good(func(_, c map[string]any) { c["ath"] = AccessTokenHash("other") })}, token: "tok", want: ErrAccessTokenHash},
		// The right hash with a byte more or less, another encoding of it
		// (padded; standard base64, whose "/" and "+" are "_" and "-" in
		// the ath of "token", PEaenWxYddN6Q_NT1PiOYfz4EsZu7jRXRlpAsNpBU-A),
		// the token itself.
		{name: "ath with a byte more", proofs: []string{good(func(_, c map[string]any) { c["ath"] = AccessTokenHash("tok") + "A" })}, token: "tok", want: ErrAccessTokenHash},
		{name: "ath with a byte less", proofs: []string{good(func(_, c map[string]any) { c["ath"] = AccessTokenHash("tok")[:42] })}, token: "tok", want: ErrAccessTokenHash},
		{name: "ath padded", proofs: []string{good(func(_, c map[string]any) { c["ath"] = AccessTokenHash("tok") + "=" })}, token: "tok", want: ErrAccessTokenHash},
		{name: "ath standard base64", proofs: []string{good(func(_, c map[string]any) { c["ath"] = "PEaenWxYddN6Q/NT1PiOYfz4EsZu7jRXRlpAsNpBU+A" })}, token: "token", want: ErrAccessTokenHash},
		{name: "ath the token itself", proofs: []string{good(func(_, c map[string]any) { c["ath"] = "tok" })}, token: "tok", want: ErrAccessTokenHash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.method == "" {
				tt.method = "GET"
			}
			if tt.uri == "" {
				tt.uri = testURI
			}
			if tt.code == "" {
				tt.code = CodeInvalidProof
			}
			v := newVerifier(t, tt.opts)
			p, err := v.Check(context.Background(), tt.proofs, tt.method, tt.uri, tt.token)
			if p != nil {
				t.Errorf("a proof was returned with error %v", err)
			}
			wantRefusal(t, err, tt.want, tt.code)
			if tt.code == CodeUseNonce {
				if e := err.(*Error); e.Nonce != "n-1" {
					t.Errorf("Nonce %q, want n-1", e.Nonce)
				}
			}
			if n := v.replay.(*MemoryStore).Len(); n != 0 {
				t.Errorf("a refused proof was recorded in the replay store (%d entries)", n)
			}
			t.Log(err)
			if len(err.Error()) > 600 {
				t.Errorf("error text of %d bytes: %.100s...", len(err.Error()), err)
			}
		})
	}
}

// TestCheckAccepts checks the proofs that must pass: the window's edges,
// an equivalent htu, nonces, the algorithms of the allow-list.
func TestCheckAccepts(t *testing.T) {
	key := ecKey(t)
	n := 0
	proof := func(mod func(h, c map[string]any)) string {
		n++
		h, c := goodHeader(t, key, "ES256"), goodClaims("ok-"+itoa(n))
		if mod != nil {
			mod(h, c)
		}
		return forge(t, jwa.ES256, key, h, c)
	}
	tests := []struct {
		name  string
		proof string
		uri   string
		token string
		opts  VerifierOptions
	}{
		{name: "plain", proof: proof(nil)},
		{name: "oldest iat", proof: proof(func(_, c map[string]any) { c["iat"] = testNow.Add(-DefaultMaxAge - DefaultLeeway).Unix() })},
		{name: "latest iat", proof: proof(func(_, c map[string]any) { c["iat"] = testNow.Add(DefaultLeeway).Unix() })},
		{name: "fractional iat", proof: proof(func(_, c map[string]any) { c["iat"] = float64(testNow.Unix()) + 0.5 })},
		{name: "typ application/dpop+jwt", proof: proof(func(h, _ map[string]any) { h["typ"] = "application/dpop+jwt" })},
		{name: "htu normalized", proof: proof(func(_, c map[string]any) { c["htu"] = "HTTPS://API.example:443/./r" })},
		{name: "request URI with query", proof: proof(nil), uri: "https://api.example/r?x=1#f"},
		{name: "ath", proof: proof(func(_, c map[string]any) { c["ath"] = AccessTokenHash("tok") }), token: "tok"},
		{name: "ath without a token", proof: proof(func(_, c map[string]any) { c["ath"] = AccessTokenHash("tok") })},
		{name: "nonce", proof: proof(func(_, c map[string]any) { c["nonce"] = "n-1" }), opts: VerifierOptions{Nonces: fixedNonces("n-1")}},
		{name: "other claims", proof: proof(func(_, c map[string]any) { c["x"] = map[string]any{"y": []int{1}} })},
		{name: "kid", proof: proof(func(h, _ map[string]any) { h["kid"] = "k" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.uri == "" {
				tt.uri = testURI
			}
			v := newVerifier(t, tt.opts)
			p, err := v.Check(context.Background(), []string{tt.proof}, "GET", tt.uri, tt.token)
			if err != nil {
				t.Fatal(err)
			}
			jk, _ := jose.NewJWK(key.Public())
			if want, _ := Thumbprint(jk); p.Thumbprint != want {
				t.Errorf("thumbprint %s, want %s", p.Thumbprint, want)
			}
		})
	}
}

// TestProverAlgorithms makes proofs with each kind of key and checks them.
func TestProverAlgorithms(t *testing.T) {
	ec384, ec521 := ecKeyCurve(t, 384), ecKeyCurve(t, 521)
	tests := []struct {
		alg jwa.SignatureAlgorithm
		key any
	}{
		{jwa.ES256, ecKey(t)},
		{jwa.ES384, ec384},
		{jwa.ES512, ec521},
		{jwa.EdDSA, edKey(t)},
		{jwa.PS256, rsaKey(t, "rsa2048.pem")},
		{jwa.PS384, rsaKey(t, "rsa2048.pem")},
		{jwa.RS256, rsaKey(t, "rsa2048.pem")},
		{jwa.PS512, rsaKey(t, "rsa4096.pem")},
	}
	v := newVerifier(t, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, jwa.ES384, jwa.ES512, jwa.EdDSA, jwa.PS256, jwa.PS384, jwa.PS512, jwa.RS256}})
	for _, tt := range tests {
		t.Run(string(tt.alg), func(t *testing.T) {
			p := newProver(t, tt.alg, tt.key)
			if p.Algorithm() != tt.alg {
				t.Errorf("Algorithm %s", p.Algorithm())
			}
			s, err := p.Proof("GET", "https://api.example/r?q=1#f", &ProofOptions{AccessToken: "tok", Nonce: "n", IssuedAt: testNow})
			if err != nil {
				t.Fatal(err)
			}
			got, err := v.Check(context.Background(), []string{s}, "GET", testURI, "tok")
			if err != nil {
				t.Fatal(err)
			}
			if got.Thumbprint != p.Thumbprint() || got.URI != testURI || got.Nonce != "n" || got.Key.IsPrivate() {
				t.Errorf("proof %+v", got)
			}
			if len(got.ID) != 22 {
				t.Errorf("jti %q: want 22 characters, 128 bits", got.ID)
			}
			if p.PublicKey().IsPrivate() {
				t.Error("PublicKey is private")
			}
		})
	}
}

// TestProverRefuses checks what NewProver and Proof refuse.
func TestProverRefuses(t *testing.T) {
	key := ecKey(t)
	for _, tt := range []struct {
		name string
		alg  jwa.SignatureAlgorithm
		key  any
	}{
		{"HMAC", jwa.HS256, make([]byte, 32)},
		{"none", "none", key},
		{"unknown", "XS1", key},
		{"public key", jwa.ES256, key.Public()},
		{"wrong curve", jwa.ES384, key},
		{"weak RSA", jwa.RS256, rsaKey(t, "rsa1024.pem")},
		{"empty JWK", jwa.ES256, &jose.JWK{}},
		{"JWK forbids", jwa.ES256, &jose.JWK{Key: key, Use: "enc"}},
	} {
		if _, err := NewProver(tt.alg, tt.key); err == nil {
			t.Errorf("%s: NewProver accepted it", tt.name)
		}
	}
	if _, err := NewProver(jwa.ES256, &jose.JWK{Key: key, KeyID: "k"}); err != nil {
		t.Errorf("JWK: %v", err)
	}
	// What a refusal says: the key in words, no Go type; a lower
	// package's words under no bare "dpop:" (issue 23 item 2).
	for _, tt := range []struct {
		alg  jwa.SignatureAlgorithm
		key  any
		want string
	}{
		{jwa.ES256, key.Public(), "dpop: the key is a P-256 ECDSA public key; a proof is signed with a private key"},
		{jwa.ES384, key, "jws: NewSigner: jwa: the key is a P-256 ECDSA private key; ES384 needs a P-384 ECDSA key: invalid key for algorithm"},
	} {
		if _, err := NewProver(tt.alg, tt.key); err == nil || err.Error() != tt.want {
			t.Errorf("NewProver(%s, %T) = %v, want %s", tt.alg, tt.key, err, tt.want)
		}
	}
	p := newProver(t, jwa.EdDSA, ed25519.PrivateKey(edKey(t)))
	for _, tt := range []struct{ method, uri, nonce string }{
		{"", testURI, ""},
		{"G T", testURI, ""},
		{"GET", "/r", ""},
		{"GET", "ftp://x/r", ""},
		{"GET", testURI, "a b"},
		{"GET", testURI, `a"b`},
	} {
		if _, err := p.Proof(tt.method, tt.uri, &ProofOptions{Nonce: tt.nonce}); err == nil {
			t.Errorf("Proof(%q, %q, nonce %q) accepted", tt.method, tt.uri, tt.nonce)
		}
	}
	if _, err := p.Proof("GET", testURI, nil); err != nil {
		t.Errorf("Proof with nil options: %v", err)
	}
}

// TestNewVerifierRefuses checks the options NewVerifier refuses.
func TestNewVerifierRefuses(t *testing.T) {
	for _, opts := range []VerifierOptions{
		{},
		{Algorithms: []jwa.SignatureAlgorithm{jwa.HS256}},
		{Algorithms: []jwa.SignatureAlgorithm{"none"}},
		{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256, "x"}},
		{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, MaxAge: -1},
		{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, MaxProofSize: -1},
		{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}, MaxRSABits: -1},
	} {
		if _, err := NewVerifier(opts); err == nil {
			t.Errorf("NewVerifier(%+v) accepted", opts)
		}
	}
	v := newVerifier(t, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.ES256}})
	if a := v.Algorithms(); len(a) != 1 || a[0] != jwa.ES256 {
		t.Errorf("Algorithms %v", a)
	}
	if n, err := v.Nonce(context.Background()); n != "" || err != nil {
		t.Errorf("Nonce %q, %v without a source", n, err)
	}
}

// TestCheckServerErrors checks that the server's own failures are not
// *Error: a request URI that is not absolute, a failing replay store or
// nonce source, a done context.
func TestCheckServerErrors(t *testing.T) {
	key := ecKey(t)
	proof := forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), goodClaims("s"))
	boom := errors.New("boom")
	for _, tt := range []struct {
		name string
		opts VerifierOptions
		uri  string
		ctx  func() context.Context
	}{
		{name: "relative request URI", uri: "/r"},
		{name: "replay store", opts: VerifierOptions{Replay: failingStore{boom}}},
		{name: "nonce source Valid", opts: VerifierOptions{Nonces: failingNonces{valid: boom}}},
		{name: "nonce source Nonce", opts: VerifierOptions{Nonces: failingNonces{nonce: boom}}},
		{name: "done context", ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			if tt.uri == "" {
				tt.uri = testURI
			}
			pr := proof
			if tt.opts.Nonces != nil {
				pr = forge(t, jwa.ES256, key, goodHeader(t, key, "ES256"), map[string]any{"jti": "s", "htm": "GET", "htu": testURI, "iat": testNow.Unix(), "nonce": "n"})
				if _, ok := tt.opts.Nonces.(failingNonces); ok && tt.opts.Nonces.(failingNonces).nonce != nil {
					pr = proof // no nonce: the Verifier asks the source for one
				}
			}
			_, err := newVerifier(t, tt.opts).Check(ctx, []string{pr}, "GET", tt.uri, "")
			var e *Error
			if err == nil || errors.As(err, &e) {
				t.Fatalf("error %v, want a server error", err)
			}
			if tt.ctx != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
			if errors.Is(err, ErrRequestURI) != (tt.uri != testURI) {
				t.Errorf("error %v: wraps ErrRequestURI %v, want %v", err, errors.Is(err, ErrRequestURI), tt.uri != testURI)
			}
		})
	}
}

type failingStore struct{ err error }

func (f failingStore) Remember(context.Context, [32]byte, time.Time, time.Time) (bool, error) {
	return false, f.err
}

type failingNonces struct{ valid, nonce error }

func (f failingNonces) Nonce(context.Context) (string, error) { return "n", f.nonce }
func (f failingNonces) Valid(context.Context, string) (bool, error) {
	return f.valid == nil, f.valid
}

// fixedNonces is a NonceSource whose only valid nonce is its value.
type fixedNonces string

func (f fixedNonces) Nonce(context.Context) (string, error) { return string(f), nil }
func (f fixedNonces) Valid(_ context.Context, n string) (bool, error) {
	return n == string(f), nil
}

// forgeNone returns an unsecured JWS ("alg": "none", RFC 7518 §3.6).
func forgeNone(t testing.TB, header, claims any) string {
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	return jose.Base64URLEncode(h) + "." + jose.Base64URLEncode(c) + "."
}

// tamper flips a bit of the signature's first byte.
func tamper(s string) string {
	i := strings.LastIndexByte(s, '.') + 1
	b := []byte(s)
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

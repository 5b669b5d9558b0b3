package oidc

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwt"
)

func ecKey(t testing.TB, kid string) *jose.JWK {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader) // EC keys are cheap; no RSA generation
	if err != nil {
		t.Fatal(err)
	}
	j, err := jose.NewJWK(k)
	if err != nil {
		t.Fatal(err)
	}
	j.KeyID = kid
	return j
}

// TestVerify runs every check of IDTokenVerifier.Verify against tokens of
// a real provider over TLS.
func TestVerify(t *testing.T) {
	k1 := rsaKey(t, "rsa2048.pem", "k1")
	e1 := ecKey(t, "e1")
	idp := newIDP(t, k1, e1)
	p := newTestProvider(t, idp, nil, Options{})
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	iss := idp.srv.URL
	rs := func(extra string) []byte { return sign(t, k1, jwa.RS256, "", idp.claims(extra)) }
	custom := func(format string, args ...any) []byte {
		return sign(t, k1, jwa.RS256, "", fmt.Sprintf(format, args...))
	}
	exp, iat := testNow.Add(time.Hour).Unix(), testNow.Unix()
	cases := []struct {
		name   string
		token  []byte
		want   Expect
		opts   VerifierOptions
		err    error // nil: accepted
		detail string
	}{
		{"valid", rs(""), Expect{}, VerifierOptions{}, nil, ""},
		{"typ JWT", sign(t, k1, jwa.RS256, "JWT", idp.claims("")), Expect{}, VerifierOptions{}, nil, ""},
		{"nonce", rs(`,"nonce":"n-0S6_WzA2Mj"`), Expect{Nonce: "n-0S6_WzA2Mj"}, VerifierOptions{}, nil, ""},
		{"nonce unexpected but present", rs(`,"nonce":"x"`), Expect{}, VerifierOptions{}, nil, ""},
		{"nonce mismatch", rs(`,"nonce":"n-0S6_WzA2Mk"`), Expect{Nonce: "n-0S6_WzA2Mj"}, VerifierOptions{}, ErrNonce, "not the nonce sent"},
		{"nonce absent", rs(""), Expect{Nonce: "n-0S6_WzA2Mj"}, VerifierOptions{}, ErrNonce, "absent"},
		{"nonce not a string", rs(`,"nonce":1`), Expect{Nonce: "1"}, VerifierOptions{}, jwt.ErrMalformedClaims, `"nonce"`},
		{"wrong issuer", custom(`{"iss":"https://evil.example","sub":"a","aud":%q,"exp":%d,"iat":%d}`, testClient, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrInvalidIssuer, ""},
		{"issuer with a slash", custom(`{"iss":"%s/","sub":"a","aud":%q,"exp":%d,"iat":%d}`, iss, testClient, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrInvalidIssuer, ""},
		{"other audience", custom(`{"iss":%q,"sub":"a","aud":"other","exp":%d,"iat":%d}`, iss, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrInvalidAudience, ""},
		{"no audience", custom(`{"iss":%q,"sub":"a","exp":%d,"iat":%d}`, iss, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrMissingClaim, ""},
		{"untrusted second audience", custom(`{"iss":%q,"sub":"a","aud":[%q,"api"],"azp":%q,"exp":%d,"iat":%d}`, iss, testClient, testClient, exp, iat), Expect{}, VerifierOptions{}, ErrAuthorizedParty, "trusted audience"},
		{"trusted second audience", custom(`{"iss":%q,"sub":"a","aud":[%q,"api"],"azp":%q,"exp":%d,"iat":%d}`, iss, testClient, testClient, exp, iat), Expect{}, VerifierOptions{TrustedAudiences: []string{"api"}}, nil, ""},
		{"several audiences, no azp", custom(`{"iss":%q,"sub":"a","aud":[%q,"api"],"exp":%d,"iat":%d}`, iss, testClient, exp, iat), Expect{}, VerifierOptions{TrustedAudiences: []string{"api"}}, ErrAuthorizedParty, "several audiences"},
		{"azp another client", rs(`,"azp":"other"`), Expect{}, VerifierOptions{}, ErrAuthorizedParty, `"other", expected`},
		{"azp the client", rs(`,"azp":"my-app"`), Expect{}, VerifierOptions{}, nil, ""},
		{"no sub", custom(`{"iss":%q,"aud":%q,"exp":%d,"iat":%d}`, iss, testClient, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrMissingClaim, `"sub"`},
		{"sub of 256 bytes", custom(`{"iss":%q,"sub":%q,"aud":%q,"exp":%d,"iat":%d}`, iss, strings.Repeat("s", 256), testClient, exp, iat), Expect{}, VerifierOptions{}, jwt.ErrMalformedClaims, "256 bytes"},
		{"sub of 255 bytes", custom(`{"iss":%q,"sub":%q,"aud":%q,"exp":%d,"iat":%d}`, iss, strings.Repeat("s", 255), testClient, exp, iat), Expect{}, VerifierOptions{}, nil, ""},
		{"no iat", custom(`{"iss":%q,"sub":"a","aud":%q,"exp":%d}`, iss, testClient, exp), Expect{}, VerifierOptions{}, jwt.ErrMissingClaim, `"iat"`},
		{"no exp", custom(`{"iss":%q,"sub":"a","aud":%q,"iat":%d}`, iss, testClient, iat), Expect{}, VerifierOptions{}, jwt.ErrMissingClaim, `"exp"`},
		{"max_age met", rs(fmt.Sprintf(`,"auth_time":%d`, testNow.Add(-time.Hour).Unix())), Expect{MaxAge: time.Hour}, VerifierOptions{}, nil, ""},
		{"max_age within leeway", rs(fmt.Sprintf(`,"auth_time":%d`, testNow.Add(-time.Hour-time.Minute).Unix())), Expect{MaxAge: time.Hour}, VerifierOptions{}, nil, ""},
		{"max_age exceeded", rs(fmt.Sprintf(`,"auth_time":%d`, testNow.Add(-time.Hour-time.Minute-time.Second).Unix())), Expect{MaxAge: time.Hour}, VerifierOptions{}, ErrAuthTime, "max_age 1h0m0s"},
		{"max_age without auth_time", rs(""), Expect{MaxAge: time.Hour}, VerifierOptions{}, ErrAuthTime, "absent"},
		{"auth_time in the future", rs(fmt.Sprintf(`,"auth_time":%d`, testNow.Add(time.Minute+time.Second).Unix())), Expect{}, VerifierOptions{}, ErrAuthTime, "in the future"},
		{"auth_time ahead within leeway", rs(fmt.Sprintf(`,"auth_time":%d`, testNow.Add(time.Minute).Unix())), Expect{}, VerifierOptions{}, nil, ""},
		{"auth_time malformed", rs(`,"auth_time":"yesterday"`), Expect{}, VerifierOptions{}, jwt.ErrMalformedClaims, `"auth_time"`},
		{"amr", rs(`,"amr":["pwd","otp"],"acr":"urn:mace:incommon:iap:silver"`), Expect{}, VerifierOptions{}, nil, ""},
		{"amr not strings", rs(`,"amr":"pwd"`), Expect{}, VerifierOptions{}, jwt.ErrMalformedClaims, `"amr"`},
		// Access tokens handed in as ID tokens.
		{"typ at+jwt", sign(t, k1, jwa.RS256, "at+jwt", idp.claims(`,"client_id":"my-app"`)), Expect{}, VerifierOptions{}, jwt.ErrInvalidType, ""},
		{"access token claims", rs(`,"scope":"openid email"`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"scope"`},
		{"client_id claim", rs(`,"client_id":"my-app"`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"client_id"`},
		{"scp claim", rs(`,"scp":["read"]`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"scp"`},
		// Logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.4) of
		// the same provider and client: with the type that spec
		// recommends, and without one (its only marks are "events" and no
		// "nonce", which an ID token of a flow without a nonce lacks too).
		{"typ logout+jwt", sign(t, k1, jwa.RS256, "logout+jwt", idp.claims(`,"jti":"l1","events":{"http://schemas.openid.net/event/backchannel-logout":{}}`)), Expect{}, VerifierOptions{}, jwt.ErrInvalidType, ""},
		{"untyped logout token", rs(`,"jti":"l1","sid":"s1","events":{"http://schemas.openid.net/event/backchannel-logout":{}}`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"events": a claim of logout tokens`},
		{"events null", rs(`,"events":null`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"events": a claim of logout tokens`},
		{"events escaped", rs(`,"ev\u0065nts":"x"`), Expect{}, VerifierOptions{}, ErrNotIDToken, `"events": a claim of logout tokens`},
		{"events twice", rs(`,"events":{},"events":{}`), Expect{}, VerifierOptions{}, jwt.ErrMalformedClaims, "duplicate"},
		{"events nested", rs(`,"ext":{"events":{}}`), Expect{}, VerifierOptions{}, nil, ""},
		{"untyped logout token, nonce sent", rs(`,"jti":"l1","events":{"http://schemas.openid.net/event/backchannel-logout":{}}`), Expect{Nonce: "n"}, VerifierOptions{}, ErrNonce, "absent"},
		{"forged logout token", append(rs(`,"events":{}`)[:len(rs(`,"events":{}`))-4:len(rs(`,"events":{}`))-4], "AAAA"...), Expect{}, VerifierOptions{}, jose.ErrVerificationFailed, ""},
		// Algorithms: the caller's allow-list, then the provider's list.
		{"ES256 allowed by both", sign(t, e1, jwa.ES256, "", idp.claims("")), Expect{}, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.ES256}}, nil, ""},
		{"ES256 not allowed by the caller", sign(t, e1, jwa.ES256, "", idp.claims("")), Expect{}, VerifierOptions{}, jose.ErrAlgorithmNotAllowed, ""},
		{"PS256 not listed by the provider", sign(t, k1, jwa.PS256, "", idp.claims("")), Expect{}, VerifierOptions{Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, jwa.PS256}}, jose.ErrAlgorithmNotAllowed, "id_token_signing_alg_values_supported"},
		{"HS256 with the public key", hs256(t, idp.claims("")), Expect{}, VerifierOptions{}, jose.ErrAlgorithmNotAllowed, ""},
		{"unknown kid", sign(t, rsaKey(t, "rsa3072.pem", "k9"), jwa.RS256, "", idp.claims("")), Expect{}, VerifierOptions{}, jose.ErrKeyNotFound, ""},
		{"a JWE", []byte("eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d"), Expect{}, VerifierOptions{}, jose.ErrMalformed, ""},
		{"forged signature", append(rs("")[:len(rs(""))-4:len(rs(""))-4], "AAAA"...), Expect{}, VerifierOptions{}, jose.ErrVerificationFailed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := c.opts
			opts.ClientID = testClient
			opts.Now = func() time.Time { return testNow }
			v, err := NewIDTokenVerifier(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			id, err := v.Verify(t.Context(), c.token, c.want)
			if c.err == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if id.Issuer != iss || !id.Audience.Contains(testClient) || id.Subject == "" || id.Token == nil {
					t.Fatalf("token %+v", id)
				}
				return
			}
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.detail) {
				t.Fatalf("err %v, want %v (%q)", err, c.err, c.detail)
			}
			if errors.Is(c.err, jwt.ErrInvalidClaims) && !errors.Is(err, jwt.ErrInvalidClaims) {
				t.Fatalf("err %v does not wrap jwt.ErrInvalidClaims", err)
			}
		})
	}
	// The claims read.
	v, _ := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Now: func() time.Time { return testNow }})
	id, err := v.Verify(t.Context(), rs(fmt.Sprintf(`,"nonce":"n","azp":"my-app","auth_time":%d,"acr":"1","amr":["pwd"],"at_hash":"a","c_hash":"c","email":"a@example"`, iat)), Expect{})
	if err != nil {
		t.Fatal(err)
	}
	if id.Nonce != "n" || id.AuthorizedParty != "my-app" || id.AuthTime.Unix() != iat || id.ACR != "1" || len(id.AMR) != 1 ||
		id.AccessTokenHash != "a" || id.CodeHash != "c" || !strings.Contains(string(id.Token.Payload), "a@example") || id.Token.Header.KeyID != "k1" {
		t.Fatalf("claims %+v", id)
	}
}

func hs256(t testing.TB, claims string) []byte {
	k, err := jose.NewJWK([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	k.KeyID = "k1"
	return sign(t, k, jwa.HS256, "", claims)
}

// TestDefaultLeeway: the verifier tolerates DefaultLeeway (a minute) of
// clock skew by default, none with a negative Leeway, and a whole-second
// iat less than a second ahead with either.
func TestDefaultLeeway(t *testing.T) {
	k1 := rsaKey(t, "rsa2048.pem", "k1")
	idp := newIDP(t, k1)
	p := newTestProvider(t, idp, nil, Options{})
	iss := idp.srv.URL
	tok := func(exp, iat time.Time) []byte {
		return sign(t, k1, jwa.RS256, "", fmt.Sprintf(`{"iss":%q,"sub":"a","aud":%q,"exp":%d,"iat":%d}`, iss, testClient, exp.Unix(), iat.Unix()))
	}
	for _, c := range []struct {
		name   string
		leeway time.Duration
		now    time.Time
		token  []byte
		err    error
	}{
		{"expired within the default leeway", 0, testNow.Add(time.Minute - time.Nanosecond), tok(testNow, testNow.Add(-time.Hour)), nil},
		{"expired at the default leeway", 0, testNow.Add(time.Minute), tok(testNow, testNow.Add(-time.Hour)), jwt.ErrExpired},
		{"iat a minute ahead", 0, testNow.Add(-time.Minute), tok(testNow.Add(time.Hour), testNow), nil},
		{"iat a minute and a second ahead", 0, testNow.Add(-time.Minute - time.Second), tok(testNow.Add(time.Hour), testNow), jwt.ErrIssuedInTheFuture},
		{"no leeway, expired", -1, testNow, tok(testNow, testNow.Add(-time.Hour)), jwt.ErrExpired},
		{"no leeway, iat 300 ms ahead", -1, testNow.Add(-300 * time.Millisecond), tok(testNow.Add(time.Hour), testNow), nil},
		{"no leeway, iat 1 s ahead", -1, testNow.Add(-time.Second), tok(testNow.Add(time.Hour), testNow), jwt.ErrIssuedInTheFuture},
		{"leeway 5s", 5 * time.Second, testNow.Add(5*time.Second - time.Nanosecond), tok(testNow, testNow.Add(-time.Hour)), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := c.now
			v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Leeway: c.leeway, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.Verify(t.Context(), c.token, Expect{})
			if c.err == nil && err != nil || c.err != nil && !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
		})
	}
}

func TestNewIDTokenVerifier(t *testing.T) {
	idp := newIDP(t)
	p := newTestProvider(t, idp, nil, Options{})
	if _, err := NewIDTokenVerifier(p, VerifierOptions{}); err == nil {
		t.Error("no ClientID accepted")
	}
	if _, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: "c", Algorithms: []jwa.SignatureAlgorithm{"none"}}); err == nil {
		t.Error("alg none accepted")
	}
	// A MAC's key is the client_secret (Core §10.1), never the set's.
	for _, a := range []jwa.SignatureAlgorithm{jwa.HS256, jwa.HS384, jwa.HS512} {
		if _, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: "c", Algorithms: []jwa.SignatureAlgorithm{jwa.RS256, a}}); !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
			t.Errorf("%s accepted: %v", a, err)
		}
	}
	// Before the document is fetched, any allow-list; after, one that
	// meets the provider's.
	if _, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: "c", Algorithms: []jwa.SignatureAlgorithm{jwa.PS512}}); err != nil {
		t.Fatal(err)
	}
	if err := p.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: "c", Algorithms: []jwa.SignatureAlgorithm{jwa.PS512}}); err == nil || !strings.Contains(err.Error(), `["RS256" "ES256"]`) {
		t.Errorf("disjoint algorithms: %v", err)
	}
}

// TestRotation: the provider rotates to a new key; its first token makes
// the JWK Set fetched again, and the old key stays usable while published.
func TestRotation(t *testing.T) {
	k1, k2 := rsaKey(t, "rsa2048.pem", "k1"), rsaKey(t, "rsa3072.pem", "k2")
	idp := newIDP(t, k1)
	p := newTestProvider(t, idp, nil, Options{})
	v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(t.Context(), sign(t, k1, jwa.RS256, "", idp.claims("")), Expect{}); err != nil {
		t.Fatal(err)
	}
	idp.publish(k1, k2)
	time.Sleep(time.Millisecond) // past the (1 ns) cooldown of the set
	if _, err := v.Verify(t.Context(), sign(t, k2, jwa.RS256, "", idp.claims("")), Expect{}); err != nil {
		t.Fatalf("new key: %v", err)
	}
	if _, err := v.Verify(t.Context(), sign(t, k1, jwa.RS256, "", idp.claims("")), Expect{}); err != nil {
		t.Fatalf("old key: %v", err)
	}
	if n, d := idp.keyHits.Load(), idp.docHits.Load(); n != 2 || d != 1 {
		t.Fatalf("%d set requests, %d document requests", n, d)
	}
}

// TestVerifyHangingKeys: the JWK Set endpoint hangs; Verify returns by the
// request's deadline with an error wrapping it.
func TestVerifyHangingKeys(t *testing.T) {
	k1 := rsaKey(t, "rsa2048.pem", "k1")
	idp := newIDP(t, k1)
	idp.setDoc(func(w http.ResponseWriter, r *http.Request) { w.Write(idp.document(idp.srv.URL + "/hang")) })
	p := newTestProvider(t, idp, nil, Options{})
	v, err := NewIDTokenVerifier(p, VerifierOptions{ClientID: testClient, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := v.Verify(ctx, sign(t, k1, jwa.RS256, "", idp.claims("")), Expect{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
}

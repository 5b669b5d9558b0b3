package jwt

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// TestValidateOwnsItsMemory: the Token Validate returns (for a short
// signed JWT, made with its buffer in one allocation) shares nothing with
// the token bytes the caller passed, nor with the Token of another call:
// overwriting the input, or validating other tokens of the same and other
// headers, many times so that the header cache holds them, leaves a
// retained Token, its Header, Payload and claims, and a decoded struct as
// they were.
func TestValidateOwnsItsMemory(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{})
	s := mustSigner(t, jwa.HS256, hsKey, &jws.SignerOptions{KeyID: "k1"})
	first := typicalAccessToken()
	tok := mustSign(t, s, first)
	if len(tok) > maxBufferedToken {
		t.Fatalf("token of %d bytes: not the one-allocation case", len(tok))
	}
	for range 3 { // the header cache keeps a header seen twice: got's is a hit
		if _, err := v.Validate(mustSign(t, s, first), nil); err != nil {
			t.Fatal(err)
		}
	}
	var dst accessToken
	got, err := v.Validate(tok, &dst)
	if err != nil {
		t.Fatal(err)
	}
	payload := bytes.Clone(got.Payload)
	for i := range tok {
		tok[i] = 'A'
	}
	other := typicalAccessToken()
	other.Subject, other.Scope, other.ClientID = "user-9999", "admin", "client-99"
	for range 4 {
		if _, err := v.Validate(mustSign(t, s, other), nil); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got.Payload, payload) {
		t.Errorf("Payload changed: %s, was %s", got.Payload, payload)
	}
	if got.Header.KeyID != "k1" || got.Header.Algorithm != "HS256" {
		t.Errorf("Header changed: %+v", got.Header)
	}
	if got.Claims.Subject != first.Subject || dst.Subject != first.Subject || dst.Scope != first.Scope || dst.ClientID != first.ClientID {
		t.Errorf("claims changed: %+v, %+v", got.Claims, dst)
	}
	// Changing the retained Token changes no later result.
	for i := range got.Payload {
		got.Payload[i] = 'B'
	}
	got.Header.KeyID = "changed"
	again, err := v.Validate(mustSign(t, s, first), nil)
	if err != nil || again.Header.KeyID != "k1" || again.Claims.Subject != first.Subject {
		t.Errorf("after changing a retained Token: %v, %+v", err, again)
	}
	// Reusing a Token from Validate with ValidateInto (which decodes
	// into its buffer) rewrites none of the claims' strings read from
	// it: they are the caller's to keep.
	iss, sub, jti, aud, scope := again.Claims.Issuer, again.Claims.Subject, again.Claims.ID, again.Claims.Audience[0], dst.Scope
	for _, c := range []accessToken{other, first, other} {
		var into accessToken
		if err := v.ValidateInto(again, mustSign(t, s, c), &into); err != nil || into.Subject != c.Subject {
			t.Fatalf("ValidateInto a Token from Validate: %v, %+v", err, into)
		}
	}
	if iss != first.Issuer || sub != first.Subject || jti != first.ID || aud != first.Audience[0] || scope != first.Scope {
		t.Errorf("claims' strings changed by ValidateInto into their Token: %q %q %q %q %q", iss, sub, jti, aud, scope)
	}
}

// viaJSON embeds Claims beside a field the plan leaves to encoding/json,
// so that it is decoded by encoding/json as a whole (decodeInto).
type viaJSON struct {
	Claims
	Extra map[string]int `json:"extra"`
}

// TestValidateIntoKeepsValidateDst: the single audience of a dst that
// Validate decoded into (a *Claims, a struct with a plan, one through
// encoding/json) shares the returned Token's storage; reusing that Token
// with ValidateInto, failing or not, with or without a dst, must leave
// the first dst's audience as it was validated, not turn it into that of
// a later token.
func TestValidateIntoKeepsValidateDst(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	first := typicalAccessToken()
	later := typicalAccessToken()
	later.Audience = Audience{"https://other.example"}
	expired := later
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	for _, c := range []struct {
		name string
		dst  any
	}{
		{"*Claims", new(Claims)},
		{"plan", new(accessToken)},
		{"encoding/json", new(viaJSON)},
	} {
		tok, err := v.Validate(mustSign(t, s, first), c.dst)
		if err != nil {
			t.Fatal(err)
		}
		aud := func() Audience { return c.dst.(registered).Registered().Audience }
		if got := aud(); len(got) != 1 || got[0] != first.Audience[0] {
			t.Fatalf("%s: Validate decoded audience %q", c.name, got)
		}
		var into accessToken
		for _, d := range []any{nil, &into} {
			if err := v.ValidateInto(tok, mustSign(t, s, later), d); err != nil {
				t.Fatal(err)
			}
			if tok.Claims.Audience[0] != later.Audience[0] || d != nil && into.Audience[0] != later.Audience[0] {
				t.Fatalf("%s: ValidateInto read %q, into %q", c.name, tok.Claims.Audience, into.Audience)
			}
			if err := v.ValidateInto(tok, mustSign(t, s, expired), d); err == nil {
				t.Fatalf("%s: an expired token validated", c.name)
			}
		}
		if got := aud(); len(got) != 1 || got[0] != first.Audience[0] {
			t.Errorf("%s: the audience Validate decoded into dst is now %q, after ValidateInto of other tokens into its Token", c.name, got)
		}
	}
}

// TestValidateIntoLentAudienceConcurrent: ValidateInto never writes the
// audience storage that a Token from Validate shares with Validate's dst
// (Token.audLent), not even on error to put back the value it cleared:
// another goroutine may be reading that dst meanwhile, and under -race
// (.ci/run runs this test so) any such write is a reported data race.
func TestValidateIntoLentAudienceConcurrent(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	first := typicalAccessToken()
	later := first
	later.Audience = Audience{"https://other.example"}
	expired := later
	expired.Expiry = NewNumericDate(testNow.Add(-time.Hour))
	forged := mustSign(t, s, later)
	forged[len(forged)-1] ^= 1
	var dst Claims
	tok, err := v.Validate(mustSign(t, s, first), &dst)
	if err != nil {
		t.Fatal(err)
	}
	want := first.Audience[0]
	done := make(chan string)
	go func() {
		got := ""
		for range 100 {
			if a := dst.Audience[0]; a != want {
				got = a
			}
			runtime.Gosched()
		}
		done <- got
	}()
	okTok, expTok := mustSign(t, s, later), mustSign(t, s, expired)
	var into Claims
	for range 100 {
		if v.ValidateInto(tok, expTok, nil) == nil || v.ValidateInto(tok, forged, &into) == nil {
			t.Fatal("an expired or forged token validated")
		}
		if err := v.ValidateInto(tok, okTok, &into); err != nil {
			t.Fatal(err)
		}
		runtime.Gosched()
	}
	if got := <-done; got != "" {
		t.Errorf("Validate's dst read audience %q while its Token was reused", got)
	}
}

// twoClaims: encoding/json fills the Claims that HiddenInner embeds (two
// levels down), while Registered is the Registerer's (one level down),
// another Claims.
type twoClaims struct {
	Registerer
	HiddenInner
	Scope string `json:"scope"`
}

// TestValidateIntoDstWhoseRegisteredIsElsewhere: the Claims ValidateInto
// writes into dst get their own single audience, even when dst's
// Registered method returns other Claims than those: before, the copy
// went by Registered, and the Claims written kept the Token's storage,
// which the next call overwrote.
func TestValidateIntoDstWhoseRegisteredIsElsewhere(t *testing.T) {
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	first := typicalAccessToken()
	later := first
	later.Audience = Audience{"https://other.example"}
	var tok Token
	dst := twoClaims{Registerer: new(Claims)}
	if err := v.ValidateInto(&tok, mustSign(t, s, first), &dst); err != nil {
		t.Fatal(err)
	}
	if got := dst.HiddenInner.Audience; len(got) != 1 || got[0] != first.Audience[0] {
		t.Fatalf("decoded audience %q", got)
	}
	if err := v.ValidateInto(&tok, mustSign(t, s, later), nil); err != nil {
		t.Fatal(err)
	}
	if got := dst.HiddenInner.Audience[0]; got != first.Audience[0] {
		t.Errorf("dst's audience is now %q, after a later ValidateInto into the same Token", got)
	}
}

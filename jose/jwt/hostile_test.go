package jwt

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
)

// TestHostileClaims: a signed (so authenticated) claims set that is huge,
// deep, wide or has a giant audience costs a bounded amount and is refused
// with jose.ErrLimitExceeded where a limit applies. Worst case of Validate:
// the jws (or jwe) worst case, then one scan of at most MaxTokenSize bytes
// of claims (a second one for a struct of more than 16 private fields);
// memory: the decoded payload plus one copy of it as the claims' strings.
func TestHostileClaims(t *testing.T) {
	exp := fmt.Sprint(testNow.Unix() + 60)
	v := hsValidator(t, ValidatorOptions{AnyAudience: true})
	for name, payload := range map[string]string{
		"257 audiences":     `{"exp":` + exp + `,"aud":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 257), ",") + `]}`,
		"nesting 17 deep":   `{"exp":` + exp + `,"x":` + strings.Repeat(`[`, 16) + strings.Repeat(`]`, 16) + `}`,
		"300 members":       `{"exp":` + exp + manyMembers(300) + `}`,
		"300 nested member": `{"exp":` + exp + `,"x":{"y":0` + manyMembers(300) + `}}`,
	} {
		_, err := v.Validate(signRaw(t, []byte(payload)), nil)
		if !errors.Is(err, jose.ErrLimitExceeded) || !errors.Is(err, ErrInvalidClaims) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// 256 audiences and depth 16 are within the defaults; raised limits
	// accept more.
	ok := `{"exp":` + exp + `,"aud":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 256), ",") + `],"x":` + strings.Repeat(`[`, 15) + strings.Repeat(`]`, 15) + `}`
	if _, err := v.Validate(signRaw(t, []byte(ok)), nil); err != nil {
		t.Errorf("at the limits: %v", err)
	}
	wide := mustValidator(t, ValidatorOptions{Verifier: v.ver, AnyAudience: true, MaxClaims: 400, MaxDepth: 20})
	if _, err := wide.Validate(signRaw(t, []byte(`{"exp":`+exp+manyMembers(300)+`}`)), nil); err != nil {
		t.Errorf("MaxClaims 400: %v", err)
	}

	// A claims set of 600 KB (one giant private claim) costs its payload
	// and one string copy, nothing proportional to anything else.
	big := signRaw(t, []byte(`{"exp":`+exp+`,"sub":"s","blob":"`+strings.Repeat("x", 600<<10)+`"}`))
	var tok *Token
	var err error
	n := vectortest.BytesAllocated(func() { tok, err = v.Validate(big, nil) })
	if err != nil || tok.Claims.Subject != "s" {
		t.Fatal(err)
	}
	if limit := uint64(3 * len(big)); n > limit {
		t.Errorf("600 KB claims: %d bytes allocated, want at most %d", n, limit)
	}
	var m map[string]json.RawMessage
	if _, err := v.Validate(big, &m); err != nil || len(m["blob"]) != 600<<10+2 {
		t.Fatalf("into a map: %v", err)
	}
}

func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `,"m%d":%d`, i, i)
	}
	return b.String()
}

// TestHostileValidateUnsigned: tokens a Validator must refuse before
// reading any claim, whatever they claim.
func TestHostileValidateUnsigned(t *testing.T) {
	v := hsValidator(t, ValidatorOptions{})
	claims := jose.Base64URLEncode(typicalClaims().appendJSONValue())
	for name, tok := range map[string]string{
		"alg none":          jose.Base64URLEncode([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + claims + ".",
		"alg None":          jose.Base64URLEncode([]byte(`{"alg":"None"}`)) + "." + claims + ".",
		"no signature":      jose.Base64URLEncode([]byte(`{"alg":"HS256"}`)) + "." + claims + ".",
		"RS256 not allowed": jose.Base64URLEncode([]byte(`{"alg":"RS256"}`)) + "." + claims + ".AAAA",
		"empty":             "",
		"dots":              strings.Repeat(".", 10000),
		"four segments":     "a.b.c.d",
	} {
		_, err := v.Validate([]byte(tok), nil)
		if err == nil || errors.Is(err, ErrInvalidClaims) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

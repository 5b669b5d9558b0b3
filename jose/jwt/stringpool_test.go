package jwt

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/josebench/josebench/jose/jwa"
)

// TestStringPoolShapes checks the strings Validate makes from its one
// copy of the claims text (stringPool) against encoding/json's decoding of
// the same claims, for registered claims and struct fields together: more
// than eight strings, escaped or empty values, an "aud" array, a string
// slice field, null and absent fields.
func TestStringPoolShapes(t *testing.T) {
	type wide struct {
		Claims
		A string   `json:"a"`
		B string   `json:"b"`
		C string   `json:"c"`
		D string   `json:"d"`
		E string   `json:"e"`
		F string   `json:"f"`
		L []string `json:"l"`
		N int      `json:"n"`
	}
	s := mustSigner(t, jwa.HS256, hsKey, nil)
	v := hsValidator(t, ValidatorOptions{Now: fixedNow})
	const reg = `"iss":"https://issuer.example","sub":"user-1234","aud":"https://api.example","exp":1796130000,"jti":"id-1"`
	for _, claims := range []string{
		`{` + reg + `}`,
		`{` + reg + `,"a":"x","b":"yy","c":"zzz","d":"w"}`, // eight set aside
		`{` + reg + `,"a":"x","b":"yy","c":"zzz","d":"w","e":"v","f":"uuuu"}`,
		`{` + reg + `,"a":"x\u00e9\n","b":"","c":"\"q\"","d":null,"e":"é"}`,
		`{"iss":"a\\b","sub":"","aud":"https://api.example","exp":1796130000,"a":"x"}`,
		`{"iss":"i","aud":["https://api.example","other"],"exp":1796130000,"a":"x","b":"y"}`,
		`{` + reg + `,"a":"x","l":["p","q\u0041",null],"b":"y"}`,
		`{` + reg + `,"l":[],"n":7,"f":"last"}`,
		`{"a":"before","aud":"https://api.example","exp":1796130000,"f":"after","sub":"s"}`,
	} {
		var got, want wide
		if _, err := v.Validate(mustSign(t, s, json.RawMessage(claims)), &got); err != nil {
			t.Fatalf("%s: %v", claims, err)
		}
		if err := json.Unmarshal([]byte(claims), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", claims, got, want)
		}
		// Into *Claims and a reused Token: the registered claims alone.
		var c Claims
		var tok Token
		if err := v.ValidateInto(&tok, mustSign(t, s, json.RawMessage(claims)), &c); err != nil {
			t.Fatal(err)
		}
		if !sameClaims(c, want.Claims) || !sameClaims(tok.Claims, want.Claims) {
			t.Errorf("%s: claims %+v and %+v, want %+v", claims, c, tok.Claims, want.Claims)
		}
	}
}

package jose_test

import (
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose"
)

// ExampleParseHeader reads a JOSE Header strictly and writes it back in the
// canonical member order.
func ExampleParseHeader() {
	h, err := jose.ParseHeader([]byte(`{"typ":"JWT", "alg":"HS256", "kid":"key-1", "exp":1363284000}`), jose.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Algorithm, h.KeyID, h.Names())
	out, _ := h.AppendJSON(nil)
	fmt.Println(string(out))

	_, err = jose.ParseHeader([]byte(`{"alg":"HS256","alg":"none"}`), jose.Limits{})
	fmt.Println(errors.Is(err, jose.ErrMalformed))
	// Output:
	// HS256 key-1 [alg kid typ exp]
	// {"alg":"HS256","kid":"key-1","typ":"JWT","exp":1363284000}
	// true
}

// ExampleMergeJOSEHeader joins the protected and unprotected headers of a
// JWS or JWE JSON serialization, refusing a member present in both, and
// says which members are unprotected.
func ExampleMergeJOSEHeader() {
	protected, _ := jose.ParseHeader([]byte(`{"alg":"ES256"}`), jose.Limits{})
	unprotected, _ := jose.ParseHeader([]byte(`{"kid":"e9bc097a"}`), jose.Limits{})
	h, err := jose.MergeJOSEHeader(protected, unprotected)
	fmt.Println(h.Algorithm, h.KeyID, err)
	fmt.Println(h.Unprotected("alg"), h.Unprotected("kid"))

	_, err = jose.MergeJOSEHeader(protected, &jose.Header{Algorithm: "none"})
	fmt.Println(err)
	// Output:
	// ES256 e9bc097a <nil>
	// false true
	// jose: header member "alg" in more than one header: malformed input
}

package jose_test

import (
	"crypto"
	"fmt"
	"log"

	"github.com/josebench/josebench/jose"
)

// The JWK Set of RFC 7517 Appendix A.1, with an entry of a key type this
// module does not support.
const exampleSet = `{"keys":[
  {"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
   "y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","use":"enc","kid":"1"},
  {"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
   "e":"AQAB","alg":"RS256","kid":"2011-04-29"},
  {"kty":"OKP","crv":"Ed448","x":"X9dEm1m0Yf0s54fsYWrUah2hNCSFpw4fig6nXYDpZ3jt8SR2m0bHBhvWeD3x5Q9s0foavq_oJWGA","kid":"ed448"}
]}`

// Parse a JWK Set and find the key a token names by its kid.
func ExampleParseSet() {
	set, err := jose.ParseSet([]byte(exampleSet))
	if err != nil {
		log.Fatal(err)
	}
	for _, k := range set.LookupKeyID("2011-04-29") {
		if err := k.Permits("RS256", jose.OpVerify); err != nil {
			continue
		}
		fmt.Println("found:", k.KeyType(), k.Algorithm, k.KeyID)
	}
	// The Ed448 entry is kept, but never selected.
	fmt.Println("entries:", len(set.Keys), "selected for ed448:", len(set.LookupKeyID("ed448")))
	fmt.Println(set.Keys[2].Err())
	// Output:
	// found: RSA RS256 2011-04-29
	// entries: 3 selected for ed448: 0
	// jose: jwk: member "crv": unsupported curve "Ed448": unsupported algorithm
}

// Compute the RFC 7638 thumbprint of a key (RFC 7638 §3.1) and its RFC 9278
// URI.
func ExampleJWK_Thumbprint() {
	set, err := jose.ParseSet([]byte(exampleSet))
	if err != nil {
		log.Fatal(err)
	}
	k := set.LookupKeyID("2011-04-29")[0]
	tp, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(jose.Base64URLEncode(tp))
	uri, err := k.ThumbprintURI(crypto.SHA256)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(uri)
	// Output:
	// NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs
	// urn:ietf:params:oauth:jwk-thumbprint:sha-256:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs
}

// Parse one key and publish its public part.
func ExampleJWK_Public() {
	k, err := jose.ParseKey([]byte(`{"kty":"OKP","crv":"Ed25519",
		"d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
		"x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
		"kid":"ed","key_ops":["sign"]}`))
	if err != nil {
		log.Fatal(err)
	}
	pub, err := k.Public().MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(k.IsPrivate(), string(pub))
	// Output:
	// true {"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"ed","key_ops":["verify"]}
}

// Make a JWK Set of two keys, to verify tokens with or to publish.
func ExampleNewSet() {
	k1, err := jose.GenerateEC(jose.CurveP256)
	if err != nil {
		log.Fatal(err)
	}
	k1.KeyID, k1.Algorithm = "2026-12", "ES256"
	k2, err := jose.GenerateOKP(jose.CurveEd25519)
	if err != nil {
		log.Fatal(err)
	}
	k2.KeyID, k2.Algorithm = "2027-01", "EdDSA"
	set, err := jose.NewSet(k1.Public(), k2.Public())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(set.Keys), set.LookupKeyID("2027-01")[0].KeyType())
	// A private key beside the public ones is refused.
	_, err = jose.NewSet(k1.Public(), k2)
	fmt.Println(err)
	// Output:
	// 2 OKP
	// jose: NewSet: the keys mix secret or private keys with public keys: invalid key for algorithm
}

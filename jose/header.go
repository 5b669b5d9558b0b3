package jose

import "encoding/json"

// Header is a JOSE Header (RFC 7515 §4, RFC 7516 §4): the registered members
// that JWS and JWE read, typed, and every other member kept as raw JSON.
//
// Binary members (apu, apv, iv, tag, p2s) hold decoded bytes; they are
// base64url-encoded again by [Header.AppendJSON].
type Header struct {
	Algorithm   string   // "alg" (RFC 7515 §4.1.1, RFC 7516 §4.1.1)
	Encryption  string   // "enc" (RFC 7516 §4.1.2)
	Compression string   // "zip" (RFC 7516 §4.1.3)
	KeyID       string   // "kid" (RFC 7515 §4.1.4)
	Type        string   // "typ" (RFC 7515 §4.1.9)
	ContentType string   // "cty" (RFC 7515 §4.1.10)
	Critical    []string // "crit" (RFC 7515 §4.1.11)
	// B64 is the "b64" member of RFC 7797 §3; nil when absent (which means
	// true).
	B64 *bool

	// JWK, JKU, X5U and X5C are carried, never trusted: no verifier or
	// decrypter in this module takes its key from them or fetches anything.
	JWK *JWK     // "jwk" (RFC 7515 §4.1.3)
	JKU string   // "jku" (RFC 7515 §4.1.2)
	X5U string   // "x5u" (RFC 7515 §4.1.5)
	X5C []string // "x5c" (RFC 7515 §4.1.6), standard base64 DER certificates
	X5T string   // "x5t" (RFC 7515 §4.1.7), as encoded
	// X5TS256 is "x5t#S256" (RFC 7515 §4.1.8), as encoded.
	X5TS256 string

	EPK *JWK   // "epk" (RFC 7518 §4.6.1.1)
	APU []byte // "apu" (RFC 7518 §4.6.1.2), decoded
	APV []byte // "apv" (RFC 7518 §4.6.1.3), decoded
	IV  []byte // "iv" (RFC 7518 §4.7.1.1), decoded
	Tag []byte // "tag" (RFC 7518 §4.7.1.2), decoded
	P2S []byte // "p2s" (RFC 7518 §4.8.1.1), decoded
	P2C int    // "p2c" (RFC 7518 §4.8.1.2); 0 when absent

	// Extra holds every member not listed above, by name, as raw JSON.
	Extra map[string]json.RawMessage
}

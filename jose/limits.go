package jose

// Default limits. They bound what a single token, key or key set can make
// the loader do; every one is checked before the work it bounds.
const (
	DefaultMaxTokenSize        = 1 << 20   // bytes of a compact or JSON token
	DefaultMaxHeaderSize       = 8 << 10   // bytes of one decoded JOSE header
	DefaultMaxHeaderMembers    = 64        // members of one JOSE header
	DefaultMaxJSONDepth        = 16        // nesting of JSON values in a header or key
	DefaultMaxSignatures       = 16        // signatures in one general JWS JSON
	DefaultMaxRecipients       = 16        // recipients in one general JWE JSON
	DefaultMaxDecompressedSize = 1 << 20   // bytes of "zip":"DEF" plaintext after inflation
	DefaultMaxCompressedSize   = 16 << 10  // bytes of "zip":"DEF" ciphertext, before decryption and inflation
	DefaultPBES2MinCount       = 1000      // smallest accepted p2c (RFC 7518 §4.8.1.2)
	DefaultPBES2MaxCount       = 10000     // largest accepted p2c, and the PBES2 iterations of one token over all its recipients and keys
	DefaultMaxSetKeys          = 1000      // keys in one JWK Set
	DefaultMaxKeySize          = 128 << 10 // bytes of one JWK, or of one entry of a JWK Set
	DefaultMaxSetSize          = 1 << 20   // bytes of one JWK Set
	DefaultMaxKeyAttempts      = 4         // signature verifications or key decryptions for one token
	DefaultMaxKeyLookups       = 4         // calls of a key function (KeyFunc, KeyFuncContext) for one token
)

// Limits bounds the resources spent on one untrusted input. A zero field
// means the default above; a negative field is a caller bug and is treated
// as the default too. Use [Limits.WithDefaults] to read the values in force.
type Limits struct {
	MaxTokenSize        int // bytes of the whole token (DefaultMaxTokenSize)
	MaxHeaderSize       int // bytes of one decoded header (DefaultMaxHeaderSize)
	MaxHeaderMembers    int // members in one header (DefaultMaxHeaderMembers)
	MaxJSONDepth        int // nesting depth of JSON values (DefaultMaxJSONDepth)
	MaxSignatures       int // signatures in a JWS JSON (DefaultMaxSignatures)
	MaxRecipients       int // recipients in a JWE JSON (DefaultMaxRecipients)
	MaxDecompressedSize int // bytes of inflated plaintext (DefaultMaxDecompressedSize)
	// MaxCompressedSize bounds the DEFLATE content of a "zip":"DEF" JWE
	// (RFC 7516 §4.1.3): its JWE Ciphertext, less the HPKE tag that ends
	// it under HPKE Integrated Encryption, checked before any key work
	// (DefaultMaxCompressedSize,
	// 16 KiB: a JWT's claims compress to far less). MaxDecompressedSize
	// bounds the output of inflation, not its work: DEFLATE content of
	// many empty dynamic Huffman blocks inflates to nothing while
	// compress/flate builds each block's tables, 0.23 to 0.55 s and 528 MB
	// of allocation for a token of 1 MiB (Go 1.26 and 1.27,
	// jwe.BenchmarkDeflateSmallBlocks), 5.5 to 5.8 ms and 10 MB within
	// 16 KiB (2026-12-04, load 1.5), against 33 to 38 us for stored
	// content of that size. A longer compressed ciphertext is refused with
	// ErrLimitExceeded. Raise it for tokens of large compressed documents,
	// knowing that cost.
	MaxCompressedSize int
	PBES2MinCount     int // smallest accepted p2c (DefaultPBES2MinCount)
	PBES2MaxCount     int // largest accepted p2c, and one token's total PBES2 iterations (DefaultPBES2MaxCount)
	MaxSetKeys        int // keys in a JWK Set (DefaultMaxSetKeys)
	// MaxKeySize bounds the bytes of one JWK (RFC 7517 §4), as read by
	// ParseKeyWithLimits, and of each entry of a JWK Set
	// (DefaultMaxKeySize, 128 KiB: room for the largest key, a 16384-bit
	// RSA private key of 12 KB, beside an "x5c" (RFC 7517 §4.7) of
	// MaxCertificates certificates of 2.7 KB each, where the CA
	// certificates of a common trust store are 0.4 to 2 KB; an RSA-4096
	// private key with 32 certificates of 2.1 KB is 94 KB). A longer key
	// is refused with ErrLimitExceeded before any of it is parsed; a longer
	// entry of a set is kept as an unusable entry, no key built from it
	// (its kty, kid, use and alg are read, for display).
	MaxKeySize int
	// MaxSetSize bounds the bytes of one JWK Set (RFC 7517 §5), as read by
	// ParseSetWithLimits and ParsePublicSetWithLimits (DefaultMaxSetSize,
	// 1 MiB: a set of DefaultMaxSetKeys RSA-4096 public keys with kty,
	// use, alg, a 43-byte kid, n and e is 0.79 MB). A longer set is
	// refused with ErrLimitExceeded before any of it is parsed, so that
	// the key validations a set can cost stay bounded by its size.
	MaxSetSize int
	// MaxKeyAttempts bounds the signature verifications (jws) or key
	// decryptions (jwe) one token may cost, over all its signatures or
	// recipients and all candidate keys (DefaultMaxKeyAttempts). An
	// attempt past it is refused with ErrLimitExceeded before its
	// cryptography. Raise it to verify every signature of tokens with many
	// signatures, or to find a key past the fourth recipient of its type
	// (with a key function, raise MaxKeyLookups too).
	MaxKeyAttempts int
	// MaxKeyLookups bounds the calls of a key function
	// (jws.VerifyOptions.KeyFunc or KeyFuncContext, and
	// jwe.DecryptOptions likewise) one token may cost, over all its
	// signatures or recipients, whether they find a key or fail
	// (DefaultMaxKeyLookups): a key function may be costly (the one of
	// jws.NewX5CKeyFunc parses and verifies a certificate chain on each
	// call), and a token chooses how many signatures or recipients ask for
	// one. A call past it is not made; that signature or recipient is
	// refused with ErrLimitExceeded.
	MaxKeyLookups int
}

// WithDefaults returns l with every zero or negative field set to its
// default.
func (l Limits) WithDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxTokenSize, DefaultMaxTokenSize)
	def(&l.MaxHeaderSize, DefaultMaxHeaderSize)
	def(&l.MaxHeaderMembers, DefaultMaxHeaderMembers)
	def(&l.MaxJSONDepth, DefaultMaxJSONDepth)
	def(&l.MaxSignatures, DefaultMaxSignatures)
	def(&l.MaxRecipients, DefaultMaxRecipients)
	def(&l.MaxDecompressedSize, DefaultMaxDecompressedSize)
	def(&l.MaxCompressedSize, DefaultMaxCompressedSize)
	def(&l.PBES2MinCount, DefaultPBES2MinCount)
	def(&l.PBES2MaxCount, DefaultPBES2MaxCount)
	def(&l.MaxSetKeys, DefaultMaxSetKeys)
	def(&l.MaxKeyAttempts, DefaultMaxKeyAttempts)
	def(&l.MaxKeyLookups, DefaultMaxKeyLookups)
	def(&l.MaxKeySize, DefaultMaxKeySize)
	def(&l.MaxSetSize, DefaultMaxSetSize)
	return l
}

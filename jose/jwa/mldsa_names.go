package jwa

// ML-DSA signature algorithms (RFC 9964 §2, FIPS 204). They are implemented
// when the module is built with Go 1.27 or later, whose crypto/mldsa they
// use; with an older toolchain [NewSigner] and [NewVerifier] refuse them
// with an error wrapping [ErrUnsupportedAlgorithm], and
// [SignatureAlgorithms] does not list them.
//
// A signature is ML-DSA.Sign of the JWS Signing Input itself (pure ML-DSA,
// with an empty context string; RFC 9964 §2), not of a digest of it.
const (
	MLDSA44 SignatureAlgorithm = "ML-DSA-44" // ML-DSA-44 (RFC 9964 §2, FIPS 204 §4, security category 2)
	MLDSA65 SignatureAlgorithm = "ML-DSA-65" // ML-DSA-65 (RFC 9964 §2, FIPS 204 §4, security category 3)
	MLDSA87 SignatureAlgorithm = "ML-DSA-87" // ML-DSA-87 (RFC 9964 §2, FIPS 204 §4, security category 5)
)

// MLDSASupported reports whether this build implements the ML-DSA
// algorithms: true when built with Go 1.27 or later.
func MLDSASupported() bool { return len(mldsaAlgorithms) > 0 }

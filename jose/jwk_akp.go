package jose

import "github.com/josebench/josebench/internal/untrusted"

// KeyTypeAKP is the "kty" of Algorithm Key Pair keys (RFC 9964 §4): a
// public key "pub" and, in a private JWK, a private key "priv", whose
// algorithm is given by the required "alg" member. This module supports AKP
// keys for ML-DSA-44, ML-DSA-65 and ML-DSA-87 when built with Go 1.27 or
// later: "pub" is the FIPS 204 encoded public key and "priv" the 32-byte
// seed it is derived from (RFC 9964 §4, FIPS 204 §5.1). The Go key of such
// a JWK is an *mldsa.PublicKey or *mldsa.PrivateKey. Before Go 1.27, AKP
// keys are refused with [ErrUnsupportedAlgorithm], and a JWK Set keeps them
// as unusable entries.
const KeyTypeAKP = "AKP"

// akpSeedSize is the size of the "priv" of an ML-DSA AKP key: the seed ξ of
// FIPS 204 §5.1 (RFC 9964 §4).
const akpSeedSize = 32

// akpPublicKeySize returns the size of the "pub" of an AKP key for alg, and
// 0 if this module does not know alg as an AKP algorithm. It does not depend
// on the toolchain, so the cheap checks are the same in every build.
func akpPublicKeySize(alg string) int {
	switch alg {
	case "ML-DSA-44":
		return 1312
	case "ML-DSA-65":
		return 1952
	case "ML-DSA-87":
		return 2592
	}
	return 0
}

// generateAKP generates an AKP private key for alg ([GenerateAKP]). A
// name that is no AKP algorithm is refused here, the same with every
// toolchain, before akpGenerate makes the key or, before Go 1.27, says
// which release ML-DSA needs.
func generateAKP(alg string) (any, error) {
	if akpPublicKeySize(alg) == 0 {
		return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: AKP algorithm %s: want ML-DSA-44, ML-DSA-65 or ML-DSA-87", untrusted.Quote(alg))
	}
	return akpGenerate(alg)
}

// akpFromParams builds an AKP key (RFC 9964 §4) for alg from its decoded
// members. Everything cheap is checked first, before any key is built: alg
// is present and known, pub is present and of alg's size, priv (if present)
// is a 32-byte seed.
func akpFromParams(alg string, kp *keyParams) (any, error) {
	if alg == "" {
		return nil, jwkErrorf(ErrMalformed, "missing member \"alg\": AKP keys must name their algorithm (RFC 9964 §4)")
	}
	want := akpPublicKeySize(alg)
	if want == 0 {
		return nil, jwkErrorf(ErrUnsupportedAlgorithm, "unsupported AKP algorithm %s", untrusted.Quote(alg))
	}
	if kp.pub == nil {
		return nil, jwkErrorf(ErrMalformed, "missing member \"pub\"")
	}
	if len(kp.pub) != want {
		return nil, jwkErrorf(ErrInvalidKey, "member \"pub\": %d bytes, want %d for %s", len(kp.pub), want, alg)
	}
	if kp.priv != nil && len(kp.priv) != akpSeedSize {
		return nil, jwkErrorf(ErrInvalidKey, "member \"priv\": %d bytes, want the %d-byte seed", len(kp.priv), akpSeedSize)
	}
	return akpBuild(alg, kp.pub, kp.priv)
}

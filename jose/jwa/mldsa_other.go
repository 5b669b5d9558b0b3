//go:build !go1.27

package jwa

// mldsaAlgorithms is empty: crypto/mldsa needs Go 1.27.
var mldsaAlgorithms []SignatureAlgorithm

// newMLDSASigner refuses the ML-DSA algorithms, which this build (older than
// Go 1.27, without crypto/mldsa) does not implement.
func newMLDSASigner(alg SignatureAlgorithm, _ any) (Signer, error) {
	return nil, sigUnsupportedError(alg)
}

// newMLDSAVerifier refuses the ML-DSA algorithms, as newMLDSASigner does.
func newMLDSAVerifier(alg SignatureAlgorithm, _ any) (Verifier, error) {
	return nil, sigUnsupportedError(alg)
}

// mldsaNilKey reports false: there are no ML-DSA key types before Go 1.27.
func mldsaNilKey(any) bool { return false }

// mldsaFitsKey reports false: there are no ML-DSA keys before Go 1.27.
func mldsaFitsKey(SignatureAlgorithm, any) bool { return false }

// mldsaIsPublic reports false: there are no ML-DSA key types before Go 1.27.
func mldsaIsPublic(any) bool { return false }

// mldsaDescribe knows no ML-DSA key before Go 1.27.
func mldsaDescribe(any) (string, bool) { return "", false }

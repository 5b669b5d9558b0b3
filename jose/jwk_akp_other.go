//go:build !go1.27

package jose

import (
	"crypto"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwa"
)

// akpBuild refuses AKP keys: ML-DSA needs crypto/mldsa (Go 1.27).
func akpBuild(alg string, _, _ []byte) (any, error) {
	return nil, jwkErrorf(ErrUnsupportedAlgorithm, "AKP key for %s %s", alg, jwa.SignatureAlgorithm(alg).UnsupportedReason())
}

// The hooks below know no AKP key before Go 1.27.

func akpKeyType(any) string                { return "" }
func akpAlgorithm(any) string              { return "" }
func akpPublicKey(any) crypto.PublicKey    { return nil }
func akpIsPrivate(any) bool                { return false }
func akpNewJWK(any) (*JWK, bool, error)    { return nil, false, nil }
func (w *jwkWriter) akp(any) (bool, error) { return false, nil }

// akpGenerate refuses alg, an ML-DSA name (generateAKP checked it), with
// the Go release ML-DSA needs.
func akpGenerate(alg string) (any, error) {
	return nil, keyErrorf(ErrUnsupportedAlgorithm, "generate: AKP algorithm %s %s", untrusted.Quote(alg), jwa.SignatureAlgorithm(alg).UnsupportedReason())
}

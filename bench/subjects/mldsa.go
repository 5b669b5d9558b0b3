//go:build go1.27

package subjects

import (
	"crypto"

	"github.com/josebench/josebench/bench/keys"
)

// mldsaKeys returns the fixed ML-DSA key pair of alg, and ok false if alg
// is not an ML-DSA algorithm.
func mldsaKeys(alg string) (priv, pub any, ok bool, err error) {
	switch alg {
	case "ML-DSA-44", "ML-DSA-65", "ML-DSA-87":
	default:
		return nil, nil, false, nil
	}
	k, err := cached(alg, func() (any, error) { return keys.MLDSA(alg) })
	if err != nil {
		return nil, nil, true, err
	}
	return k, k.(interface{ Public() crypto.PublicKey }).Public(), true, nil
}

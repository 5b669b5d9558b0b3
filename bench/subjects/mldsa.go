//go:build go1.27

package subjects

import (
	"crypto"

	"github.com/josebench/josebench/bench/keys"
)

// mldsaKeys returns the fixed ML-DSA key pair of alg (or the other one),
// and ok false if alg is not an ML-DSA algorithm.
func mldsaKeys(alg string, other bool) (priv, pub any, ok bool, err error) {
	switch alg {
	case "ML-DSA-44", "ML-DSA-65", "ML-DSA-87":
	default:
		return nil, nil, false, nil
	}
	k, err := cached(prefix(other)+alg, func() (any, error) {
		if other {
			return keys.OtherMLDSA(alg)
		}
		return keys.MLDSA(alg)
	})
	if err != nil {
		return nil, nil, true, err
	}
	return k, k.(interface{ Public() crypto.PublicKey }).Public(), true, nil
}

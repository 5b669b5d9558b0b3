// Package cnf reads the "cnf" (confirmation) claim of a token's validated
// claims (RFC 7800 §3.1), for jose/dpop and jose/bearer: one reading of
// it, so that a token one of them finds bound the other does too.
package cnf

import (
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Claim is what a token's "cnf" claim holds.
type Claim struct {
	// Present reports whether the claims have a "cnf".
	Present bool
	// JKT is its "jkt" member, the thumbprint of a DPoP key (RFC 9449
	// §6.1), "" when it has none.
	JKT string
	// Other names its first member other than "jkt": the name an RFC
	// gives it (RFC 7800 §3.2 to §3.5, RFC 8705 §3.1), or "a member" for
	// any other name, so that no byte of a token reaches an error
	// message; "" when it has none.
	Other string
}

// names are the "cnf" members the RFCs define, besides "jkt".
var names = []string{"jwk", "jwe", "kid", "jku", "x5t#S256"}

// Read reads the "cnf" claim of claims, which a jwt Validator accepted.
// A "cnf" that is not an object, has no member, or has a "jkt" that is
// not a non-empty string is refused with an error wrapping
// jose.ErrMalformed, its text without a package name (the caller's goes
// before it). The claims are read within no limit of depth or members
// beyond their length: those of the Validator (jwt.ValidatorOptions
// MaxDepth, MaxClaims) already held, and may be above jsonx's defaults.
func Read(claims []byte) (Claim, error) {
	var c Claim
	lim := jsonx.Limits{MaxDepth: len(claims) + 1, MaxMembers: len(claims) + 1}
	err := jsonx.ScanObject(claims, lim, func(name, value []byte) error {
		if string(name) != "cnf" {
			return nil
		}
		c.Present = true
		if jsonx.KindOf(value) != jsonx.KindObject {
			return fmt.Errorf("claim \"cnf\" is not an object: %w", jose.ErrMalformed)
		}
		members := 0
		err := jsonx.ScanObject(value, lim, func(name, value []byte) error {
			members++
			if string(name) == "jkt" {
				s, err := jsonx.String(value)
				if err != nil || s == "" {
					return fmt.Errorf("claim \"cnf\" member \"jkt\" is not a non-empty string: %w", jose.ErrMalformed)
				}
				c.JKT = s
				return nil
			}
			if c.Other == "" {
				c.Other = "a member"
				for _, n := range names {
					if string(name) == n {
						c.Other = `member "` + n + `"`
						break
					}
				}
			}
			return nil
		})
		if err == nil && members == 0 {
			err = fmt.Errorf("claim \"cnf\" is empty: %w", jose.ErrMalformed)
		}
		return err
	})
	if err != nil {
		if !errors.Is(err, jose.ErrMalformed) {
			err = fmt.Errorf("access token claims: %w: %w", err, jose.ErrMalformed)
		}
		return Claim{}, err
	}
	return c, nil
}

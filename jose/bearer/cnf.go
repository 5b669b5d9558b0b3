package bearer

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// confirmationNames are the "cnf" members of the RFCs (RFC 7800 §3.2 to
// §3.5, RFC 8705 §3.1, RFC 9449 §6.1), named in an error when met; a
// member of another name is "a member" there, so that no byte of a token
// reaches an error message.
var confirmationNames = []string{"jwk", "jwe", "kid", "jku", "x5t#S256", "jkt"}

// mayHaveCnf reports whether the claims of a validated token may hold a
// "cnf" claim: they hold "cnf", or a "\u" escape, the only one that can
// spell a letter of it (JSON's "\n" and "\f" are control characters, RFC
// 8259 §7). The claims of most tokens are then never scanned, those of an
// issuer that escapes "/" as "\/" included.
func mayHaveCnf(claims []byte) bool {
	return bytes.Contains(claims, []byte("cnf")) || bytes.Contains(claims, []byte(`\u`))
}

// confirmation reads the "cnf" claim (RFC 7800 §3.1) of a validated
// token's claims: jkt is its "jkt" (RFC 9449 §6.1), "" when it has none;
// unchecked is not nil when it has a member the Middleware cannot check
// (every member but "jkt", and "jkt" too when dpopOn is false), and says
// which. A "cnf" that is not an object, is empty, or has a "jkt" that is
// not a non-empty string is an error: such a token is never read as a
// bearer token.
//
// RFC 7800 §3.1 says to ignore the members not understood; a resource
// server that does so would accept, as a bearer token, a token bound to a
// client certificate (RFC 8705) by whoever holds it, so the Middleware
// refuses them instead.
//
// The claims were validated by the Validator within its own limits
// (jwt.ValidatorOptions.MaxDepth and MaxClaims, which may be above jsonx's
// defaults): the scan's limits are ones no text of that length exceeds, so
// that it never refuses claims the Validator accepted, and its work stays
// bounded by what the Validator allowed.
func confirmation(claims []byte, dpopOn bool) (jkt string, unchecked error, err error) {
	lim := jsonx.Limits{MaxDepth: len(claims) + 1, MaxMembers: len(claims) + 1}
	err = jsonx.ScanObject(claims, lim, func(name, value []byte) error {
		if string(name) != "cnf" {
			return nil
		}
		if jsonx.KindOf(value) != jsonx.KindObject {
			return fmt.Errorf("bearer: claim \"cnf\" is not an object: %w", jose.ErrMalformed)
		}
		members := 0
		err := jsonx.ScanObject(value, lim, func(name, value []byte) error {
			members++
			if string(name) == "jkt" && dpopOn {
				s, err := jsonx.String(value)
				if err != nil || s == "" {
					return fmt.Errorf("bearer: claim \"cnf\" member \"jkt\" is not a non-empty string: %w", jose.ErrMalformed)
				}
				jkt = s
				return nil
			}
			if unchecked == nil {
				what := "a member"
				for _, n := range confirmationNames {
					if string(name) == n {
						what = "member " + `"` + n + `"`
						break
					}
				}
				unchecked = errors.New("bearer: claim \"cnf\" has " + what + ", a confirmation method the Middleware does not check")
			}
			return nil
		})
		if err == nil && members == 0 {
			err = fmt.Errorf("bearer: claim \"cnf\" is empty: %w", jose.ErrMalformed)
		}
		return err
	})
	if err != nil {
		if !errors.Is(err, jose.ErrMalformed) {
			err = fmt.Errorf("bearer: access token claims: %w: %w", err, jose.ErrMalformed)
		}
		return "", nil, err
	}
	return jkt, unchecked, nil
}

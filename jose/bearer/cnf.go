package bearer

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/josebench/josebench/jose/internal/cnf"
)

// confirmation reads the "cnf" claim (RFC 7800 §3.1) of a validated
// token's claims (cnf.Read): jkt is its "jkt" (RFC 9449 §6.1), "" when it
// has none; unchecked is not nil when it has a member the Middleware
// cannot check (every member but "jkt", and "jkt" too when dpopOn is
// false), and says which. A "cnf" that is not an object, is empty, or has
// a "jkt" that is not a non-empty string is an error: such a token is
// never read as a bearer token.
//
// RFC 7800 §3.1 says to ignore the members not understood; a resource
// server that does so would accept, as a bearer token, a token bound to a
// client certificate (RFC 8705) by whoever holds it, so the Middleware
// refuses them instead.
func confirmation(claims []byte, dpopOn bool) (jkt string, unchecked error, err error) {
	c, err := cnf.Read(claims)
	if err != nil {
		return "", nil, fmt.Errorf("bearer: %w", err)
	}
	what := c.Other
	if what == "" && c.JKT != "" && !dpopOn {
		what = `member "jkt"`
	}
	if what != "" {
		return "", errors.New("bearer: claim \"cnf\" has " + what + ", a confirmation method the Middleware does not check"), nil
	}
	return c.JKT, nil, nil
}

// mayHaveCnf reports whether the claims of a validated token may hold a
// "cnf" claim: they hold "cnf", or a "\u" escape, the only one that can
// spell a letter of it (JSON's "\n" and "\f" are control characters, RFC
// 8259 §7). The claims of most tokens are then never scanned, those of an
// issuer that escapes "/" as "\/" included.
func mayHaveCnf(claims []byte) bool {
	return bytes.Contains(claims, []byte("cnf")) || bytes.Contains(claims, []byte(`\u`))
}

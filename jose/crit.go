package jose

import (
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
)

// CheckCritical applies the "crit" rules of RFC 7515 §4.1.11 (for JWE,
// RFC 7516 §4.1.13) to a JOSE Header made of the protected header p and the
// unprotected headers u (nil entries are skipped):
//
//   - "crit" appears only in p;
//   - when present it is a non-empty list of distinct names;
//   - it names no header parameter defined by RFC 7515, RFC 7516 or
//     RFC 7518 ("b64" of RFC 7797 is an extension and may be listed);
//   - every name is in understood, the extensions the caller implements;
//   - every name is present in the JOSE Header.
//
// Errors wrap [ErrUnsupportedCritical] for a name not understood and
// [ErrMalformed] otherwise.
func CheckCritical(p *Header, understood []string, u ...*Header) error {
	for _, h := range u {
		if h != nil && h.Critical != nil {
			return fmt.Errorf(`jose: "crit" in an unprotected header (RFC 7515 §4.1.11): %w`, ErrMalformed)
		}
	}
	if p == nil || p.Critical == nil {
		return nil
	}
	if len(p.Critical) == 0 {
		return fmt.Errorf(`jose: "crit" is empty (RFC 7515 §4.1.11): %w`, ErrMalformed)
	}
	for i, name := range p.Critical {
		if name != "b64" && IsRegisteredHeader(name) {
			return fmt.Errorf(`jose: "crit" lists the registered header %s (RFC 7515 §4.1.11): %w`, untrusted.Quote(name), ErrMalformed)
		}
		if slices.Contains(p.Critical[:i], name) {
			return fmt.Errorf(`jose: "crit" lists %s twice: %w`, untrusted.Quote(name), ErrMalformed)
		}
		if !slices.Contains(understood, name) {
			return fmt.Errorf("jose: critical header %s is not understood: %w", untrusted.Quote(name), ErrUnsupportedCritical)
		}
		if !p.Has(name) && !slices.ContainsFunc(u, func(h *Header) bool { return h != nil && h.Has(name) }) {
			return fmt.Errorf(`jose: "crit" lists %s, absent from the header: %w`, untrusted.Quote(name), ErrMalformed)
		}
	}
	return nil
}

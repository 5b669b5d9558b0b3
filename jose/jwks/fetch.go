package jwks

import (
	"errors"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// accept is the Accept header of every request: the JWK Set media type
// (RFC 7517 §8.5.1), then plain JSON, which most providers serve.
const accept = "application/jwk-set+json, application/json"

// parse is the Parse of the Remote's cache: the set of a body of status
// 200 (status is its status line, for errors), prev being the set in use
// (nil: none). A key identical to one of prev's is prev's *jose.JWK, so
// that the verifiers prepared for it stay in use. (A body identical to
// the one of prev is not parsed: the cache keeps prev itself.)
func (r *Remote) parse(body []byte, status string, prev *keySet) (keySet, error) {
	parse := jose.ParsePublicSetWithLimits // private keys refused before they are built
	if r.opts.AllowSecretKeys {
		parse = jose.ParseSetWithLimits
	}
	set, err := parse(body, r.opts.Limits)
	if err != nil && !r.opts.AllowSecretKeys && errors.Is(err, jose.ErrInvalidKey) {
		err = fmt.Errorf("jwks: set holds secret or private keys (Options.AllowSecretKeys is not set): %w", err)
	}
	if err == nil {
		err = r.checkKeys(set)
	}
	if err == nil {
		err = checkUsable(set)
	}
	if err != nil {
		return keySet{}, r.fetchErrorf("status %s: %w", status, err)
	}
	if prev != nil {
		reuseKeys(set, prev.set)
	}
	return keySet{set: set, unusable: unusableEntries(set)}, nil
}

// fetchError is a failed fetch: its text is err's, and it wraps both
// ErrFetch and err (with what err wraps).
type fetchError struct{ err error }

// Error returns the text of err.
func (e fetchError) Error() string { return e.err.Error() }

// Unwrap returns ErrFetch and err, for errors.Is and errors.As.
func (e fetchError) Unwrap() []error { return []error{ErrFetch, e.err} }

// fetchErrorf returns a fetchError of the message "jwks: GET <url>: "
// followed by format, formatted as fmt.Errorf does.
func (r *Remote) fetchErrorf(format string, args ...any) error {
	return fetchError{fmt.Errorf("jwks: GET %s: "+format, append([]any{r.shownURL}, args...)...)}
}

// checkKeys refuses a set mixing secret or private keys with public ones,
// always ([jose.Set.CheckMixed]); without AllowSecretKeys, a set with a
// secret or private key was refused before its keys were parsed.
func (r *Remote) checkKeys(set *jose.Set) error {
	if err := set.CheckMixed(); err != nil {
		return fmt.Errorf("jwks: fetched set: %w", err)
	}
	return nil
}

// checkUsable refuses a set of which no entry is usable here: no entry
// at all, or only entries of key types or curves this module does not
// support, or that fail the checks of [jose.ParseKey]. Such an answer is
// a publishing mistake of the provider (or a set meant for other
// software), and taking it would refuse every token at once; see
// [Options.MaxStale] for why it counts as a failed fetch.
func checkUsable(set *jose.Set) error {
	for _, k := range set.Keys {
		if k.Supported() {
			return nil
		}
	}
	if len(set.Keys) == 0 {
		return errors.New("jwks: no key usable here: the set holds no key")
	}
	return fmt.Errorf("jwks: no key usable here: none of the %d entries is usable (%s)", len(set.Keys), describeEntry(0, set.Keys[0]))
}

// maxUnusableListed is the most unusable entries Status lists.
const maxUnusableListed = 16

// unusableEntries returns Status.Unusable for set.
func unusableEntries(set *jose.Set) []string {
	var out []string
	n := 0
	for i, k := range set.Keys {
		if k.Supported() {
			continue
		}
		if n++; n <= maxUnusableListed {
			out = append(out, describeEntry(i, k))
		}
	}
	if n > maxUnusableListed {
		out = append(out, fmt.Sprintf("and %d more unusable entries", n-maxUnusableListed))
	}
	return out
}

// describeEntry describes the unusable entry i of a set, k, and why it is
// unusable, in bounded text: its kid is quoted and cut
// ([untrusted.Quote]), its error cut ([untrusted.Error]).
func describeEntry(i int, k *jose.JWK) string {
	var kid string
	if k != nil && k.KeyID != "" {
		kid = ", kid " + untrusted.Quote(k.KeyID)
	}
	return fmt.Sprintf("entry %d%s: %v", i, kid, untrusted.Error(k.Err()))
}

// reuseKeys replaces each key of set whose JSON is that of a key of old
// by old's *jose.JWK, so that a Verifier's verifiers, prepared and cached
// per *jose.JWK, survive a rotation for the keys that stay.
func reuseKeys(set, old *jose.Set) {
	if old == nil {
		return
	}
	byJSON := make(map[string]*jose.JWK, len(old.Keys))
	var buf []byte
	for _, k := range old.Keys {
		var err error
		if buf, err = k.AppendJSON(buf[:0]); err == nil {
			byJSON[string(buf)] = k
		}
	}
	for i, k := range set.Keys {
		var err error
		if buf, err = k.AppendJSON(buf[:0]); err == nil {
			if o, ok := byJSON[string(buf)]; ok {
				set.Keys[i] = o
			}
		}
	}
}

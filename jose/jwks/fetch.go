package jwks

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/httpfetch"
)

// accept is the Accept header of every request: the JWK Set media type
// (RFC 7517 §8.5.1), then plain JSON, which most providers serve.
const accept = "application/jwk-set+json, application/json"

// validators are the response headers a conditional request sends back
// (RFC 9110 §8.8, §13.1.1, §13.1.3).
type validators struct {
	etag         string // ETag, sent as If-None-Match
	lastModified string // Last-Modified, sent as If-Modified-Since
}

// update returns v with the validators n carries (a 304 may send new ones,
// RFC 9111 §4.3.4).
func (v validators) update(n validators) validators {
	if n.etag != "" {
		v.etag = n.etag
	}
	if n.lastModified != "" {
		v.lastModified = n.lastModified
	}
	return v
}

// result is a successful fetch.
type result struct {
	set        *jose.Set // nil: 304 Not Modified
	validators validators
	sum        [32]byte      // SHA-256 of the body
	lifetime   time.Duration // freshness lifetime, within the Options bounds
	explicit   bool          // the response stated its lifetime
}

// fetch makes one GET of the set, conditional on v when old is the set in
// use, and returns the new set (or, on 304, none). A body identical to the
// one of old gives old itself, and a key identical to one of old is old's
// *jose.JWK, so that the verifiers prepared for it stay in use.
func (r *Remote) fetch(ctx context.Context, v validators, old *jose.Set, oldSum [32]byte) (result, error) {
	var res result
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return res, r.fetchErrorf("%w", err)
	}
	req.Header.Set("Accept", accept)
	if v.etag != "" {
		req.Header.Set("If-None-Match", v.etag)
	}
	if v.lastModified != "" {
		req.Header.Set("If-Modified-Since", v.lastModified)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL repeated
		}
		// net/http's errors may repeat what the server sent (a status
		// line, a redirect's Location): bounded.
		return res, r.fetchErrorf("%w", untrusted.Error(err))
	}
	defer resp.Body.Close()
	if resp.Request != nil && resp.Request.URL.Scheme != "https" && !r.opts.AllowHTTP {
		return res, r.fetchErrorf("redirected to %s: https is required", untrusted.Quote(resp.Request.URL.Redacted()))
	}
	res.validators = validators{resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")}
	res.lifetime, res.explicit = freshness(resp.Header, r.now())
	res.lifetime = r.clamp(res.lifetime, res.explicit)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		if old == nil || v == (validators{}) {
			return res, r.fetchErrorf("status %s to an unconditional request", httpfetch.Status(resp))
		}
		return res, nil
	default:
		// Read a little of the body, so that the connection can be reused.
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
		return res, r.fetchErrorf("status %s", httpfetch.Status(resp))
	}
	body, err := httpfetch.ReadBody(resp, r.opts.MaxResponseSize)
	if err != nil {
		return res, r.fetchErrorf("status %s: %w", httpfetch.Status(resp), err)
	}
	res.sum = sha256.Sum256(body)
	if old != nil && res.sum == oldSum {
		res.set = old
		return res, nil
	}
	parse := jose.ParsePublicSetWithLimits // private keys refused before they are built
	if r.opts.AllowSecretKeys {
		parse = jose.ParseSetWithLimits
	}
	set, err := parse(body, r.opts.Limits)
	if err != nil && !r.opts.AllowSecretKeys && errors.Is(err, jose.ErrInvalidKey) {
		err = fmt.Errorf("jwks: set holds secret or private keys (Options.AllowSecretKeys is not set): %w", err)
	}
	if err != nil {
		return res, r.fetchErrorf("status %s: %w", httpfetch.Status(resp), err)
	}
	if err := r.checkKeys(set); err != nil {
		return res, r.fetchErrorf("status %s: %w", httpfetch.Status(resp), err)
	}
	if err := checkUsable(set); err != nil {
		return res, r.fetchErrorf("status %s: %w", httpfetch.Status(resp), err)
	}
	reuseKeys(set, old)
	res.set = set
	return res, nil
}

// fetchError is a failed fetch: its text is err's, and it wraps both
// ErrFetch and err (with what err wraps).
type fetchError struct{ err error }

func (e fetchError) Error() string   { return e.err.Error() }
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

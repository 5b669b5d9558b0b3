package jwks

import (
	"time"

	"github.com/josebench/josebench/jose/internal/httpfetch"
)

// Helpers of this package's tests only: the Remote's cache
// (cachedfetch.Cache) does the work.

// freshness is the freshness lifetime of a response (RFC 9111 §4.2.1),
// as the Remote's cache reads it ([httpfetch.Get] calls
// [httpfetch.Freshness]); the tests check it on the headers a JWK Set
// comes with.
var freshness = httpfetch.Freshness

// clamp bounds a freshness lifetime by MinRefreshInterval and
// MaxRefreshInterval, as the Remote's cache does (its MinRefresh and
// MaxRefresh are those); a response that stated none is used for
// MaxRefreshInterval.
func (r *Remote) clamp(d time.Duration, explicit bool) time.Duration {
	return httpfetch.Clamp(d, explicit, r.opts.MinRefreshInterval, r.opts.MaxRefreshInterval)
}

// untilNext returns how long Run waits before its next fetch.
func (r *Remote) untilNext() time.Duration { return r.fetches.UntilNext() }

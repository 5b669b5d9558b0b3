package jwks

import (
	"time"

	"github.com/josebench/josebench/jose/internal/httpfetch"
)

// freshness is the freshness lifetime of a response (RFC 9111 §4.2.1),
// as package oidc reads it: [httpfetch.Freshness].
var freshness = httpfetch.Freshness

// clamp bounds a freshness lifetime by MinRefreshInterval and
// MaxRefreshInterval; a response that stated none is used for
// MaxRefreshInterval.
func (r *Remote) clamp(d time.Duration, explicit bool) time.Duration {
	return httpfetch.Clamp(d, explicit, r.opts.MinRefreshInterval, r.opts.MaxRefreshInterval)
}

// Package jwks verifies tokens against a JWK Set (RFC 7517 §5) published at
// a URL, such as the jwks_uri of an OpenID provider (OpenID Connect
// Discovery 1.0 §3): a [Remote] fetches the set over HTTPS, caches it as
// the response's Cache-Control or Expires allow within the caller's bounds,
// revalidates it with If-None-Match and If-Modified-Since, fetches it again
// when a token names a kid it does not hold (at once, then at most once per
// cooldown, one request for all the goroutines waiting), and keeps the
// last good set for a bounded time when the provider fails or publishes a
// set with no key usable here.
//
// A Remote is a key source for jws and jwe: its [Remote.KeyFunc] is the
// KeyFunc of jws.VerifyOptions or jwe.DecryptOptions, which select the key
// from the set it returns as they do from a local *jose.Set, at the same
// cost once the set is cached.
//
//	keys, err := jwks.New("https://provider.example/.well-known/jwks.json", jwks.Options{})
//	if err != nil {
//		return err
//	}
//	defer keys.Close()
//	v, err := jws.NewVerifier(jws.VerifyOptions{
//		Algorithms: []jwa.SignatureAlgorithm{jwa.RS256},
//		KeyFunc:    keys.KeyFunc,
//	})
//
// Keys never come from the token being verified (its "jku", "x5u" or
// "jwk" headers are ignored by jws and jwe): the application chooses the
// URL. A Remote keeps no goroutine running: a fetch runs in a goroutine
// of its own that ends with it (within Timeout, or at Close), so that a
// caller giving up ends neither the fetch others wait for nor its
// cooldown; [Remote.Run], called in a goroutine of the caller's,
// refreshes the set ahead of verifications. It does not log:
// [Remote.Status] reports the last fetch, its error and the number of keys.
//
// Worst cases, each bounded by an [Options] field: a slow or hanging
// provider holds one verification for at most Timeout; a huge or endless
// body is refused at MaxResponseSize bytes read; tokens with made-up kids
// cause at most one request per RefreshCooldown; an unreachable provider
// leaves the last set in use for at most MaxStale past its lifetime.
package jwks

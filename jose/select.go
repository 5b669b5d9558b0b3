package jose

import (
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
)

// Algorithm is what key selection needs of an algorithm identifier: its
// name and which keys can serve it. [jwa.SignatureAlgorithm] and
// [jwa.KeyAlgorithm] implement it.
type Algorithm interface {
	~string
	// KeyType returns the JWK "kty" of the algorithm's keys, or "" when
	// several types serve it (ECDH-ES: "EC" and "OKP").
	KeyType() string
	// FitsKey reports whether a Go key has the type (and curve, or key
	// wrap size) the algorithm needs.
	FitsKey(key any) bool
}

// Select returns the keys of s that may be tried, in order, for a token
// whose alg is alg, whose "kid" is kid (or "") and which asks op of the
// key, appended to dst (which, with capacity max, keeps the selection from
// allocating). fits, if not nil, says more of which Go keys can serve the
// token than alg can alone: jwe refuses, for ECDH-ES, keys of another
// curve than the token's epk and, for dir, keys of another size than its
// enc needs. This is the one key-selection policy of jws and jwe
// (RFC 7515 §6, RFC 7516 §6, RFC 7517 §4.5):
//
//   - A set that mixes secret keys (symmetric or private) with public keys
//     is refused with [ErrInvalidKey]: which keys a token may pick from it
//     is ambiguous, and such a set is a configuration error (a secret
//     published with public keys, or public keys mixed into a secret
//     store). The set remembers the Keys it found unmixed (see [Set]): a
//     set checked once, by [Set.CheckMixed] or a former Select, is not
//     walked again until its Keys is reassigned, appended to or cut; a
//     change that keeps Keys' first element and length is not seen.
//   - Keys that cannot serve alg are dropped first: unusable entries, keys
//     of another type or curve ([Algorithm.FitsKey]) or that fits
//     refuses, keys whose "alg",
//     "use" or "key_ops" forbid alg or op ([JWK.Permits]). Only the rest
//     count as candidates.
//   - With a kid, the result is exactly one key: the one fitting key with
//     that kid. None is [ErrKeyNotFound] when no entry has that kid, or
//     when the entries with that kid are unusable or include an unusable
//     entry of alg's "kty" (the error says why the first is unusable,
//     [JWK.Err]), and [ErrAlgorithmNotAllowed] when usable keys with that
//     kid exist but none can serve alg. Two fitting keys with that kid, or a fitting key and
//     an unusable entry with that kid whose "kty" is alg's (whose key
//     cannot be trusted to differ), are ambiguous: [ErrKeyNotFound].
//   - Without a kid, the result is the first max fitting keys in set
//     order; none is [ErrKeyNotFound].
//
// The errors name the package "jose"; callers wrap them with their own
// name as context.
func Select[A Algorithm](dst []*JWK, s *Set, alg A, kid string, op KeyOp, max int, fits func(key any) bool) ([]*JWK, error) {
	if s == nil {
		return dst, fmt.Errorf("jose: no key set: %w", ErrKeyNotFound)
	}
	if err := s.checkUnmixed(); err != nil {
		return dst, err
	}
	n := len(dst)
	kty := alg.KeyType()
	named, usable, unusable := false, false, 0
	var bad *JWK // the first unusable entry of kid
	// By the index of kid, if s has one, else entry by entry.
	for i, links := s.start(kid); i >= 0 && i < len(s.Keys); i = step(i, links) {
		k := s.Keys[i]
		if k == nil || (kid != "" && k.KeyID != kid) {
			if links != nil { // the set was changed in place: walk it whole
				dst, named, usable, unusable, bad = dst[:n], false, false, 0, nil
				links, i = nil, -1
			}
			continue
		}
		named = true
		if !k.Supported() {
			if kid != "" && bad == nil {
				bad = k
			}
			if kid != "" && (kty == "" || k.KeyType() == kty || k.KeyType() == "") {
				unusable++
			}
			continue
		}
		usable = true
		if !alg.FitsKey(k.Key) || (fits != nil && !fits(k.Key)) || !k.permits(string(alg), op) {
			continue
		}
		if kid == "" {
			if len(dst)-n == max {
				break
			}
			dst = append(dst, k)
			continue
		}
		if len(dst) > n {
			return dst[:n], fmt.Errorf("jose: several keys of kid %s fit %s: %w", untrusted.Quote(kid), string(alg), ErrKeyNotFound)
		}
		dst = append(dst, k)
	}
	switch {
	case kid != "" && !named:
		return dst[:n], fmt.Errorf("jose: no key of kid %s: %w", untrusted.Quote(kid), ErrKeyNotFound)
	case len(dst) > n && unusable > 0:
		return dst[:n], fmt.Errorf("jose: kid %s names a key for %s and an unusable entry of its type: %w", untrusted.Quote(kid), string(alg), ErrKeyNotFound)
	case len(dst) == n && bad != nil && (unusable > 0 || !usable):
		return dst, fmt.Errorf("jose: the entry of kid %s is unusable (%v): %w", untrusted.Quote(kid), untrusted.Error(bad.Err()), ErrKeyNotFound)
	case len(dst) == n && kid != "":
		return dst, fmt.Errorf("jose: no key of kid %s can serve %s: %w", untrusted.Quote(kid), string(alg), ErrAlgorithmNotAllowed)
	case len(dst) == n:
		return dst, fmt.Errorf("jose: no key fits %s: %w", string(alg), ErrKeyNotFound)
	}
	return dst, nil
}

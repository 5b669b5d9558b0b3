// Package keysource calls the key function of a jws.Verifier or a
// jwe.Decrypter (their KeyFunc or KeyFuncContext) for one token, with the
// rules both follow:
//
//   - one token may cost at most jose.Limits.MaxKeyLookups calls, over all
//     its signatures or recipients, whether they fail or not: a call past
//     the budget is not made, and the error wraps jose.ErrLimitExceeded;
//   - the token's context is checked before every call: once it is done,
//     the key function is not called and the error wraps ctx.Err();
//   - a KeyFuncContext gets the token's context, and an error it returns
//     once that context is done wraps ctx.Err() too, whatever the function
//     itself wrapped;
//   - a key function that returns no key (nil, or a nil *jose.Set) is
//     jose.ErrKeyNotFound;
//   - the text of an error it returns, which may repeat the token's (an
//     unknown kid), is escaped and cut by untrusted.Error.
//
// Its errors name the package of the caller ("jws: KeyFunc: ...").
package keysource

import (
	"context"
	"errors"
	"fmt"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// Func is a key function that takes the token's context
// (jws.VerifyOptions.KeyFuncContext, jwe.DecryptOptions.KeyFuncContext).
type Func = func(ctx context.Context, h *jose.Header) (any, error)

// Source is the key function of a Verifier or Decrypter; the zero value
// has none.
type Source struct {
	plain func(h *jose.Header) (any, error)
	ctx   Func
	pkg   string // "jws" or "jwe", the prefix of the errors
	name  string // the option it came from, in errors
	max   int    // calls per token (jose.Limits.MaxKeyLookups)
}

// New returns the Source of the options of package pkg, which set at most
// one of plain (KeyFunc) and withCtx (KeyFuncContext), for tokens that may
// cost lim.MaxKeyLookups calls (lim has its defaults applied).
func New(pkg string, plain func(h *jose.Header) (any, error), withCtx Func, lim jose.Limits) Source {
	s := Source{plain: plain, ctx: withCtx, pkg: pkg, name: "KeyFunc", max: lim.MaxKeyLookups}
	if withCtx != nil {
		s.name = "KeyFuncContext"
	}
	return s
}

// Set reports whether s has a key function.
func (s *Source) Set() bool { return s.plain != nil || s.ctx != nil }

// Check checks the key source of a verifier or decrypter
// (jws.VerifyOptions, jwe.DecryptOptions) when it is made: exactly one of
// key, set, plain (KeyFunc) and withCtx (KeyFuncContext) is given; a single
// key can serve one of algs, asking op(alg) of it ([CheckFits],
// [jose.ErrInvalidKey]); a set does not mix secret and public keys
// ([jose.Set.CheckMixed], [jose.ErrInvalidKey]), which the set remembers
// for [jose.Select]. Its errors have no package prefix: jws and jwe give
// them under theirs ("jws: VerifyOptions: ...").
func Check[A Algorithm](algs []A, key any, set *jose.Set, plain func(h *jose.Header) (any, error), withCtx Func, op func(A) jose.KeyOp) error {
	n := 0
	for _, given := range [...]bool{key != nil, set != nil, plain != nil, withCtx != nil} {
		if given {
			n++
		}
	}
	switch {
	case n != 1:
		return errors.New("exactly one of Key, Keys, KeyFunc and KeyFuncContext must be set")
	case key != nil:
		if _, ok := key.(*jose.Set); ok {
			return fmt.Errorf("Key holds a JWK Set (*jose.Set), which goes in Keys: %w", jose.ErrInvalidKey)
		}
		return CheckFits(algs, key, op)
	case set != nil:
		return set.CheckMixed()
	}
	return nil
}

// Spent returns the error of a token that has cost used calls when that
// is the whole budget, and nil while calls are left.
func (s *Source) Spent(used int) error {
	if used < s.max {
		return nil
	}
	return fmt.Errorf("%s: the token needs more than %d calls of %s (Limits.MaxKeyLookups): %w", s.pkg, s.max, s.name, jose.ErrLimitExceeded)
}

// Call returns the key s's function gives for the header h of a token
// whose context is ctx: a Go key, a *jose.JWK or a non-nil *jose.Set.
// *used counts the calls made for the token so far; Call adds its own, if
// it makes it.
func (s *Source) Call(ctx context.Context, used *int, h *jose.Header) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %s not called: %w", s.pkg, s.name, err)
	}
	if err := s.Spent(*used); err != nil {
		return nil, err
	}
	*used++
	var (
		key any
		err error
	)
	if s.ctx != nil {
		key, err = s.ctx(ctx, h)
	} else {
		key, err = s.plain(h)
	}
	if err != nil {
		// The caller's text may repeat the token's (a kid): escaped
		// and cut, as other packages' texts are.
		err = untrusted.Error(err)
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			return nil, fmt.Errorf("%s: %s: %w: %w", s.pkg, s.name, err, cerr)
		}
		return nil, fmt.Errorf("%s: %s: %w", s.pkg, s.name, err)
	}
	if set, ok := key.(*jose.Set); key == nil || (ok && set == nil) {
		return nil, fmt.Errorf("%s: %s returned no key: %w", s.pkg, s.name, jose.ErrKeyNotFound)
	}
	return key, nil
}

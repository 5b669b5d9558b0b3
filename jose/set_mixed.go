package jose

import "fmt"

// keysShape identifies a Keys slice of a [Set]: the address of its first
// element and its length. The address is a real pointer, so the backing
// array it names stays alive as long as the shape is remembered, and a
// new slice can never be allocated where it was and taken for it.
type keysShape struct {
	base **JWK
	n    int
}

// is reports whether keys is the slice the shape was taken of.
func (sh *keysShape) is(keys []*JWK) bool {
	return sh != nil && sh.n == len(keys) && sh.n > 0 && sh.base == &keys[0]
}

// CheckMixed refuses, with [ErrInvalidKey], a set that holds both secret
// keys (symmetric or private) and public keys; see [Select]. Unusable
// entries are not counted; a nil set mixes nothing. It walks the whole
// set each time it is called, and remembers a set it accepts, so that
// [Select], and the verifiers and decrypters of jws and jwe, which check
// every set they are given, do not walk it again (see [Set]); a set it
// refuses is walked by them again.
func (s *Set) CheckMixed() error {
	if s == nil {
		return nil
	}
	keys := s.Keys // read once: what is remembered is what was walked
	if err := walkMixed(keys); err != nil {
		s.unmixed.Store(nil)
		return err
	}
	s.rememberUnmixed(keys)
	return nil
}

// checkUnmixed is [Set.CheckMixed] without the walk when s's Keys is the
// slice last found unmixed: two comparisons, safe for concurrent use.
func (s *Set) checkUnmixed() error {
	if s == nil || len(s.Keys) == 0 || s.unmixed.Load().is(s.Keys) {
		return nil
	}
	return s.CheckMixed()
}

// rememberUnmixed records that keys, the Keys of s, were found unmixed.
func (s *Set) rememberUnmixed(keys []*JWK) {
	if len(keys) == 0 || s.unmixed.Load().is(keys) {
		return
	}
	s.unmixed.Store(&keysShape{&keys[0], len(keys)})
}

// walkMixed is the walk of [Set.CheckMixed] over keys.
func walkMixed(keys []*JWK) error {
	var secret, public bool
	for _, k := range keys {
		if !k.Supported() {
			continue
		}
		if k.IsPrivate() {
			secret = true
		} else {
			public = true
		}
	}
	if secret && public {
		return fmt.Errorf("jose: JWK Set mixes secret or private keys with public keys: %w", ErrInvalidKey)
	}
	return nil
}

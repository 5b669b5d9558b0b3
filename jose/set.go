package jose

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Set is a JSON Web Key Set (RFC 7517 §5).
//
// A set read by [ParseSet] keeps every entry, in order. An entry whose kty
// or crv this module does not support, or which fails the checks of
// [ParseKey], does not make the whole set fail: it is kept (and written back
// by [Set.MarshalJSON] as it was read) but is not [JWK.Supported], its
// [JWK.Err] says why, and [Set.LookupKeyID] and [Set.Filter] never select
// it. Members of the set object other than "keys" are kept too.
//
// A set read by [ParseSet], [ParseSetWithLimits],
// [ParsePublicSetWithLimits] or [Set.UnmarshalJSON] is indexed by kid
// when it has 16 entries or more, so that finding the key of a token's
// kid ([Select], [Set.LookupKeyID], [Set.HasKeyID]) costs the same in a set
// of a thousand keys as in a set of one; a set built in code is searched
// entry by entry. The index holds for the Keys slice the parser made: a
// set whose Keys is assigned another slice, appended to or cut is searched
// entry by entry again, and entries reordered in place are still found.
// Giving an entry in place a kid it did not have (assigning Keys[i] a key
// of another kid, changing a KeyID, or refilling the slice in place,
// s.Keys = s.Keys[:0] then as many appends) is not seen by the index: such
// a kid is not found, and one shared with an older entry finds the older
// entry alone, where a search would refuse the kid as ambiguous. Make such
// changes on a copy, s.Keys = slices.Clone(s.Keys), or not at all once the
// set is in use (jws and jwe require that a set they use is not modified).
//
// A set found not to mix secret and public keys ([Set.CheckMixed], and
// the same check made by [Select] and by the verifiers and decrypters of
// jws and jwe) remembers it for its Keys slice, as the index does: the
// address of the slice's first element and its length. Its Keys is not
// walked again for that check until it is assigned another slice, or a
// check sees it appended to or cut. A change that keeps both is not seen,
// by the same rule that such a set is not modified: an entry replaced or
// its Key changed, Keys refilled in place to its old length
// (s.Keys = append(s.Keys[:0], …) with as many keys), a cut appended back
// before the next check, or an append to another slice of Keys' array.
//
// A Set is safe for concurrent use by any number of readers (the
// verifiers and decrypters of jws and jwe, and the methods of Set). It
// must not be copied once in use, as the memory of its check may be
// written concurrently (go vet's copylocks reports such copies); make a
// new set of its keys instead, &Set{Keys: slices.Clone(s.Keys)} (or
// [NewSet], which clones too, when every key is usable), which shares no
// array with s.
type Set struct {
	Keys []*JWK // "keys" (RFC 7517 §5.1)

	extra   []jwkMember               // members other than "keys", in order
	index   *kidIndex                 // by kid, built by the parsers; see kidIndex
	unmixed atomic.Pointer[keysShape] // the Keys last found unmixed; see checkUnmixed
}

// NewSet returns a JWK Set (RFC 7517 §5) of keys, in order, for the Keys
// of jws.VerifyOptions and jwe.DecryptOptions or to publish with
// [Set.MarshalJSON]; make each key with [NewJWK], [ParseKey] or the
// Generate functions. It refuses, with an error wrapping [ErrInvalidKey],
// a nil key, an unusable one ([JWK.Err]), and a set that mixes secret keys
// (symmetric or private) with public keys, which every verifier and
// decrypter refuses ([Set.CheckMixed]). Two keys may share a kid (one for
// signing, one for encryption, say): a token naming a kid that more than
// one key could serve is refused then, not the set.
//
// The set holds the keys, not copies; as with any set given to jws or
// jwe, neither the set nor its keys may be modified once in use.
func NewSet(keys ...*JWK) (*Set, error) {
	for i, k := range keys {
		if k == nil {
			return nil, fmt.Errorf("jose: NewSet: key %d is nil: %w", i, ErrInvalidKey)
		}
		if err := k.Err(); err != nil {
			return nil, fmt.Errorf("jose: NewSet: key %d: %w", i, err)
		}
	}
	s := &Set{Keys: slices.Clone(keys)}
	if s.Keys == nil {
		s.Keys = []*JWK{}
	}
	if err := s.CheckMixed(); err != nil {
		return nil, fmt.Errorf("jose: NewSet: the keys mix secret or private keys with public keys: %w", ErrInvalidKey)
	}
	return s, nil
}

// ParseSet parses a JWK Set with the default limits: at most
// [DefaultMaxSetSize] bytes, [DefaultMaxSetKeys] keys and
// [DefaultMaxKeySize] bytes a key. See [ParseSetWithLimits].
func ParseSet(data []byte) (*Set, error) {
	return ParseSetWithLimits(data, Limits{})
}

// ParseSetWithLimits parses a JWK Set (RFC 7517 §5). A set of more than
// lim.MaxSetSize bytes is refused with an error wrapping
// [ErrLimitExceeded] before any of it is read. The set must be a JSON
// object with a "keys" member holding an array of JSON objects; more than
// lim.MaxSetKeys keys is refused with an error wrapping [ErrLimitExceeded],
// before the next key is parsed. Each key is parsed as [ParseKeyWithLimits]
// does, but an unsupported or invalid key, or one of more than
// lim.MaxKeySize bytes, is kept as an unusable entry (see [Set]).
// JSON syntax errors, a duplicate member name in any object (which would
// let two parsers read different sets) and a missing or mistyped "keys"
// refuse the whole set with an error wrapping [ErrMalformed].
func ParseSetWithLimits(data []byte, lim Limits) (*Set, error) {
	s := new(Set)
	if err := s.parse(data, lim.WithDefaults(), false, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// ParsePublicSetWithLimits parses a JWK Set of public keys, such as one
// fetched from a provider, as [ParseSetWithLimits] does, except that a set
// with an entry carrying a member of a private or symmetric key ("d",
// "p", "q", "dp", "dq", "qi", "oth", "k", "priv", ...: RFC 7518 §6.2.2,
// §6.3.2, §6.4.1, RFC 8037 §2, RFC 9964 §4), even an entry that could not
// be used, is refused
// with an error wrapping [ErrInvalidKey]. The refusal is on the member
// names, before any key is built: such a set costs its scan, never the
// validation of a private key.
func ParsePublicSetWithLimits(data []byte, lim Limits) (*Set, error) {
	s := new(Set)
	if err := s.parse(data, lim.WithDefaults(), true, nil); err != nil {
		return nil, err
	}
	return s, nil
}

// UnmarshalJSON parses data as [ParseSet] does and, on success, replaces s.
func (s *Set) UnmarshalJSON(data []byte) error {
	var ns Set
	if err := ns.parse(data, Limits{}.WithDefaults(), false, nil); err != nil {
		return err
	}
	s.Keys, s.extra, s.index = ns.Keys, ns.extra, ns.index
	s.unmixed.Store(nil)
	return nil
}

// parse parses data into s; publicOnly refuses an entry with a private
// member before any key is parsed. A full RSA validation is counted in v.
func (s *Set) parse(data []byte, lim Limits, publicOnly bool, v *validations) error {
	if len(data) > lim.MaxSetSize {
		return jwkErrorf(ErrLimitExceeded, "set of %d bytes exceeds %d", len(data), lim.MaxSetSize)
	}
	members, err := jwkParseObject(data, lim)
	if err != nil {
		return err
	}
	var keys []byte
	for _, m := range members {
		if m.name == "keys" {
			keys = m.value
		} else {
			s.extra = append(s.extra, jwkMember{m.name, slices.Clone(m.value)})
		}
	}
	if keys == nil {
		return jwkErrorf(ErrMalformed, "set: missing member \"keys\"")
	}
	elems, err := jwkSplitArray("keys", keys, lim.MaxSetKeys, lim)
	if err != nil {
		return err
	}
	if publicOnly {
		for i, e := range elems {
			if name, ok := privateMember(e, lim); ok {
				return jwkErrorf(ErrInvalidKey, "set: key %d has the private member %q", i, name)
			}
		}
	}
	s.Keys = make([]*JWK, 0, len(elems))
	for _, e := range elems {
		s.Keys = append(s.Keys, parseSetEntry(e, lim, v))
	}
	s.buildIndex()
	return nil
}

// privateMember returns the first member of the entry data that carries
// secret material (privateMembers), judged by its name; an entry that is
// not a valid object has none (it is an unusable entry).
func privateMember(data []byte, lim Limits) (string, bool) {
	var found string
	_ = jsonx.ScanObject(data, jwkLimits(lim), func(name, _ []byte) error {
		if slices.Contains(privateMembers, string(name)) {
			found = string(name)
			return errStop
		}
		return nil
	})
	return found, found != ""
}

// errStop ends a scan early.
var errStop = errors.New("stop")

// parseSetEntry parses one entry of a set, returning an unusable entry
// rather than an error, counting a full RSA validation in v.
func parseSetEntry(data []byte, lim Limits, v *validations) *JWK {
	k := new(JWK)
	err := k.parse(data, lim, v)
	if err == nil {
		return k
	}
	u := &JWK{ext: ext{raw: slices.Clone(data), err: err}}
	// Keep what can be read of the entry, for KeyType, Curve and lookups
	// by humans; none of it makes the entry selectable.
	if members, perr := jwkParseObject(data, lim); perr == nil {
		for _, m := range members {
			switch m.name {
			case "kty":
				u.ext.kty, _ = jwkString(m)
			case "crv":
				u.ext.crv, _ = jwkString(m)
			case "kid":
				u.KeyID, _ = jwkString(m)
			case "use":
				u.Use, _ = jwkString(m)
			case "alg":
				u.Algorithm, _ = jwkString(m)
			}
		}
	}
	return u
}

// MarshalJSON returns the set as a JSON object (RFC 7517 §5), with each
// key as [JWK.MarshalJSON] writes it: private keys keep their private
// members; use [Set.Public] to publish a set.
func (s *Set) MarshalJSON() ([]byte, error) {
	return s.AppendJSON(nil)
}

// AppendJSON appends the JSON form of s, as [Set.MarshalJSON] returns it,
// to dst.
func (s *Set) AppendJSON(dst []byte) ([]byte, error) {
	n := len(dst)
	dst = append(dst, `{"keys":[`...)
	for i, k := range s.Keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = k.AppendJSON(dst); err != nil {
			return dst[:n], err
		}
	}
	dst = append(dst, ']')
	for _, m := range s.extra {
		dst = append(dst, ',')
		dst = jsonx.AppendString(dst, m.name)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}'), nil
}

// Public returns the set of the public keys of s, for publication: each
// supported asymmetric key is replaced by [JWK.Public]; symmetric keys and
// unusable entries are left out.
func (s *Set) Public() *Set {
	p := &Set{Keys: []*JWK{}, extra: slices.Clone(s.extra)}
	for _, k := range s.Keys {
		if pk := k.Public(); pk != nil {
			p.Keys = append(p.Keys, pk)
		}
	}
	return p
}

// LookupKeyID returns the supported keys of s whose kid is kid, in order;
// nil if there is none or s is nil.
// Several keys may share a kid (RFC 7517 §4.5 asks that they differ in kty
// or use); callers pick among them with [JWK.Permits].
func (s *Set) LookupKeyID(kid string) []*JWK {
	if s == nil {
		return nil
	}
	var out []*JWK
	for i, links := s.start(kid); i >= 0 && i < len(s.Keys); i = step(i, links) {
		k := s.Keys[i]
		if k == nil || k.KeyID != kid {
			if links != nil { // changed in place: walk it whole
				out, links, i = out[:0], nil, -1
			}
			continue
		}
		if k.Supported() {
			out = append(out, k)
		}
	}
	return out
}

// HasKeyID reports whether an entry of s, usable or not, has the kid kid;
// false if s is nil. In a set read by [ParseSet], it costs the same
// whatever the number of entries (see [Set]).
func (s *Set) HasKeyID(kid string) bool {
	if s == nil {
		return false
	}
	i, links := s.start(kid)
	switch {
	case i < 0:
		return false // by the index
	case links != nil:
		if k := s.Keys[i]; k != nil && k.KeyID == kid {
			return true
		}
	}
	for _, k := range s.Keys {
		if k != nil && k.KeyID == kid {
			return true
		}
	}
	return false
}

// KeyFilter selects keys of a [Set]; an empty field selects any value.
type KeyFilter struct {
	KeyID   string // exact "kid"
	KeyType string // exact "kty"
	// Algorithm selects the keys whose "alg" is Algorithm or absent.
	Algorithm string
	// Use selects the keys whose "use" is Use or absent.
	Use string
}

// Filter returns the supported keys of s that f selects, in order; nil if
// there is none or s is nil.
func (s *Set) Filter(f KeyFilter) []*JWK {
	if s == nil {
		return nil
	}
	var out []*JWK
	for _, k := range s.Keys {
		if !k.Supported() ||
			f.KeyID != "" && k.KeyID != f.KeyID ||
			f.KeyType != "" && k.KeyType() != f.KeyType ||
			f.Algorithm != "" && k.Algorithm != "" && k.Algorithm != f.Algorithm ||
			f.Use != "" && k.Use != "" && k.Use != f.Use {
			continue
		}
		out = append(out, k)
	}
	return out
}

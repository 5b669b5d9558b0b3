package jwe

import (
	"context"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/keysource"
	"github.com/josebench/josebench/jose/internal/keytext"
	"github.com/josebench/josebench/jose/jwa"
)

// MaxKeyCandidates is the largest number of keys of a JWK Set
// ([DecryptOptions.Keys]) tried for one recipient of a token (RFC 7516
// §5.2 step 7): a token, with or without a "kid", cannot make the Decrypter
// do more key decryptions than this times [jose.Limits.MaxRecipients],
// whatever the size of the set; over all its recipients and keys, one
// token costs at most [jose.Limits.MaxKeyAttempts] key decryptions (4 by
// default). The PBKDF2 work of one token is bounded apart: its PBES2 attempts together may cost at most
// [jose.Limits.PBES2MaxCount] iterations; an attempt past that budget is
// refused with [jose.ErrLimitExceeded] before its key derivation.
const MaxKeyCandidates = 4

// keyParams reads the key management parameters of alg from h.
func keyParams(h *jose.Header, alg jwa.KeyAlgorithm) (jwa.KeyParams, error) {
	p := jwa.KeyParams{APU: h.APU, APV: h.APV, IV: h.IV, Tag: h.Tag, P2S: h.P2S, P2C: h.P2C}
	if alg.IsECDH() {
		epk, err := epkFromJWK(h.EPK)
		if err != nil {
			return p, err
		}
		p.EPK = epk
	}
	if alg.IsHPKE() {
		ek, err := hpkeEK(h)
		if err != nil {
			return p, err
		}
		p.EK = ek
	}
	return p, nil
}

// checkDecryptionKey refuses, with ErrInvalidKey, a Key whose type fits
// some of algs ([keysource.CheckFits] has accepted it) but which can decrypt
// with none of them: a public key, or an opaque key that cannot decrypt,
// for the algorithms that need the private key
// ([jwa.KeyAlgorithm.DecryptsWith]); a private key of which
// [jwa.NewKeyDecrypter], called for every token, makes no decrypter (an RSA
// key below 2048 bits, a device whose curve is not its public key's); a dir
// key of a size none of encs takes. A set (Keys) holding public keys is
// refused too: it holds no other ([jose.Set.CheckMixed] has accepted it),
// and decrypts nothing.
func checkDecryptionKey(algs []jwa.KeyAlgorithm, encs []jwa.ContentEncryption, key any, set *jose.Set) error {
	if set != nil {
		n := 0
		for _, k := range set.Keys {
			if k.Supported() && !k.IsPrivate() {
				n++
			}
		}
		if n > 0 {
			return fmt.Errorf("Keys holds %d public keys; decryption needs a private key: %w", n, jose.ErrInvalidKey)
		}
		return nil
	}
	if key == nil {
		return nil // KeyFunc
	}
	k := key
	j, isJWK := key.(*jose.JWK)
	if isJWK {
		k = j.Key
	}
	var public []jwa.KeyAlgorithm
	var unusable error
	dir := false
	for _, a := range algs {
		if !keysource.Fits(a, key) || (isJWK && j.Permits(string(a), decryptOp(a)) != nil) {
			continue // refused, if no other fits, by keysource.CheckFits
		}
		switch {
		case !a.DecryptsWith(k):
			public = append(public, a)
		case a == jwa.Direct && !slices.ContainsFunc(encs, func(e jwa.ContentEncryption) bool { return e.KeySize() == len(k.([]byte)) }):
			dir = true
		case a.KeyType() != "oct" && !isECDSAPrivate(k):
			// The asymmetric decrypter every token of a would make (prepare).
			// Not for an *ecdsa.PrivateKey, whose conversion costs a scalar
			// multiplication and fails only for a key that is none.
			if _, err := jwa.NewKeyDecrypter(a, k); err != nil {
				if unusable == nil {
					unusable = err
				}
				continue
			}
			return nil
		default:
			return nil
		}
	}
	if len(public) > 0 {
		private := func(jwa.KeyAlgorithm) string { return keytext.PrivateKeyNeeded("decrypt") }
		return fmt.Errorf("%s: %w", keysource.Refusal(jwa.DescribeKey(k), public, private), jose.ErrInvalidKey)
	}
	if unusable != nil {
		return fmt.Errorf("the key can serve none of %v: %w", algs, unusable)
	}
	if dir {
		labels, needs := make([]string, len(encs)), make([]string, len(encs))
		for i, e := range encs {
			labels[i], needs[i] = "dir with "+string(e), e.KeyNeeds()
		}
		return fmt.Errorf("%s: %w", keytext.Refusal(jwa.DescribeKey(k), labels, needs), jose.ErrInvalidKey)
	}
	return nil
}

// isECDSAPrivate reports whether k is an *ecdsa.PrivateKey.
func isECDSAPrivate(k any) bool {
	_, ok := k.(*ecdsa.PrivateKey)
	return ok
}

// keyRef is one candidate key and its cache identity (nil: not cached).
type keyRef struct {
	id  any
	key any
}

// keysFor returns the candidate keys for a recipient whose merged header
// is h: those of the JWK Set selected by the policy of [jose.Select], or
// the one key of Key or of the key function, called under ctx, with
// *lookups the calls the token has cost (Limits.MaxKeyLookups). A JWK that
// does not permit alg is refused.
func (d *Decrypter) keysFor(ctx context.Context, lookups *int, dst []keyRef, h *jose.Header, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption, epk *ecdh.PublicKey) ([]keyRef, error) {
	op := keyOp(alg, true)
	switch {
	case d.keys != nil:
		return setKeys(dst, d.keys, h, alg, op, enc, epk)
	case d.keyFunc.Set():
		k, err := d.keyFunc.Call(ctx, lookups, h)
		if err != nil {
			return nil, err
		}
		if set, ok := k.(*jose.Set); ok {
			return setKeys(dst, set, h, alg, op, enc, epk) // selected and cached as from Keys
		}
		if j, ok := k.(*jose.JWK); ok {
			if err := j.Permits(string(alg), op); err != nil {
				return nil, fmt.Errorf("jwe: KeyFunc: %w", err)
			}
			k = j.Key
		}
		return append(dst, keyRef{nil, k}), nil
	default:
		k := d.key
		if j, ok := k.(*jose.JWK); ok {
			if err := j.Permits(string(alg), op); err != nil {
				return nil, fmt.Errorf("jwe: DecryptOptions: %w", err)
			}
			k = j.Key
		}
		return append(dst, keyRef{fixedKey{}, k}), nil
	}
}

// setKeys appends to dst the keys of set selected for a recipient whose
// merged header is h by the policy of [jose.Select], with their cache
// identity. Keys that
// cannot serve this recipient are dropped before they count as candidates:
// for the ECDH-ES family keys of another curve than epk's, for dir keys of
// another size than enc's CEK.
func setKeys(dst []keyRef, set *jose.Set, h *jose.Header, alg jwa.KeyAlgorithm, op jose.KeyOp, enc jwa.ContentEncryption, epk *ecdh.PublicKey) ([]keyRef, error) {
	var fits func(any) bool
	switch {
	case alg.IsECDH() && epk != nil:
		fits = func(k any) bool { return ecdhCurve(k) == epk.Curve() }
	case alg == jwa.Direct:
		fits = func(k any) bool { b, _ := k.([]byte); return len(b) == enc.KeySize() }
	}
	var buf [MaxKeyCandidates]*jose.JWK
	keys, err := jose.Select(buf[:0], set, alg, h.KeyID, op, MaxKeyCandidates, fits)
	if err != nil {
		return nil, fmt.Errorf("jwe: JWK Set: %w", err)
	}
	for _, j := range keys {
		dst = append(dst, keyRef{j, j.Key})
	}
	return dst, nil
}

// prepare returns the key management of k for alg and enc, from the cache
// when k has an identity.
func (d *Decrypter) prepare(k keyRef, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption) (*prepared, error) {
	ck := cacheKey{k.id, alg, enc}
	if k.id != nil {
		if e := d.lastPrep.Load(); e != nil && e.key == ck {
			return &e.p, nil
		}
		if e, ok := d.cache.Get(ck); ok {
			d.lastPrep.Store(e)
			return &e.p, nil
		}
	}
	e := &prepEntry{key: ck}
	p := &e.p
	var err error
	if alg == jwa.Direct {
		// The key is the CEK: only the content cipher is made, from the
		// key itself, with no copy of it.
		if p.aead, err = jwa.NewDirectCipher(enc, k.key); err != nil {
			return nil, fmt.Errorf("jwe: decryption: %w", err) // jwa names dir and enc
		}
	} else if alg.IsPBES2() {
		if pw, ok := k.key.([]byte); ok {
			p.kd, err = jwa.NewPBES2Decrypter(alg, pw, d.lim.PBES2MinCount, d.lim.PBES2MaxCount)
		} else {
			_, err = jwa.NewKeyDecrypter(alg, k.key) // refused, in jwa's words
		}
	} else {
		p.kd, err = jwa.NewKeyDecrypter(alg, k.key)
	}
	if err != nil {
		return nil, fmt.Errorf("jwe: decryption: %w", err)
	}
	if k.id != nil {
		// The first key prepared is only the last one used: a Decrypter
		// made for one token spends nothing on the map.
		if d.lastPrep.CompareAndSwap(nil, e) {
			return p, nil
		}
		e = d.cache.Put(ck, e)
		d.lastPrep.Store(e)
		return &e.p, nil
	}
	return p, nil
}

// newKeyEncrypter prepares the key management of one recipient and returns
// the "kid" of a JWK key.
func newKeyEncrypter(alg jwa.KeyAlgorithm, key any, p2c int) (jwa.KeyEncrypter, string, error) {
	key, kid, err := recipientKey(alg, key)
	if err != nil {
		return nil, "", err
	}
	var ke jwa.KeyEncrypter
	if alg.IsPBES2() {
		if pw, ok := key.([]byte); ok {
			ke, err = jwa.NewPBES2Encrypter(alg, pw, p2c)
		} else {
			_, err = jwa.NewKeyEncrypter(alg, key) // refused, in jwa's words
		}
	} else {
		ke, err = jwa.NewKeyEncrypter(alg, key)
	}
	if err != nil {
		return nil, "", err // jwa's words, under the caller's context
	}
	return ke, kid, nil
}

// recipientKey returns the Go key of a recipient's key for alg (a JWK's
// key, which must permit alg, and the public key of a private key that
// fits alg; a key that does not is left as given, for the constructor's
// refusal to name it) and the "kid" of a JWK key. Its errors, and those of
// newKeyEncrypter, carry no "jwe:": the callers give them theirs
// ("jwe: NewEncrypter: ", "jwe: recipient 1: ").
func recipientKey(alg jwa.KeyAlgorithm, key any) (any, string, error) {
	if !alg.Known() {
		return nil, "", fmt.Errorf("key management algorithm %s: %w", untrusted.Quote(alg), jose.ErrUnsupportedAlgorithm)
	}
	var kid string
	if j, ok := key.(*jose.JWK); ok {
		if j == nil || j.Key == nil {
			return nil, "", fmt.Errorf("unsupported JWK: %w", jose.ErrInvalidKey)
		}
		if err := j.Permits(string(alg), keyOp(alg, false)); err != nil {
			return nil, "", err // jose's words
		}
		kid, key = j.KeyID, j.Key
	}
	if !alg.FitsKey(key) {
		// Refused by the constructor, which names the key as given.
		return key, kid, nil
	}
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if k != nil {
			key = &k.PublicKey
		}
	case *ecdsa.PrivateKey:
		if k != nil {
			key = &k.PublicKey
		}
	case *ecdh.PrivateKey:
		if k != nil {
			key = k.PublicKey()
		}
	}
	return key, kid, nil
}

// ecdhCurve returns the curve of an ECDH-ES key that jwa.KeyAlgorithm's
// FitsKey accepts, or nil.
func ecdhCurve(key any) ecdh.Curve {
	if k, ok := key.(interface{ Public() crypto.PublicKey }); ok {
		key = k.Public()
	}
	switch k := key.(type) {
	case *ecdh.PublicKey:
		return k.Curve()
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return ecdh.P256()
		case elliptic.P384():
			return ecdh.P384()
		case elliptic.P521():
			return ecdh.P521()
		}
	}
	return nil
}

// keyOp is the JWK key operation (RFC 7517 §4.3) that a key must permit to
// be used with alg: for "dir" and HPKE Integrated Encryption the key
// encrypts or decrypts content itself (encrypt/decrypt); for the ECDH-ES family it derives a key
// (deriveKey); every other algorithm wraps or unwraps the CEK
// (wrapKey/unwrapKey).
func keyOp(alg jwa.KeyAlgorithm, decrypt bool) jose.KeyOp {
	switch {
	case alg == jwa.Direct || alg.IsHPKEIntegrated():
		if decrypt {
			return jose.OpDecrypt
		}
		return jose.OpEncrypt
	case alg.IsECDH():
		return jose.OpDeriveKey
	case decrypt:
		return jose.OpUnwrapKey
	default:
		return jose.OpWrapKey
	}
}

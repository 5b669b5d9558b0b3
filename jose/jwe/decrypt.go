package jwe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/hdrcache"
	"github.com/josebench/josebench/jose/internal/headers"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/internal/keycache"
	"github.com/josebench/josebench/jose/internal/keysource"
	"github.com/josebench/josebench/jose/jwa"
)

// errDecrypt is the one error of every decryption failure: the same value,
// with the same message, whatever went wrong (RFC 7516 §11.4, §11.5).
var errDecrypt = fmt.Errorf("jwe: %w", jose.ErrDecryptionFailed)

// DecryptOptions configures a [Decrypter]. KeyAlgorithms and
// ContentEncryptions are required; exactly one of Key, Keys, KeyFunc and
// KeyFuncContext must be set.
type DecryptOptions struct {
	// KeyAlgorithms lists the "alg" values accepted (RFC 7516 §4.1.1).
	// A token with any other is refused before any cryptography.
	KeyAlgorithms []jwa.KeyAlgorithm
	// ContentEncryptions lists the "enc" values accepted (RFC 7516
	// §4.1.2). It may be empty only when every key algorithm is an HPKE
	// Integrated Encryption one (jwa.HPKE0 ...), whose tokens have no
	// "enc".
	ContentEncryptions []jwa.ContentEncryption

	// Key is the one decryption key: []byte (dir, AES key wrap, or a PBES2
	// password; NewDecrypter keeps a copy), *rsa.PrivateKey,
	// *ecdsa.PrivateKey, *ecdh.PrivateKey, or a *jose.JWK holding one of
	// these. A key held in a KMS or an HSM is a crypto.Decrypter with an
	// RSA public key (RSA1_5, RSA-OAEP, RSA-OAEP-256) or an
	// ecdh.KeyExchanger (the ECDH-ES family and HPKE), called at most once
	// per key decryption and never recovered from a panic. For RSA a bad
	// encrypted key stays the one opaque jose.ErrDecryptionFailed,
	// whatever the device answers, its errors included; for ECDH-ES and
	// HPKE the device's answer is checked as a local key's is (a secret of
	// the wrong size or all zeros is jose.ErrDecryptionFailed), and its
	// error is jose.ErrKeyDevice (see jwa.NewKeyDecrypter). KeyFunc may
	// return such keys too. A Key that can serve none of KeyAlgorithms
	// (by its type, curve or size, or, for a *jose.JWK, its own "alg",
	// "use" and "key_ops"), or a public key for those it fits, or a
	// private key no key decryption takes (an RSA key below 2048 bits), is
	// refused by NewDecrypter with ErrInvalidKey.
	Key any
	// Keys is a JWK Set, from which the keys tried for a recipient are
	// chosen by the one policy of jws and jwe, [jose.Select]: keys that
	// cannot serve the recipient's alg (type, curve or key size, alg, use,
	// key_ops) are dropped first; a "kid" selects the one remaining key of
	// that kid (two are ambiguous: ErrKeyNotFound); without a kid, the
	// first [MaxKeyCandidates] remaining keys are tried, in set order. A set
	// mixing secret or private keys with public keys is refused by
	// NewDecrypter with ErrInvalidKey. The set must not be modified while
	// the Decrypter is in use: its keys are prepared on first use and
	// remembered.
	Keys *jose.Set
	// KeyFunc returns the key for a token, given its merged header. It is
	// called after the header checks and before any cryptography, once per
	// recipient, at most Limits.MaxKeyLookups times per token, whatever it
	// returns. Of a JSON serialization, the header's
	// [jose.Header.Unprotected] tells the members the AAD does not cover. It may
	// return a *jose.Set: the keys are then selected from it exactly as
	// from Keys (a mixed set is refused for every token, and a set found
	// unmixed remembers it and is not walked again, [jose.Set]), and its
	// JWKs prepared once and remembered, so a
	// KeyFunc that returns the same set for every token (a cached remote
	// set of package jwks) costs what Keys costs. A set must not be
	// modified once returned.
	KeyFunc func(h *jose.Header) (any, error)
	// KeyFuncContext is KeyFunc for a key source that may wait (a remote
	// JWK Set being fetched, a KMS): it gets the context of the call that
	// decrypts the token (context.Background() for the methods without
	// one, [Decrypter.DecryptCompactContext] and the other Context methods
	// pass theirs), and must return once that context is done; its error
	// is then made to wrap ctx.Err(). Its results are used exactly as
	// KeyFunc's. The context is checked before either function is called:
	// once it is done, neither is, and the error wraps ctx.Err().
	KeyFuncContext func(ctx context.Context, h *jose.Header) (any, error)

	// A *jose.JWK (from Key, Keys or KeyFunc) must permit the token's alg
	// through its own "alg", "use" and "key_ops" (RFC 7517 §4.2-4.4); the
	// operation checked is "decrypt" for dir, "deriveKey" for the ECDH-ES
	// family and "unwrapKey" for every other algorithm.

	// Critical lists the "crit" extensions (RFC 7516 §4.1.13) the caller
	// understands and checks itself.
	Critical []string
	// Limits bounds the work spent on one token; zero fields mean the
	// defaults of [jose.Limits].
	Limits jose.Limits
}

// Decrypter decrypts JWE tokens (RFC 7516 §5.2). It is safe for concurrent
// use. It caches the key management prepared for each key it uses (and for
// "dir" the content cipher), up to 256 keys of JWK Sets (when that many are
// kept, the next to enter starts afresh: keys no longer in use are
// dropped, keys still in use are prepared once more), and compact protected headers by the cache
// rule jws and jwe share (a header made only of string and integer members
// is kept the second time a token carrying it decrypts, up to 64); every
// [Message] gets its own copy of the header.
type Decrypter struct {
	algs    []jwa.KeyAlgorithm
	encs    []jwa.ContentEncryption
	key     any
	keys    *jose.Set
	keyFunc keysource.Source // KeyFunc or KeyFuncContext
	crit    []string
	lim     jose.Limits
	jlim    jsonx.Limits

	// cache holds the keys prepared, at most maxCached, renewed by
	// generations when full (package keycache).
	cache keycache.Cache[cacheKey, prepEntry]
	// headers are the compact protected headers that decrypted, parsed,
	// kept by the cache rule of jws and jwe (hdrcache).
	headers hdrcache.Cache
	// lastPrep is the most recently used prepared key, checked before the
	// map.
	lastPrep atomic.Pointer[prepEntry]

	algOne [1]jwa.KeyAlgorithm // storage of algs for one value
	encOne [1]jwa.ContentEncryption
}

// Message is a decrypted JWE.
type Message struct {
	// Plaintext is the decrypted (and, for "zip":"DEF", inflated)
	// plaintext.
	Plaintext []byte
	// Header is the JOSE Header (RFC 7516 §4): the union of the protected,
	// shared unprotected and per-recipient headers of the recipient that
	// decrypted. It belongs to the caller.
	Header *jose.Header
	// Protected is the JWE Protected Header (RFC 7516 §7.2.1), the only
	// part of the header the AAD binds to the ciphertext: the members of
	// Header that are not in Protected are unprotected and
	// attacker-controlled, so decisions such as "typ" or "cty" (RFC 8725
	// §3.11) must read Protected. It is never nil on a decrypted Message
	// (an empty Header when a JSON token has no protected header). A
	// compact token has only a protected header, so there Protected is
	// the same *jose.Header as Header.
	Protected *jose.Header
	// AAD is the decoded JWE AAD of a JSON token (RFC 7516 §2), or nil.
	AAD []byte

	hdr jose.Header // storage of Header for the compact calls
}

// NewDecrypter returns a Decrypter for opts. It refuses empty allow-lists,
// algorithms this module does not implement, zero or several key sources,
// and, with ErrInvalidKey, a Key that can serve none of KeyAlgorithms
// ([keysource.CheckFits]: its type, curve or size fits none, or, for a
// *jose.JWK, its "alg", "use" and "key_ops" permit none of those it fits),
// a Key that cannot decrypt with any of those it fits (a public key, or an
// opaque key that cannot decrypt, for RSA1_5, RSA-OAEP*, ECDH-ES* and
// HPKE-*: a private key is needed, [jwa.KeyAlgorithm.DecryptsWith]; a
// private key [jwa.NewKeyDecrypter] refuses, such as an RSA key below
// 2048 bits; a dir key of a size none of ContentEncryptions takes), and
// Keys mixing secret and public keys or holding public keys, which
// decrypt nothing. A Key that can serve some of the algorithms is
// accepted; a token of another is refused.
func NewDecrypter(opts DecryptOptions) (*Decrypter, error) {
	if len(opts.KeyAlgorithms) == 0 {
		return nil, errors.New("jwe: DecryptOptions.KeyAlgorithms is empty")
	}
	if len(opts.ContentEncryptions) == 0 && !onlyIntegrated(opts.KeyAlgorithms) {
		return nil, errors.New("jwe: DecryptOptions.ContentEncryptions is empty")
	}
	for _, a := range opts.KeyAlgorithms {
		if !a.Known() {
			return nil, fmt.Errorf("jwe: key management algorithm %q: %w", a, jose.ErrUnsupportedAlgorithm)
		}
	}
	for _, e := range opts.ContentEncryptions {
		if !e.Known() {
			return nil, fmt.Errorf("jwe: content encryption %q: %w", e, jose.ErrUnsupportedAlgorithm)
		}
	}
	d := new(Decrypter)
	if err := keysource.Check(opts.KeyAlgorithms, opts.Key, opts.Keys, opts.KeyFunc, opts.KeyFuncContext, decryptOp); err != nil {
		return nil, fmt.Errorf("jwe: DecryptOptions: %w", err)
	}
	if err := checkDecryptionKey(opts.KeyAlgorithms, opts.ContentEncryptions, opts.Key, opts.Keys); err != nil {
		return nil, fmt.Errorf("jwe: DecryptOptions: %w", err)
	}
	lim := opts.Limits.WithDefaults()
	key := opts.Key
	if b, ok := key.([]byte); ok {
		// Prepared on first use: keep a copy the caller cannot change.
		key = bytes.Clone(b)
	}
	d.key = key
	d.keys = opts.Keys
	d.keyFunc = keysource.New("jwe", opts.KeyFunc, opts.KeyFuncContext, lim)
	d.lim = lim
	// Headers nest inside the JSON serialization's recipients array.
	d.jlim = jsonx.Limits{MaxDepth: lim.MaxJSONDepth + 3, MaxMembers: lim.MaxHeaderMembers}
	d.cache.Max = maxCached
	// The allow-lists are copied (into d for one value each): the caller
	// may reuse its slices.
	d.algs = append(d.algOne[:0:min(1, len(opts.KeyAlgorithms))], opts.KeyAlgorithms...)
	d.encs = append(d.encOne[:0:min(1, len(opts.ContentEncryptions))], opts.ContentEncryptions...)
	if len(opts.Critical) > 0 {
		d.crit = slices.Clone(opts.Critical)
	}
	return d, nil
}

// decryptOp is the key operation alg asks of a decryption key.
func decryptOp(alg jwa.KeyAlgorithm) jose.KeyOp { return keyOp(alg, true) }

// token is a parsed JWE, in either serialization.
type token struct {
	protectedB64 []byte // Encoded Protected Header, the AAD input
	protected    *jose.Header
	shared       *jose.Header // JSON: shared unprotected header
	recipients   []recipient
	aadB64       []byte // JSON: encoded JWE AAD, nil when absent
	hasAAD       bool
	iv, ct, tag  []byte       // encoded
	one          [1]recipient // the recipient of a compact token (recipients nil)
	buf          []byte       // capacity for the decoded parts, from index 0, or nil
	reuse        bool         // buf is the result's: Plaintext keeps its capacity
}

type recipient struct {
	header *jose.Header // JSON: per-recipient unprotected header
	ek     []byte       // encoded JWE Encrypted Key
}

// checkHeaderSize refuses an empty Encoded Protected Header, or one that
// decodes to more than Limits.MaxHeaderSize bytes, before decoding it.
func (d *Decrypter) checkHeaderSize(enc []byte) error {
	if len(enc) == 0 {
		return fmt.Errorf("jwe: empty protected header: %w", jose.ErrMalformed)
	}
	if b64enc.DecodedLen(len(enc)) > d.lim.MaxHeaderSize {
		return fmt.Errorf("jwe: protected header of %d encoded bytes: %w", len(enc), jose.ErrLimitExceeded)
	}
	return nil
}

// parseProtected decodes an Encoded Protected Header, which has passed
// checkHeaderSize, into buf's spare capacity and parses it; it returns
// buf's remaining spare capacity.
func (d *Decrypter) parseProtected(buf, enc []byte) (*jose.Header, []byte, error) {
	h := new(jose.Header)
	rest, err := d.parseProtectedInto(h, buf, enc)
	if err != nil {
		return nil, nil, err
	}
	return h, rest, nil
}

// parseProtectedInto is parseProtected into *h.
func (d *Decrypter) parseProtectedInto(h *jose.Header, buf, enc []byte) ([]byte, error) {
	raw, err := b64enc.AppendDecode(buf, enc, jose.ErrMalformed)
	if err != nil {
		return nil, fmt.Errorf("jwe: protected header: %w", err)
	}
	if err := jose.JWEHeader.ParseInto(h, raw, d.lim); err != nil {
		return nil, fmt.Errorf("jwe: protected header: %w", err)
	}
	return raw[len(raw):], nil
}

// decrypt runs RFC 7516 §5.2 steps 5-18 on a parsed token and stores the
// result in m; on error m may hold partial results. ctx bounds the wait on
// a key function.
func (d *Decrypter) decrypt(ctx context.Context, t *token, m *Message) error {
	if t.shared != nil {
		if err := d.checkUnprotectedHeader(t.shared); err != nil {
			return err
		}
	}
	// Header checks for every recipient first; no key work until one
	// passes them all.
	type candidate struct {
		h   *jose.Header
		alg jwa.KeyAlgorithm
		enc jwa.ContentEncryption
		ek  []byte
	}
	var candBuf [1]candidate
	cands := candBuf[:0]
	var firstErr error
	recipients := t.recipients
	if recipients == nil {
		recipients = t.one[:]
	}
	for _, r := range recipients {
		h, alg, enc, err := d.checkRecipient(t, r.header)
		if err != nil {
			// A recipient whose alg or enc the caller does not accept is
			// skipped; any other fault refuses the whole token.
			if len(recipients) == 1 || !errors.Is(err, jose.ErrAlgorithmNotAllowed) {
				return err
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		cands = append(cands, candidate{h, alg, enc, r.ek})
	}
	if len(cands) == 0 {
		return firstErr
	}

	// Decode the shared parts once into one buffer: ciphertext || tag
	// (which the plaintext overwrites, from the buffer's start), iv, then
	// room for the longest encrypted key.
	b64len := b64enc.DecodedLen
	maxEK := 0
	for _, c := range cands {
		maxEK = max(maxEK, b64len(len(c.ek)))
	}
	buf := t.buf[:0]
	if need := b64len(len(t.iv)) + b64len(len(t.ct)) + b64len(len(t.tag)) + maxEK; cap(buf) < need {
		buf, t.reuse = make([]byte, 0, need), false
	}
	buf, err := b64enc.AppendDecode(buf, t.ct, jose.ErrMalformed)
	if err != nil {
		return fmt.Errorf("jwe: ciphertext: %w", err)
	}
	buf, err = b64enc.AppendDecode(buf, t.tag, jose.ErrMalformed)
	if err != nil {
		return fmt.Errorf("jwe: tag: %w", err)
	}
	ctTag := buf[:len(buf):len(buf)]
	tagLen := len(ctTag) - b64len(len(t.ct))
	buf, err = b64enc.AppendDecode(buf, t.iv, jose.ErrMalformed)
	if err != nil {
		return fmt.Errorf("jwe: iv: %w", err)
	}
	iv := buf[len(ctTag):len(buf):len(buf)]
	ekBuf := buf[len(buf):]
	var aadDec []byte
	aad := t.protectedB64
	if t.hasAAD {
		if aadDec, err = jose.Base64URLDecode(t.aadB64); err != nil {
			return fmt.Errorf("jwe: aad: %w", err)
		}
		aad = make([]byte, 0, len(t.protectedB64)+1+len(t.aadB64))
		aad = append(aad, t.protectedB64...)
		aad = append(aad, '.')
		aad = append(aad, t.aadB64...)
	}

	var saved []byte // ciphertext || tag, kept when several attempts may be needed
	attempts := 0
	lookups := 0 // key function calls (Limits.MaxKeyLookups)
	// PBKDF2 iterations this token may still cost, over all its PBES2
	// recipients and keys (each p2c is already within the limits): one
	// maximum count in all.
	pbes2Left := d.lim.PBES2MaxCount
	failed := false // some decryption was attempted and failed
	var lastErr error
	// A key's device that failed (jwa.ErrKeyDevice) is reported before any
	// other failure, the attempt limit included: the token may have been
	// good, and an outage must not read as a bad token.
	var deviceErr error
	for _, c := range cands {
		if attempts == d.lim.MaxKeyAttempts {
			return d.errKeyAttempts(deviceErr) // before the key source: a KeyFunc may be costly
		}
		if d.keyFunc.Set() {
			if err := d.keyFunc.Spent(lookups); err != nil {
				return err
			}
		}
		if len(iv) != c.enc.IVSize() || tagLen != c.enc.TagSize() || shortIntegrated(c.alg, ctTag) {
			failed = true
			continue
		}
		n := len(ctTag) - tagLen
		if c.alg.IsHPKEIntegrated() {
			n -= hpkeAEADTagSize // the HPKE tag ends the JWE Ciphertext (shortIntegrated: it is there)
		}
		if c.h.Compression == "DEF" && n > d.lim.MaxCompressedSize {
			// Before the key work: inflation's cost follows the
			// compressed bytes, not the output (Limits.MaxCompressedSize).
			return fmt.Errorf("jwe: compressed ciphertext of %d bytes exceeds %d: %w", n, d.lim.MaxCompressedSize, jose.ErrLimitExceeded)
		}
		ek, err := b64enc.AppendDecode(ekBuf[:0], c.ek, jose.ErrMalformed)
		if err != nil {
			return fmt.Errorf("jwe: encrypted_key: %w", err)
		}
		if c.alg.IsDirect() && len(ek) != 0 {
			return fmt.Errorf("jwe: %s with a non-empty encrypted key: %w", c.alg, jose.ErrMalformed)
		}
		params, err := keyParams(c.h, c.alg)
		if err != nil {
			return err
		}
		var keyBuf [MaxKeyCandidates]keyRef
		keys, err := d.keysFor(ctx, &lookups, keyBuf[:0], c.h, c.alg, c.enc, params.EPK)
		if err != nil {
			if d.keyFunc.Set() && ctx.Err() != nil {
				return err // the wait is over: no other recipient is looked up
			}
			lastErr = err
			continue
		}
		for _, k := range keys {
			p, err := d.prepare(k, c.alg, c.enc)
			if err != nil {
				lastErr = err
				continue
			}
			if attempts > 0 || len(keys) > 1 || len(cands) > 1 {
				if saved == nil {
					saved = slices.Clone(ctTag)
				} else {
					copy(ctTag, saved)
				}
			}
			if attempts == d.lim.MaxKeyAttempts {
				return d.errKeyAttempts(deviceErr)
			}
			if c.alg.IsPBES2() {
				if pbes2Left -= c.h.P2C; pbes2Left < 0 {
					return fmt.Errorf("jwe: PBES2 work of one token exceeds %d iterations: %w", d.lim.PBES2MaxCount, jose.ErrLimitExceeded)
				}
			}
			attempts++
			aead := p.aead
			if id, ok := p.kd.(jwa.IntegratedDecrypter); ok { // HPKE Integrated Encryption
				aead, err = id.IntegratedAEAD(ek)
			} else if aead == nil {
				kp := params // on the heap only for key management
				var cek []byte
				if cek, err = p.kd.DecryptKey(ek, c.enc, &kp); err == nil {
					aead, err = jwa.NewContentCipher(c.enc, cek)
					clear(cek)
				}
			}
			if err != nil {
				switch {
				case errors.Is(err, jwa.ErrKeyDevice):
					deviceErr = fmt.Errorf("jwe: key decryption: %w", err)
				case errors.Is(err, jwa.ErrInvalidParameter):
					lastErr = fmt.Errorf("jwe: key decryption: %w: %w", err, jose.ErrMalformed)
				default:
					failed = true
				}
				continue
			}
			pt, err := aead.Open(ctTag[:0], iv, ctTag, aad)
			if err != nil {
				failed = true
				continue
			}
			pt = pt[:len(pt):len(pt)]
			if c.h.Compression == "DEF" {
				if pt, err = inflate(pt, d.lim.MaxDecompressedSize); err != nil {
					return err
				}
			}
			if t.reuse && c.h.Compression == "" {
				pt = buf[:len(pt)] // keep the whole buffer for the next call
			}
			m.Plaintext, m.Header, m.AAD = pt, c.h, aadDec
			m.Protected = t.protected
			if m.Protected == nil {
				m.Protected = new(jose.Header)
			}
			return nil
		}
	}
	if deviceErr != nil {
		return deviceErr
	}
	if failed || lastErr == nil {
		return errDecrypt
	}
	return lastErr
}

// errKeyAttempts refuses a key decryption past Limits.MaxKeyAttempts, or
// returns deviceErr, the failure of a key's device among the attempts made,
// which may be why the limit was reached.
func (d *Decrypter) errKeyAttempts(deviceErr error) error {
	if deviceErr != nil {
		return deviceErr
	}
	return fmt.Errorf("jwe: the token needs more than %d key decryptions (Limits.MaxKeyAttempts): %w", d.lim.MaxKeyAttempts, jose.ErrLimitExceeded)
}

// checkRecipient merges the headers of one recipient and applies every
// check that needs no key: alg and enc present and allowed, zip, crit and
// the PBES2 iteration count (RFC 7516 §5.2 steps 5-8).
func (d *Decrypter) checkRecipient(t *token, rh *jose.Header) (*jose.Header, jwa.KeyAlgorithm, jwa.ContentEncryption, error) {
	if err := headers.CheckCritical(t.protected, d.crit, t.shared, rh); err != nil {
		return nil, "", "", fmt.Errorf("jwe: JOSE header: %w", err)
	}
	h := t.protected
	if t.shared != nil || rh != nil {
		if rh != nil {
			if err := d.checkUnprotectedHeader(rh); err != nil {
				return nil, "", "", err
			}
		}
		var err error
		if h, err = jose.MergeJOSEHeader(t.protected, t.shared, rh); err != nil {
			return nil, "", "", fmt.Errorf("jwe: JOSE header: %w", err)
		}
	}
	if h == nil {
		return nil, "", "", fmt.Errorf("jwe: no header: %w", jose.ErrMalformed)
	}
	if h.Algorithm == "" {
		return nil, "", "", fmt.Errorf(`jwe: missing "alg": %w`, jose.ErrMalformed)
	}
	if alg := jwa.KeyAlgorithm(h.Algorithm); alg.IsHPKEIntegrated() {
		return d.checkIntegrated(t, h, alg) // hpke.go
	}
	if h.Encryption == "" {
		return nil, "", "", fmt.Errorf(`jwe: missing "enc": %w`, jose.ErrMalformed)
	}
	alg, enc := jwa.KeyAlgorithm(h.Algorithm), jwa.ContentEncryption(h.Encryption)
	if !slices.Contains(d.algs, alg) {
		return nil, "", "", fmt.Errorf("jwe: alg %s: %w", untrusted.Quote(h.Algorithm), jose.ErrAlgorithmNotAllowed)
	}
	if !slices.Contains(d.encs, enc) {
		return nil, "", "", fmt.Errorf("jwe: enc %s: %w", untrusted.Quote(h.Encryption), jose.ErrAlgorithmNotAllowed)
	}
	if alg.IsDirect() && len(t.recipients) > 1 {
		return nil, "", "", fmt.Errorf("jwe: %s in a token with %d recipients: %w", alg, len(t.recipients), jose.ErrMalformed)
	}
	if h.Compression != "" && h.Compression != "DEF" {
		return nil, "", "", fmt.Errorf("jwe: zip %s: %w", untrusted.Quote(h.Compression), jose.ErrUnsupportedAlgorithm)
	}
	if alg.IsPBES2() && (h.P2C < d.lim.PBES2MinCount || h.P2C > d.lim.PBES2MaxCount) {
		return nil, "", "", fmt.Errorf("jwe: p2c %d outside [%d, %d]: %w", h.P2C, d.lim.PBES2MinCount, d.lim.PBES2MaxCount, jose.ErrLimitExceeded)
	}
	return h, alg, enc, nil
}

// checkUnprotectedHeader refuses "zip" (RFC 7516 §4.1.3), which must be
// integrity protected, in an unprotected header; "crit" is checked by
// headers.CheckCritical.
func (d *Decrypter) checkUnprotectedHeader(h *jose.Header) error {
	if h.Compression != "" || h.Has("zip") {
		return fmt.Errorf(`jwe: "zip" in an unprotected header: %w`, jose.ErrMalformed)
	}
	return nil
}

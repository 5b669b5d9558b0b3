package jwe

import (
	"bytes"
	"context"
	"crypto/cipher"
	"errors"
	"fmt"
	"io"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
	"github.com/josebench/josebench/jose/internal/jsonx"
	"github.com/josebench/josebench/jose/jwa"
)

// DecryptJSON decrypts a JWE JSON Serialization, flattened or general
// (RFC 7516 §7.2). With several recipients, the first one whose alg is
// allowed, whose key is found and that decrypts gives the message.
//
// A general serialization may also carry, beside "recipients", a top-level
// "encrypted_key" byte-identical to the first recipient's: go-jose v4
// writes one in every token with two or more recipients. It is ignored;
// any other top-level "encrypted_key" or "header" beside "recipients" is
// refused as malformed.
func (d *Decrypter) DecryptJSON(data []byte) (*Message, error) {
	return d.DecryptJSONContext(context.Background(), data)
}

// DecryptJSONContext is [Decrypter.DecryptJSON] with ctx bounding the wait
// on the key source, as [Decrypter.DecryptCompactContext] says.
func (d *Decrypter) DecryptJSONContext(ctx context.Context, data []byte) (*Message, error) {
	if len(data) > d.lim.MaxTokenSize {
		return nil, fmt.Errorf("jwe: token of %d bytes: %w", len(data), jose.ErrLimitExceeded)
	}
	var (
		t                    token
		flat                 recipient
		hasFlat, hasRecips   bool
		hasTopEK             bool
		hasProtected, hasCT  bool
		protectedB64, recips []byte
	)
	str := func(name string, v []byte) ([]byte, error) {
		if jsonx.KindOf(v) != jsonx.KindString {
			return nil, fmt.Errorf("jwe: member %q is not a string: %w", name, jose.ErrMalformed)
		}
		s, err := jsonx.StringBytes(v)
		if err != nil {
			return nil, fmt.Errorf("jwe: member %q: %w", name, jose.ErrMalformed)
		}
		return s, nil
	}
	var err error
	scanErr := jsonx.ScanObject(data, d.jlim, func(name, v []byte) error {
		switch string(name) {
		case "protected":
			hasProtected = true
			protectedB64, err = str("protected", v)
		case "unprotected":
			t.shared, err = d.parseUnprotected("unprotected", v)
		case "header":
			hasFlat = true
			flat.header, err = d.parseUnprotected("header", v)
		case "encrypted_key":
			hasTopEK = true
			flat.ek, err = str("encrypted_key", v)
		case "recipients":
			hasRecips, recips = true, v
		case "aad":
			// An empty JWE AAD is an absent one (RFC 7516 §7.2.1:
			// "aad" is present only when the JWE AAD is not empty), so
			// the AAD is then the protected header alone, as peers
			// compute it.
			t.aadB64, err = str("aad", v)
			t.hasAAD = len(t.aadB64) > 0
		case "iv":
			t.iv, err = str("iv", v)
		case "ciphertext":
			hasCT = true
			t.ct, err = str("ciphertext", v)
		case "tag":
			t.tag, err = str("tag", v)
		}
		return err
	})
	if scanErr != nil {
		if errors.Is(scanErr, jose.ErrMalformed) || errors.Is(scanErr, jose.ErrLimitExceeded) {
			return nil, scanErr
		}
		return nil, fmt.Errorf("jwe: JSON serialization: %w: %w", scanErr, jsonSentinel(scanErr))
	}
	// iv and tag are absent when empty (RFC 7516 §7.2.1): only HPKE
	// Integrated Encryption has them empty; for the other algorithms their
	// absence is refused below, as empty values are.
	if !hasCT {
		return nil, fmt.Errorf("jwe: JSON serialization lacks ciphertext: %w", jose.ErrMalformed)
	}
	switch {
	case hasRecips && hasFlat:
		return nil, fmt.Errorf(`jwe: "recipients" beside "header": %w`, jose.ErrMalformed)
	case hasRecips:
		if err := d.parseRecipients(&t, recips); err != nil {
			return nil, err
		}
		// go-jose's copy of the first recipient's encrypted key.
		if hasTopEK && (len(flat.ek) == 0 || !bytes.Equal(flat.ek, t.recipients[0].ek)) {
			return nil, fmt.Errorf(`jwe: "recipients" beside an "encrypted_key" that is not the first recipient's: %w`, jose.ErrMalformed)
		}
	default:
		t.recipients = []recipient{flat}
	}
	if hasProtected {
		if err := d.checkHeaderSize(protectedB64); err != nil {
			return nil, err
		}
		if t.protected, _, err = d.parseProtected(nil, protectedB64); err != nil {
			return nil, err
		}
		t.protectedB64 = protectedB64
	}
	m := new(Message)
	if err := d.decrypt(ctx, &t, m); err != nil {
		return nil, err
	}
	return m, nil
}

// jsonSentinel is the sentinel an error of package jsonx stands for: a
// member-count or depth limit is jose.ErrLimitExceeded, as in a header.
func jsonSentinel(err error) error {
	if le := (*jsonx.LimitError)(nil); errors.As(err, &le) {
		return jose.ErrLimitExceeded
	}
	return jose.ErrMalformed
}

// parseUnprotected parses a shared or per-recipient unprotected header.
func (d *Decrypter) parseUnprotected(name string, v []byte) (*jose.Header, error) {
	if jsonx.KindOf(v) != jsonx.KindObject {
		return nil, fmt.Errorf("jwe: %q is not a JSON object: %w", name, jose.ErrMalformed)
	}
	h, err := jose.JWEHeader.Parse(v, d.lim) // refuses more than MaxHeaderSize bytes first
	if err != nil {
		return nil, fmt.Errorf("jwe: %q header: %w", name, err)
	}
	return h, nil
}

// parseRecipients parses the "recipients" array, refusing more than
// Limits.MaxRecipients before any key work.
func (d *Decrypter) parseRecipients(t *token, v []byte) error {
	if jsonx.KindOf(v) != jsonx.KindArray {
		return fmt.Errorf(`jwe: "recipients" is not an array: %w`, jose.ErrMalformed)
	}
	err := jsonx.ScanArray(v, d.jlim, func(elem []byte) error {
		if len(t.recipients) == d.lim.MaxRecipients {
			return fmt.Errorf("jwe: more than %d recipients: %w", d.lim.MaxRecipients, jose.ErrLimitExceeded)
		}
		if jsonx.KindOf(elem) != jsonx.KindObject {
			return fmt.Errorf("jwe: recipient is not a JSON object: %w", jose.ErrMalformed)
		}
		var r recipient
		err := jsonx.ScanObject(elem, d.jlim, func(name, v []byte) error {
			var err error
			switch string(name) {
			case "header":
				r.header, err = d.parseUnprotected("header", v)
			case "encrypted_key":
				if jsonx.KindOf(v) != jsonx.KindString {
					return fmt.Errorf(`jwe: "encrypted_key" is not a string: %w`, jose.ErrMalformed)
				}
				if r.ek, err = jsonx.StringBytes(v); err != nil {
					err = fmt.Errorf(`jwe: "encrypted_key": %w`, jose.ErrMalformed)
				}
			}
			return err
		})
		if err != nil {
			return err
		}
		t.recipients = append(t.recipients, r)
		return nil
	})
	if err != nil {
		if errors.Is(err, jose.ErrMalformed) || errors.Is(err, jose.ErrLimitExceeded) {
			return err
		}
		return fmt.Errorf("jwe: recipients: %w: %w", err, jsonSentinel(err))
	}
	if len(t.recipients) == 0 {
		return fmt.Errorf("jwe: empty recipients array: %w", jose.ErrMalformed)
	}
	return nil
}

// Flattened encrypts plaintext and returns the flattened JWE JSON
// Serialization (RFC 7516 §7.2.2), with every header member in the
// protected header except those of [EncrypterOptions.Unprotected]. A
// non-empty aad is the JWE AAD (RFC 7516 §5.1 step 14).
func (e *Encrypter) Flattened(plaintext, aad []byte) ([]byte, error) {
	return e.encryptFlattened(nil, plaintext, aad)
}

// encryptFlattened is [Encrypter.Flattened] with the CEK and IV read from
// rnd ([readRand]: crypto/rand when nil).
func (e *Encrypter) encryptFlattened(rnd io.Reader, plaintext, aad []byte) ([]byte, error) {
	aead, ek, p, err := e.contentKey(rnd)
	if err != nil {
		return nil, err
	}
	hdr, err := e.encodedHeader(p)
	if err != nil {
		return nil, err
	}
	return e.flattened(rnd, plaintext, aad, aead, ek, hdr)
}

// flattened seals plaintext with aead under the encoded protected header
// hdr and returns the flattened token, whose encrypted key is ek, under
// an IV read from rnd ([readRand]).
func (e *Encrypter) flattened(rnd io.Reader, plaintext, aad []byte, aead cipher.AEAD, ek, hdr []byte) ([]byte, error) {
	var err error
	s := e.seal(rnd, aead, hdr, plaintext, aad)
	out := []byte(`{"protected":"`)
	out = append(out, hdr...)
	out = append(out, '"')
	if e.unprotected != nil {
		out = append(out, `,"unprotected":`...)
		if out, err = e.unprotected.AppendJSON(out); err != nil {
			return nil, fmt.Errorf("jwe: unprotected header: %w", err)
		}
	}
	if len(ek) > 0 {
		out = append(out, `,"encrypted_key":`...)
		out = appendB64String(out, ek)
	}
	return s.appendJSONTail(out, aad), nil
}

// appendJSONTail appends the aad, iv, ciphertext and tag members and closes
// the JSON object.
func (s *sealed) appendJSONTail(out, aad []byte) []byte {
	if len(aad) > 0 {
		out = append(out, `,"aad":`...)
		out = appendB64String(out, aad)
	}
	// iv and tag are absent when empty (RFC 7516 §7.2.1), as with HPKE
	// Integrated Encryption.
	if len(s.iv) > 0 {
		out = append(out, `,"iv":`...)
		out = appendB64String(out, s.iv)
	}
	out = append(out, `,"ciphertext":`...)
	out = appendB64String(out, s.raw[:len(s.raw)-s.tagSize])
	if s.tagSize > 0 {
		out = append(out, `,"tag":`...)
		out = appendB64String(out, s.raw[len(s.raw)-s.tagSize:])
	}
	return append(out, '}')
}

// Recipient is one recipient of [EncryptGeneral].
type Recipient struct {
	// Algorithm is the key management algorithm, written as "alg" in the
	// recipient's header.
	Algorithm jwa.KeyAlgorithm
	// Key is the recipient's key, of a type [NewEncrypter] accepts.
	Key any
	// Header is the recipient's JWE Per-Recipient Unprotected Header
	// (RFC 7516 §7.2.1), or nil. Its member names must be disjoint from
	// the protected and shared unprotected headers; the key management
	// parameters (alg, epk, iv, tag, p2s, p2c) are added to it and must
	// not be set by the caller, except an "alg" equal to Algorithm.
	Header *jose.Header
}

// EncryptGeneral encrypts plaintext once, with one fresh CEK, to every
// recipient and returns the general JWE JSON Serialization
// (RFC 7516 §7.2.1). The protected header holds "enc" and the members of
// opts (kid, typ, cty, zip, apu, apv, extra); each recipient's header holds
// its "alg" and key management parameters, and the "kid" of a *jose.JWK key
// when no header sets one. "dir" and ECDH-ES (direct key agreement) are
// allowed only as the single recipient. A non-empty aad is
// the JWE AAD. opts may be nil.
func EncryptGeneral(enc jwa.ContentEncryption, plaintext, aad []byte, opts *EncrypterOptions, recipients ...Recipient) ([]byte, error) {
	return encryptGeneral(nil, enc, plaintext, aad, opts, recipients)
}

// encryptGeneral is [EncryptGeneral] with the CEK and IV read from rnd
// ([readRand]: crypto/rand when nil).
func encryptGeneral(rnd io.Reader, enc jwa.ContentEncryption, plaintext, aad []byte, opts *EncrypterOptions, recipients []Recipient) ([]byte, error) {
	if opts == nil {
		opts = &EncrypterOptions{}
	}
	if !enc.Known() {
		return nil, fmt.Errorf("jwe: content encryption %q: %w", enc, jose.ErrUnsupportedAlgorithm)
	}
	if len(recipients) == 0 {
		return nil, errors.New("jwe: no recipients")
	}
	for _, r := range recipients {
		if r.Algorithm.IsHPKEIntegrated() {
			return nil, fmt.Errorf("jwe: %s encrypts the content itself, for one recipient: use an Encrypter", r.Algorithm)
		}
		if r.Algorithm.IsDirect() && len(recipients) > 1 {
			return nil, fmt.Errorf("jwe: %s can only be used with a single recipient", r.Algorithm)
		}
	}
	e := &Encrypter{enc: enc, unprotected: opts.Unprotected}
	var err error
	if _, err = protectedHeader(&e.hdr, "", enc, opts.KeyID, opts); err != nil {
		return nil, err
	}
	e.zip = opts.Compress
	if err := checkUnprotected(opts.Unprotected); err != nil {
		return nil, err
	}
	e.hdr.APU, e.hdr.APV = opts.APU, opts.APV
	protNames := e.hdr.Names()
	if opts.Unprotected != nil {
		if err := checkDisjoint(protNames, opts.Unprotected); err != nil {
			return nil, err
		}
	}
	hj, err := e.hdr.AppendJSON(nil)
	if err != nil {
		return nil, fmt.Errorf("jwe: protected header: %w", err)
	}
	hdr := b64enc.Append(nil, hj)

	var cek []byte
	// The CEK, shared by every recipient, is cleared when the token is
	// made, as the single-recipient path clears its own.
	defer func() { clear(cek) }()
	if !recipients[0].Algorithm.IsDirect() {
		cek = make([]byte, enc.KeySize())
		readRand(rnd, cek)
	}
	type out struct {
		header []byte
		ek     []byte
	}
	outs := make([]out, len(recipients))
	for i, r := range recipients {
		ke, kid, err := newKeyEncrypter(r.Algorithm, r.Key, opts.PBES2Count)
		if err != nil {
			return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
		}
		p := jwa.KeyParams{APU: opts.APU, APV: opts.APV}
		cekOut, ek, err := ke.EncryptKey(cek, enc, &p)
		if err != nil {
			return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
		}
		if cek == nil {
			cek = cekOut
		}
		h, err := recipientHeader(r, &p)
		if err != nil {
			return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
		}
		// A JWK's "kid" names the recipient unless a header already has one.
		if kid != "" && h.KeyID == "" && opts.KeyID == "" && (opts.Unprotected == nil || opts.Unprotected.KeyID == "") {
			h.KeyID = kid
		}
		if err := checkUnprotected(h); err != nil {
			return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
		}
		if err := checkDisjoint(protNames, h); err != nil {
			return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
		}
		if opts.Unprotected != nil {
			if err := checkDisjoint(opts.Unprotected.Names(), h); err != nil {
				return nil, fmt.Errorf("jwe: recipient %d: %w", i, err)
			}
		}
		hj, err := h.AppendJSON(nil)
		if err != nil {
			return nil, fmt.Errorf("jwe: recipient %d header: %w", i, err)
		}
		outs[i] = out{hj, ek}
	}
	aead, err := jwa.NewContentCipher(enc, cek)
	if err != nil {
		return nil, fmt.Errorf("jwe: content encryption: %w", err)
	}
	s := e.seal(rnd, aead, hdr, plaintext, aad)

	b := []byte(`{"protected":"`)
	b = append(b, hdr...)
	b = append(b, '"')
	if opts.Unprotected != nil {
		b = append(b, `,"unprotected":`...)
		if b, err = opts.Unprotected.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("jwe: unprotected header: %w", err)
		}
	}
	b = append(b, `,"recipients":[`...)
	for i, o := range outs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"header":`...)
		b = append(b, o.header...)
		if len(o.ek) > 0 {
			b = append(b, `,"encrypted_key":`...)
			b = appendB64String(b, o.ek)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	return s.appendJSONTail(b, aad), nil
}

// recipientHeader returns a copy of r.Header with "alg" and the key
// management parameters of p (except apu and apv, which are protected).
func recipientHeader(r Recipient, p *jwa.KeyParams) (*jose.Header, error) {
	var h jose.Header
	if r.Header != nil {
		h = *r.Header
	}
	if h.Algorithm != "" && h.Algorithm != string(r.Algorithm) {
		return nil, fmt.Errorf(`jwe: recipient header "alg" %s differs from the algorithm %q`, untrusted.Quote(h.Algorithm), r.Algorithm)
	}
	h.Algorithm = string(r.Algorithm)
	if (p.EPK != nil && h.EPK != nil) || (p.IV != nil && h.IV != nil) || (p.Tag != nil && h.Tag != nil) ||
		(p.P2S != nil && h.P2S != nil) || (p.P2C != 0 && h.P2C != 0) || (p.EK != nil && h.Has("ek")) {
		return nil, errors.New("jwe: recipient header sets a key management parameter")
	}
	if p.EPK != nil {
		j, err := epkToJWK(p.EPK)
		if err != nil {
			return nil, err
		}
		h.EPK = j
	}
	if p.IV != nil {
		h.IV = p.IV
	}
	if p.Tag != nil {
		h.Tag = p.Tag
	}
	if p.P2S != nil {
		h.P2S, h.P2C = p.P2S, p.P2C
	}
	if p.EK != nil {
		h.EK = p.EK
	}
	return &h, nil
}

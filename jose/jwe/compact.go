package jwe

import (
	"bytes"
	"context"
	"crypto/cipher"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/b64enc"
)

// Compact encrypts plaintext and returns the JWE Compact Serialization
// (RFC 7516 §3.1, §7.1).
func (e *Encrypter) Compact(plaintext []byte) ([]byte, error) {
	return e.AppendCompact(nil, plaintext)
}

// AppendCompact encrypts plaintext and appends the JWE Compact
// Serialization (RFC 7516 §3.1, §7.1), as [Encrypter.Compact] makes it, to
// dst, returning the extended buffer. A caller that reuses dst (dst[:0] of
// the previous token) encrypts with "dir" without allocating once dst is
// large enough. plaintext must not overlap dst's spare capacity. On error
// dst is returned unchanged.
func (e *Encrypter) AppendCompact(dst, plaintext []byte) ([]byte, error) {
	return e.encryptCompact(nil, dst, plaintext)
}

// encryptCompact is [Encrypter.AppendCompact] with the CEK and IV read
// from rnd ([readRand]: crypto/rand when nil).
func (e *Encrypter) encryptCompact(rnd io.Reader, dst, plaintext []byte) ([]byte, error) {
	if e.unprotected != nil {
		return dst, errors.New("jwe: the compact serialization has no unprotected header")
	}
	aead, ek, p, err := e.contentKey(rnd)
	if err != nil {
		return dst, err
	}
	hdr, err := e.encodedHeader(p)
	if err != nil {
		return dst, err
	}
	return e.appendCompact(rnd, dst, plaintext, aead, ek, hdr), nil
}

// appendCompact seals plaintext with aead under the encoded protected
// header hdr and appends the compact token, whose encrypted key is ek,
// under an IV read from rnd ([readRand]).
//
// The ciphertext is sealed straight into the token, where its encoding
// goes, and encoded there in place (b64enc.EncodeInPlace): the token
// is the only buffer, one allocation of its size unless dst has room, and
// the plaintext is read once by the AEAD and the ciphertext once by the
// encoder, the floor of a compact JWE.
func (e *Encrypter) appendCompact(rnd io.Reader, dst, plaintext []byte, aead cipher.AEAD, ek, hdr []byte) []byte {
	if e.zip {
		plaintext = deflate(plaintext)
	}
	ivSize, tagSize := e.enc.IVSize(), e.enc.TagSize()
	b64 := b64enc.EncodedLen
	// The AEAD overhead bounds the ciphertext expansion (tag, and CBC
	// padding); the room after the IV must hold both the sealed bytes and
	// their encoding. Past the token's end, the buffer holds the raw IV
	// and tag while they are needed (on the stack they would escape
	// through the AEAD interface).
	maxCT := len(plaintext) + aead.Overhead() - tagSize
	head := len(hdr) + 1 + b64(len(ek)) + 1 + b64(ivSize) + 1
	end := len(dst) + head + max(maxCT+tagSize, b64(maxCT)+1+b64(tagSize))
	out := slices.Grow(dst, end-len(dst)+ivSize+tagSize)
	scratch := out[end : end+ivSize+tagSize]
	iv, tag := scratch[:ivSize], scratch[ivSize:]
	readRand(rnd, iv)
	out = append(out, hdr...)
	out = append(out, '.')
	out = b64enc.Append(out, ek)
	out = append(out, '.')
	out = b64enc.Append(out, iv)
	out = append(out, '.')
	p := len(out)
	raw := aead.Seal(out[p:p:end], iv, plaintext, hdr)
	ctLen := len(raw) - tagSize
	copy(tag, raw[ctLen:]) // the encoding of the ciphertext overwrites it
	out = out[:p+len(b64enc.EncodeInPlace(out[p:end], ctLen))]
	out = append(out, '.')
	out = b64enc.Append(out, tag) // before end: the tag is not overwritten
	clear(scratch)
	return out
}

// DecryptCompact decrypts a JWE Compact Serialization (RFC 7516 §5.2,
// §7.1).
func (d *Decrypter) DecryptCompact(tok []byte) (*Message, error) {
	return d.DecryptCompactContext(context.Background(), tok)
}

// DecryptCompactContext is [Decrypter.DecryptCompact] with ctx bounding
// the wait on the key source: ctx is checked before DecryptOptions.KeyFunc
// or KeyFuncContext is called and passed to KeyFuncContext, and once it is
// done the call returns an error wrapping ctx.Err() (a KeyFunc, which
// takes no context, cannot be interrupted once called). With Key or Keys
// nothing waits and ctx is not consulted; the call then costs what
// DecryptCompact costs, with no allocation more. The methods without a
// context are these with context.Background().
func (d *Decrypter) DecryptCompactContext(ctx context.Context, tok []byte) (*Message, error) {
	m := new(Message)
	if err := d.DecryptCompactIntoContext(ctx, m, tok); err != nil {
		return nil, err
	}
	m.Plaintext = m.Plaintext[:len(m.Plaintext):len(m.Plaintext)]
	return m, nil
}

// DecryptCompactInto decrypts a JWE Compact Serialization (RFC 7516 §5.2,
// §7.1) as [Decrypter.DecryptCompact] does, with the same checks, and
// stores the result in m, overwriting its previous contents. m.Plaintext
// reuses the capacity of m.Plaintext when it is large enough (except for
// "zip":"DEF", whose inflated plaintext is a new buffer), and m.Header
// points to storage inside m: a caller that reuses one Message decrypts
// without allocating once its buffer is warm, with "dir" (and a protected
// header like the previous token's). The previous m.Plaintext and
// *m.Header are then overwritten, so they must not be retained across
// calls; modifying *m.Header affects nothing else. m.Protected is m.Header
// (a compact token is protected as a whole). tok must not overlap
// m.Plaintext's buffer. On error the buffer of m.Plaintext is zeroed,
// m.Plaintext has length 0 and m.Header, m.Protected and m.AAD are nil: no
// unauthenticated plaintext is exposed.
func (d *Decrypter) DecryptCompactInto(m *Message, tok []byte) error {
	return d.DecryptCompactIntoContext(context.Background(), m, tok)
}

// DecryptCompactIntoContext is [Decrypter.DecryptCompactInto] with ctx
// bounding the wait on the key source, as [Decrypter.DecryptCompactContext]
// says; with Key or Keys it allocates no more than DecryptCompactInto.
func (d *Decrypter) DecryptCompactIntoContext(ctx context.Context, m *Message, tok []byte) error {
	err := d.decryptCompact(ctx, m, tok)
	if err != nil {
		clear(m.Plaintext[:cap(m.Plaintext)])
		m.Plaintext, m.Header, m.Protected, m.AAD, m.hdr = m.Plaintext[:0], nil, nil, nil, jose.Header{}
	}
	return err
}

func (d *Decrypter) decryptCompact(ctx context.Context, m *Message, tok []byte) error {
	m.Header, m.Protected, m.AAD = nil, nil, nil
	if len(tok) > d.lim.MaxTokenSize {
		return fmt.Errorf("jwe: token of %d bytes: %w", len(tok), jose.ErrLimitExceeded)
	}
	// Five segments: the first three dots are found from the start and the
	// last from the end, so that the ciphertext, the one long segment, is
	// not scanned for dots; a dot in it (a sixth segment) is refused by its
	// strict base64url decoding, before any key is used. A token of a
	// million dots costs no more than its length.
	var seg [5][]byte
	rest := tok
	for i := 0; i < 3; i++ {
		j := bytes.IndexByte(rest, '.')
		if j < 0 {
			return fmt.Errorf("jwe: compact token has %d segments, not 5: %w", i+1, jose.ErrMalformed)
		}
		seg[i], rest = rest[:j], rest[j+1:]
	}
	j := bytes.LastIndexByte(rest, '.')
	if j < 0 {
		return fmt.Errorf("jwe: compact token has 4 segments, not 5: %w", jose.ErrMalformed)
	}
	seg[3], seg[4] = rest[:j], rest[j+1:]
	if err := d.checkHeaderSize(seg[0]); err != nil {
		return err
	}
	// One buffer, m.Plaintext's if it is large enough, for every decoded
	// part: first the header (parsed, then overwritten: jose.ParseHeader
	// copies what it keeps), then ciphertext || tag (which the plaintext
	// overwrites, so that it starts the buffer), iv and encrypted key.
	n := 0
	for _, s := range seg {
		n += b64enc.DecodedLen(len(s))
	}
	var t token
	var parsed *jose.Header // the header parsed here, to cache once decrypted
	if ch := d.headers.Get(seg[0]); ch != nil {
		// A header seen before: copy it into m's storage (nothing done to
		// *m.Header reaches the cache), skip the parse.
		m.hdr = *ch
		n -= b64enc.DecodedLen(len(seg[0]))
		t.buf = m.Plaintext[:0]
		if cap(t.buf) < n {
			t.buf = make([]byte, 0, n)
		}
	} else {
		buf := m.Plaintext[:0]
		if cap(buf) < n {
			buf = make([]byte, 0, n)
		}
		// Parsed into m's storage: no Header is allocated, and the
		// cache copies it (hdrcache) once the token has decrypted.
		if _, err := d.parseProtectedInto(&m.hdr, buf, seg[0]); err != nil {
			return err
		}
		parsed = &m.hdr
		t.buf = buf
	}
	t.reuse = true
	t.protected = &m.hdr
	t.protectedB64 = seg[0]
	t.iv, t.ct, t.tag = seg[2], seg[3], seg[4]
	t.one[0].ek = seg[1]
	if err := d.decrypt(ctx, &t, m); err != nil {
		return err
	}
	if parsed != nil {
		d.headers.Authenticated(seg[0], parsed)
	}
	return nil
}

package jwe

import (
	"fmt"
	"maps"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// The HPKE Key Encryption algorithms (jwa.HPKE0KE ..., from
// draft-ietf-jose-hpke-encrypt-20, a draft whose names may change) carry
// the HPKE encapsulated secret in the "ek" header parameter (§4.1). The
// jose package does not register "ek" yet, so it lives in Header.Extra;
// these helpers read and write it there.

// hpkeEK returns the decoded "ek" of h: a string of canonical base64url.
func hpkeEK(h *jose.Header) ([]byte, error) {
	raw, ok := h.Extra["ek"]
	if !ok {
		return nil, fmt.Errorf(`jwe: %s needs the header parameter "ek": %w`, h.Algorithm, jose.ErrMalformed)
	}
	if jsonx.KindOf(raw) != jsonx.KindString {
		return nil, fmt.Errorf(`jwe: header parameter "ek" is not a string: %w`, jose.ErrMalformed)
	}
	s, err := jsonx.String(raw)
	if err != nil {
		return nil, fmt.Errorf(`jwe: header parameter "ek": %v: %w`, err, jose.ErrMalformed)
	}
	ek, err := jose.Base64URLDecode(s)
	if err != nil {
		return nil, fmt.Errorf(`jwe: header parameter "ek": %w`, err)
	}
	return ek, nil
}

// hpkeSetEK sets "ek" in a recipient's header to ek, base64url-encoded.
func hpkeSetEK(h *jose.Header, ek []byte) error {
	h.Extra = maps.Clone(h.Extra) // h is a copy of the caller's header
	if err := h.Set("ek", jose.Base64URLEncode(ek)); err != nil {
		return fmt.Errorf("jwe: %w", err)
	}
	return nil
}

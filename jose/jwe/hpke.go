package jwe

import (
	"fmt"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// The HPKE Key Encryption algorithms (jwa.HPKE0KE ..., from
// draft-ietf-jose-hpke-encrypt-20, a draft whose names may change) carry
// the HPKE encapsulated secret in the "ek" header parameter (§4.1),
// jose.Header.EK, which jose decodes and bounds.

// hpkeEK returns the "ek" of h, required with an HPKE Key Encryption
// algorithm. A "psk_id" (HPKE mode_psk, draft-ietf-jose-hpke-encrypt-20
// §4) is not supported.
func hpkeEK(h *jose.Header) ([]byte, error) {
	if h.Has("psk_id") {
		return nil, fmt.Errorf(`jwe: "psk_id" (HPKE mode_psk): %w`, jose.ErrUnsupportedAlgorithm)
	}
	if h.EK == nil {
		return nil, fmt.Errorf(`jwe: %s needs the header parameter "ek": %w`, h.Algorithm, jose.ErrMalformed)
	}
	return h.EK, nil
}

// checkIntegratedEnc refuses an "enc" with an HPKE Integrated Encryption
// algorithm, which has none (draft-ietf-jose-hpke-encrypt-20 §5), and a
// missing one with any other algorithm.
func checkIntegratedEnc(alg jwa.KeyAlgorithm, enc jwa.ContentEncryption) error {
	if alg.IsHPKEIntegrated() && enc != "" {
		return fmt.Errorf("jwe: %s encrypts the content itself: enc must be empty, not %s", alg, untrusted.Quote(enc))
	}
	return nil
}

// checkIntegrated is checkRecipient for an HPKE Integrated Encryption
// algorithm (draft-ietf-jose-hpke-encrypt-20 §5): allowed, no "enc", no
// "ek", exactly one recipient; "psk_id" (mode_psk) is not supported.
func (d *Decrypter) checkIntegrated(t *token, h *jose.Header, alg jwa.KeyAlgorithm) (*jose.Header, jwa.KeyAlgorithm, jwa.ContentEncryption, error) {
	if !slices.Contains(d.algs, alg) {
		return nil, "", "", fmt.Errorf("jwe: alg %q: %w", alg, jose.ErrAlgorithmNotAllowed)
	}
	if h.Encryption != "" || h.Has("enc") {
		return nil, "", "", fmt.Errorf(`jwe: %s with "enc": %w`, alg, jose.ErrMalformed)
	}
	if h.EK != nil {
		return nil, "", "", fmt.Errorf(`jwe: %s with "ek": %w`, alg, jose.ErrMalformed)
	}
	if len(t.recipients) > 1 {
		return nil, "", "", fmt.Errorf("jwe: %s in a token with %d recipients: %w", alg, len(t.recipients), jose.ErrMalformed)
	}
	if h.Compression != "" && h.Compression != "DEF" {
		return nil, "", "", fmt.Errorf("jwe: zip %s: %w", untrusted.Quote(h.Compression), jose.ErrUnsupportedAlgorithm)
	}
	if h.Has("psk_id") {
		return nil, "", "", fmt.Errorf(`jwe: "psk_id" (HPKE mode_psk): %w`, jose.ErrUnsupportedAlgorithm)
	}
	return h, alg, "", nil
}

// onlyIntegrated reports whether algs are all HPKE Integrated Encryption
// algorithms, which need no "enc" allow-list.
func onlyIntegrated(algs []jwa.KeyAlgorithm) bool {
	for _, a := range algs {
		if !a.IsHPKEIntegrated() {
			return false
		}
	}
	return len(algs) > 0
}

// hpkeAEADTagSize is the tag size of the AEADs of every HPKE algorithm
// (AES-GCM, ChaCha20Poly1305: RFC 9180 §7.3).
const hpkeAEADTagSize = 16

// shortIntegrated reports whether ct, the JWE Ciphertext of a token of the
// HPKE Integrated Encryption algorithm alg, is shorter than the HPKE tag,
// which no plaintext gives: the token fails as any that does not decrypt,
// before the decapsulation, so that such a token costs no Diffie-Hellman
// agreement (nor a call to the device holding the key).
func shortIntegrated(alg jwa.KeyAlgorithm, ct []byte) bool {
	return alg.IsHPKEIntegrated() && len(ct) < hpkeAEADTagSize
}

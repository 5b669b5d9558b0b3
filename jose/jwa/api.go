package jwa

import "crypto/ecdh"

// Signer computes JWS signatures or MACs with one key for one algorithm
// (RFC 7515 §5.1 step 5). Implementations are safe for concurrent use.
type Signer interface {
	// Algorithm returns the algorithm the signer was made for.
	Algorithm() SignatureAlgorithm
	// Sign appends the signature of signingInput (the JWS Signing Input,
	// RFC 7515 §2) to dst and returns the extended slice.
	Sign(dst, signingInput []byte) ([]byte, error)
}

// Verifier checks JWS signatures or MACs with one key for one algorithm
// (RFC 7515 §5.2 step 8). Implementations are safe for concurrent use.
type Verifier interface {
	// Algorithm returns the algorithm the verifier was made for.
	Algorithm() SignatureAlgorithm
	// Verify returns nil if signature is valid for signingInput, and
	// ErrVerification otherwise.
	Verify(signingInput, signature []byte) error
}

// KeyParams holds the JOSE header parameters that key management reads on
// decryption and writes on encryption, decoded from base64url: epk, apu and
// apv (RFC 7518 §4.6.1), iv and tag (§4.7.1), p2s and p2c (§4.8.1), and ek
// (draft-ietf-jose-hpke-encrypt-20 §4.1).
type KeyParams struct {
	EPK      *ecdh.PublicKey // ephemeral public key (ECDH-ES)
	APU, APV []byte          // agreement PartyUInfo and PartyVInfo (ECDH-ES)
	IV, Tag  []byte          // initialization vector and tag (AES-GCM key wrap)
	P2S      []byte          // salt input (PBES2)
	P2C      int             // iteration count (PBES2)
	EK       []byte          // HPKE encapsulated secret (draft-ietf-jose-hpke-encrypt-20 §4.1)
}

// KeyEncrypter determines the Content Encryption Key for one recipient and
// encrypts it (RFC 7516 §5.1 steps 1-5). Implementations are safe for
// concurrent use.
type KeyEncrypter interface {
	// Algorithm returns the algorithm the encrypter was made for.
	Algorithm() KeyAlgorithm
	// EncryptKey returns the CEK to use with enc and the JWE Encrypted Key.
	//
	// If cek is nil, a fresh random CEK of enc's size is generated, or, for
	// dir and ECDH-ES (direct key agreement), the CEK is the one the
	// algorithm determines and the encrypted key is empty. If cek is not
	// nil (a message to several recipients), it is encrypted as given;
	// direct algorithms refuse that with ErrInvalidParameter.
	//
	// params receives the header parameters the algorithm produces (epk,
	// iv, tag, p2s, p2c); apu and apv, when set by the caller, are used.
	EncryptKey(cek []byte, enc ContentEncryption, params *KeyParams) (cekOut, encryptedKey []byte, err error)
}

// KeyDecrypter recovers the Content Encryption Key from a JWE Encrypted Key
// and the header parameters (RFC 7516 §5.2 steps 9-10). Implementations are
// safe for concurrent use.
type KeyDecrypter interface {
	// Algorithm returns the algorithm the decrypter was made for.
	Algorithm() KeyAlgorithm
	// DecryptKey returns the CEK for enc. Every failure is ErrDecryption,
	// except parameters refused before any work (ErrInvalidParameter).
	// RSA1_5 returns a random CEK instead of an error on a padding failure
	// (RFC 7516 §11.5), so the failure shows only as a later ErrDecryption.
	DecryptKey(encryptedKey []byte, enc ContentEncryption, params *KeyParams) ([]byte, error)
}

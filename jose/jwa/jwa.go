// Package jwa implements the JSON Web Algorithms of RFC 7518, the EdDSA
// algorithms of RFC 8037 and the fully-specified Ed25519 of RFC 9864, on Go's
// standard cryptography.
//
// The package is the leaf of josebench: it knows nothing of tokens, headers
// or JWKs. It turns an (algorithm, key) pair into a value that can do exactly
// one thing, and refuses at construction keys that are too weak for, or of the
// wrong kind for, the algorithm:
//
//   - [NewSigner] and [NewVerifier] for JWS signatures and MACs (RFC 7518 §3);
//   - [NewKeyEncrypter] and [NewKeyDecrypter] for JWE key management
//     (RFC 7518 §4);
//   - [NewContentCipher] for JWE content encryption (RFC 7518 §5), returned as
//     a [crypto/cipher.AEAD].
//
// Errors that an attacker can cause are returned, never panicked; signature and
// decryption failures are the opaque [ErrVerification] and [ErrDecryption].
//
// # Algorithms
//
// The identifiers, each with its JOSE name where the two differ (a Go name
// cannot hold "-" or "+"):
//
//   - JWS signatures and MACs, [SignatureAlgorithm] (RFC 7518 §3.1, RFC 8037
//     §3.1, RFC 8812 §3.2, RFC 9864 §2.2, RFC 9964 §2; ML-DSA needs Go
//     1.27): [HS256], [HS384], [HS512], [RS256], [RS384], [RS512], [ES256],
//     [ES384], [ES512], [ES256K], [PS256], [PS384], [PS512], [EdDSA],
//     [Ed25519], [MLDSA44] (ML-DSA-44), [MLDSA65] (ML-DSA-65), [MLDSA87]
//     (ML-DSA-87).
//   - JWE key management, [KeyAlgorithm] (RFC 7518 §4.1; HPKE of
//     draft-ietf-jose-hpke-encrypt-20): [RSA1_5], [RSAOAEP] (RSA-OAEP),
//     [RSAOAEP256] (RSA-OAEP-256), [RSAOAEP384] (RSA-OAEP-384), [RSAOAEP512]
//     (RSA-OAEP-512), [A128KW], [A192KW], [A256KW], [Direct]
//     (dir), [ECDHES] (ECDH-ES), [ECDHESA128KW] (ECDH-ES+A128KW),
//     [ECDHESA192KW] (ECDH-ES+A192KW), [ECDHESA256KW] (ECDH-ES+A256KW),
//     [A128GCMKW], [A192GCMKW], [A256GCMKW], [PBES2HS256A128KW]
//     (PBES2-HS256+A128KW), [PBES2HS384A192KW] (PBES2-HS384+A192KW),
//     [PBES2HS512A256KW] (PBES2-HS512+A256KW), [HPKE0KE] (HPKE-0-KE),
//     [HPKE1KE] (HPKE-1-KE), [HPKE2KE] (HPKE-2-KE), [HPKE3KE] (HPKE-3-KE),
//     [HPKE4KE] (HPKE-4-KE), [HPKE7KE] (HPKE-7-KE), [HPKE0] (HPKE-0),
//     [HPKE1] (HPKE-1), [HPKE2] (HPKE-2), [HPKE3] (HPKE-3), [HPKE4]
//     (HPKE-4), [HPKE7] (HPKE-7).
//   - JWE content encryption, [ContentEncryption] (RFC 7518 §5.1):
//     [A128CBCHS256] (A128CBC-HS256), [A192CBCHS384] (A192CBC-HS384),
//     [A256CBCHS512] (A256CBC-HS512), [A128GCM], [A192GCM], [A256GCM].
package jwa

import "errors"

// SignatureAlgorithm is a JWS "alg" value (RFC 7518 §3.1, RFC 8037 §3.1,
// RFC 9864 §2.2).
type SignatureAlgorithm string

// Signature algorithms. "none" is deliberately absent: no verifier in this
// module accepts an unsecured JWS.
const (
	HS256   SignatureAlgorithm = "HS256"   // HMAC using SHA-256 (RFC 7518 §3.2)
	HS384   SignatureAlgorithm = "HS384"   // HMAC using SHA-384 (RFC 7518 §3.2)
	HS512   SignatureAlgorithm = "HS512"   // HMAC using SHA-512 (RFC 7518 §3.2)
	RS256   SignatureAlgorithm = "RS256"   // RSASSA-PKCS1-v1_5 using SHA-256 (RFC 7518 §3.3)
	RS384   SignatureAlgorithm = "RS384"   // RSASSA-PKCS1-v1_5 using SHA-384 (RFC 7518 §3.3)
	RS512   SignatureAlgorithm = "RS512"   // RSASSA-PKCS1-v1_5 using SHA-512 (RFC 7518 §3.3)
	ES256   SignatureAlgorithm = "ES256"   // ECDSA using P-256 and SHA-256 (RFC 7518 §3.4)
	ES384   SignatureAlgorithm = "ES384"   // ECDSA using P-384 and SHA-384 (RFC 7518 §3.4)
	ES512   SignatureAlgorithm = "ES512"   // ECDSA using P-521 and SHA-512 (RFC 7518 §3.4)
	PS256   SignatureAlgorithm = "PS256"   // RSASSA-PSS using SHA-256 and MGF1 with SHA-256 (RFC 7518 §3.5)
	PS384   SignatureAlgorithm = "PS384"   // RSASSA-PSS using SHA-384 and MGF1 with SHA-384 (RFC 7518 §3.5)
	PS512   SignatureAlgorithm = "PS512"   // RSASSA-PSS using SHA-512 and MGF1 with SHA-512 (RFC 7518 §3.5)
	EdDSA   SignatureAlgorithm = "EdDSA"   // EdDSA; this module supports it with Ed25519 keys only (RFC 8037 §3.1)
	Ed25519 SignatureAlgorithm = "Ed25519" // EdDSA using the Ed25519 parameter set (RFC 9864 §2.2)
	ES256K  SignatureAlgorithm = "ES256K"  // ECDSA using secp256k1 and SHA-256 (RFC 8812 §3.2)
)

// KeyAlgorithm is a JWE "alg" value: a key management algorithm
// (RFC 7518 §4.1).
type KeyAlgorithm string

// Key management algorithms.
const (
	RSA1_5           KeyAlgorithm = "RSA1_5"             // RSAES-PKCS1-v1_5 (RFC 7518 §4.2)
	RSAOAEP          KeyAlgorithm = "RSA-OAEP"           // RSAES OAEP using default parameters (RFC 7518 §4.3)
	RSAOAEP256       KeyAlgorithm = "RSA-OAEP-256"       // RSAES OAEP using SHA-256 and MGF1 with SHA-256 (RFC 7518 §4.3)
	RSAOAEP384       KeyAlgorithm = "RSA-OAEP-384"       // RSAES OAEP using SHA-384 and MGF1 with SHA-384 (IANA JOSE registry; RFC 8017 §7.1)
	RSAOAEP512       KeyAlgorithm = "RSA-OAEP-512"       // RSAES OAEP using SHA-512 and MGF1 with SHA-512 (IANA JOSE registry; RFC 8017 §7.1)
	A128KW           KeyAlgorithm = "A128KW"             // AES Key Wrap with a 128-bit key (RFC 7518 §4.4)
	A192KW           KeyAlgorithm = "A192KW"             // AES Key Wrap with a 192-bit key (RFC 7518 §4.4)
	A256KW           KeyAlgorithm = "A256KW"             // AES Key Wrap with a 256-bit key (RFC 7518 §4.4)
	Direct           KeyAlgorithm = "dir"                // Direct use of a shared symmetric key (RFC 7518 §4.5)
	ECDHES           KeyAlgorithm = "ECDH-ES"            // ECDH-ES direct key agreement with Concat KDF (RFC 7518 §4.6)
	ECDHESA128KW     KeyAlgorithm = "ECDH-ES+A128KW"     // ECDH-ES with Concat KDF and A128KW (RFC 7518 §4.6)
	ECDHESA192KW     KeyAlgorithm = "ECDH-ES+A192KW"     // ECDH-ES with Concat KDF and A192KW (RFC 7518 §4.6)
	ECDHESA256KW     KeyAlgorithm = "ECDH-ES+A256KW"     // ECDH-ES with Concat KDF and A256KW (RFC 7518 §4.6)
	A128GCMKW        KeyAlgorithm = "A128GCMKW"          // Key wrapping with AES-GCM using a 128-bit key (RFC 7518 §4.7)
	A192GCMKW        KeyAlgorithm = "A192GCMKW"          // Key wrapping with AES-GCM using a 192-bit key (RFC 7518 §4.7)
	A256GCMKW        KeyAlgorithm = "A256GCMKW"          // Key wrapping with AES-GCM using a 256-bit key (RFC 7518 §4.7)
	PBES2HS256A128KW KeyAlgorithm = "PBES2-HS256+A128KW" // PBES2 with HMAC SHA-256 and A128KW (RFC 7518 §4.8)
	PBES2HS384A192KW KeyAlgorithm = "PBES2-HS384+A192KW" // PBES2 with HMAC SHA-384 and A192KW (RFC 7518 §4.8)
	PBES2HS512A256KW KeyAlgorithm = "PBES2-HS512+A256KW" // PBES2 with HMAC SHA-512 and A256KW (RFC 7518 §4.8)
)

// ContentEncryption is a JWE "enc" value (RFC 7518 §5.1).
type ContentEncryption string

// Content encryption algorithms.
const (
	A128CBCHS256 ContentEncryption = "A128CBC-HS256" // AES_128_CBC_HMAC_SHA_256 (RFC 7518 §5.2.3)
	A192CBCHS384 ContentEncryption = "A192CBC-HS384" // AES_192_CBC_HMAC_SHA_384 (RFC 7518 §5.2.4)
	A256CBCHS512 ContentEncryption = "A256CBC-HS512" // AES_256_CBC_HMAC_SHA_512 (RFC 7518 §5.2.5)
	A128GCM      ContentEncryption = "A128GCM"       // AES GCM using a 128-bit key (RFC 7518 §5.3)
	A192GCM      ContentEncryption = "A192GCM"       // AES GCM using a 192-bit key (RFC 7518 §5.3)
	A256GCM      ContentEncryption = "A256GCM"       // AES GCM using a 256-bit key (RFC 7518 §5.3)
)

// Errors returned by this package. Callers test them with [errors.Is].
//
// Their texts name no package: they are the kinds of failure that every
// layer reports, each message naming the package that built it once
// ("jwa: ES256 needs a P-256 key: invalid key for algorithm", "jws:
// verification failed"). Package jose re-exports them.
var (
	// ErrVerification is the one error for any signature or MAC that does
	// not verify, whatever the reason.
	ErrVerification = errors.New("verification failed")
	// ErrDecryption is the one error for any failure to unwrap a key or to
	// decrypt content (bad tag, bad padding, bad wrapped key), so that no
	// oracle tells them apart.
	ErrDecryption = errors.New("decryption failed")
	// ErrUnsupportedAlgorithm reports an algorithm this package does not
	// implement.
	ErrUnsupportedAlgorithm = errors.New("unsupported algorithm")
	// ErrInvalidKey reports a key of the wrong type, size or curve for an
	// algorithm, or one too weak for it (RFC 7518 §3.2, §3.3, §3.4).
	ErrInvalidKey = errors.New("invalid key for algorithm")
	// ErrInvalidParameter reports a header parameter that key management
	// cannot use (an epk on another curve, a p2c out of range, a short p2s).
	ErrInvalidParameter = errors.New("invalid key management parameter")
	// ErrKeyDevice reports that the device holding a private key failed: an
	// [ecdh.KeyExchanger] (ECDH-ES, HPKE) or a [crypto.Signer] standing for
	// a key in a KMS or an HSM returned an error, which the error wraps
	// too, or the crypto.Signer returned a signature not of the
	// algorithm's form or one that does not verify with its public key
	// (another padding, hash or key, or a faulty computation; [NewSigner]).
	// An ECDH answer that is not an error is judged as any other input: a
	// secret of the wrong size or all zeros, which an attacker can aim
	// for, is [ErrDecryption], never a device failure. RSA key
	// decryption with a [crypto.Decrypter] never reports it: there, a
	// device error is [ErrDecryption] (RSA-OAEP) or a random CEK (RSA1_5),
	// since an error that tells them apart would be a padding oracle
	// (RFC 7516 §11.5). A panic of the device is not recovered.
	ErrKeyDevice = errors.New("key device failed")
)

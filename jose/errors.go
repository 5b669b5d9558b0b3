package jose

import (
	"errors"

	"github.com/josebench/josebench/jose/jwa"
)

// Errors shared by jws and jwe. Every error returned while loading a token
// wraps exactly one of them, so callers can branch with [errors.Is].
//
// They are defined once: those of jwa are the same values. Their texts name
// no package: every error of this module reads "pkg: what happened: kind",
// built with fmt.Errorf("pkg: ...: %w", kind), naming once the package that
// built it; an error from a lower package is passed on as it is, or under
// context ("jws: protected header: jose: header member \"kid\": malformed
// input"), never under a bare prefix.
var (
	// ErrMalformed reports input that is not a well-formed token, header,
	// key or encoding.
	ErrMalformed = errors.New("malformed input")
	// ErrUnsupportedAlgorithm reports an alg or enc this module does not
	// implement.
	ErrUnsupportedAlgorithm = jwa.ErrUnsupportedAlgorithm
	// ErrAlgorithmNotAllowed reports an alg or enc outside the caller's
	// allow-list, or one the key does not permit (its alg, use or key_ops).
	ErrAlgorithmNotAllowed = errors.New("algorithm not allowed")
	// ErrLimitExceeded reports input larger than a configured [Limits] value.
	ErrLimitExceeded = errors.New("limit exceeded")
	// ErrKeyNotFound reports that no key of the caller's matches the token.
	ErrKeyNotFound = errors.New("no matching key")
	// ErrVerificationFailed reports a signature or MAC that does not verify.
	// It is the same value as [jwa.ErrVerification].
	ErrVerificationFailed = jwa.ErrVerification
	// ErrDecryptionFailed is the one opaque error for any decryption
	// failure. It is the same value as [jwa.ErrDecryption].
	ErrDecryptionFailed = jwa.ErrDecryption
	// ErrInvalidKey reports a key unfit for its algorithm. It is the same
	// value as [jwa.ErrInvalidKey].
	ErrInvalidKey = jwa.ErrInvalidKey
	// ErrKeyDevice reports that the device holding a private key (a KMS or
	// an HSM, behind an ecdh.KeyExchanger or a crypto.Signer) failed: it
	// returned an error, which the error wraps too, or, a crypto.Signer, a
	// signature not of its algorithm's form or that does not verify with
	// its public key. Decryption reports it
	// for ECDH-ES and HPKE only; an RSA device's failure stays
	// [ErrDecryptionFailed], so as not to be a padding oracle. It is the
	// same value as [jwa.ErrKeyDevice].
	ErrKeyDevice = jwa.ErrKeyDevice
	// ErrUnsupportedCritical reports a "crit" header naming an extension
	// the caller did not declare it understands (RFC 7515 §4.1.11).
	ErrUnsupportedCritical = errors.New("unsupported critical header")
)

package jwa

import (
	"crypto"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"errors"
	"fmt"
)

// This file holds key decryption, and the errors of signing, with private
// keys this process cannot read: a KMS, an HSM, a remote signer. RSA keys are reached through
// crypto.Decrypter, ECDH keys through ecdh.KeyExchanger (whose ECDH method
// returns the shared secret for a peer public key), the interfaces of the
// standard library. An ECDH device's answers are checked as a local key's
// are, in dh.go; its errors are ErrKeyDevice. An RSA device's are never
// told apart from a bad encrypted key (decryptOpaque).

// newRSAOpaqueDecrypter returns RSA key decryption with dec, whose public
// key must be an RSA key of at least 2048 bits (RFC 7518 §4.2, §4.3).
func newRSAOpaqueDecrypter(alg KeyAlgorithm, dec crypto.Decrypter) (*rsaDecrypter, error) {
	pub, ok := publicOf(dec).(*rsa.PublicKey)
	if !ok {
		return nil, keyError(string(alg), alg.KeyNeeds(), dec)
	}
	if err := rsaKeyCheck(alg, pub); err != nil {
		return nil, err
	}
	return &rsaDecrypter{alg: alg, dec: dec, size: pub.Size()}, nil
}

// rsaOAEPCryptoHash returns the OAEP hash of alg as a crypto.Hash, for
// rsa.OAEPOptions: SHA-1 for RSA-OAEP, SHA-256 for RSA-OAEP-256
// (RFC 7518 §4.3), SHA-384 and SHA-512 for RSA-OAEP-384 and RSA-OAEP-512;
// MGF1 uses the same hash.
func rsaOAEPCryptoHash(alg KeyAlgorithm) crypto.Hash {
	switch alg {
	case RSAOAEP:
		return crypto.SHA1
	case RSAOAEP384:
		return crypto.SHA384
	case RSAOAEP512:
		return crypto.SHA512
	}
	return crypto.SHA256
}

// decryptOpaque decrypts a CEK of ks bytes with the opaque key d.dec.
// An encrypted key that is not as long as the modulus, a decryption error
// of RFC 8017 §7.1.2 and §7.2.2 whatever the key, is not sent to the
// device (a KMS request whose size the token's author chose): it fails as
// below, as any other bad encrypted key does. Its length is public.
//
// RSA1_5 keeps the countermeasure of RFC 7516 §11.5 (RFC 3218 §2.3.2): a
// random CEK is drawn before the call, the device is asked for a session
// key of ks bytes (rsa.PKCS1v15DecryptOptions.SessionKeyLen, which
// crypto/rsa keys honour by returning random bytes on a padding failure),
// and its answer replaces the random CEK, in constant time, only if the
// call succeeded with exactly ks bytes. An error, a wrong length or a
// padding failure all return the random CEK and no error.
//
// RSA-OAEP* map every failure, the device's own errors
// included, to ErrDecryption.
func (d *rsaDecrypter) decryptOpaque(encryptedKey []byte, ks int) ([]byte, error) {
	if d.alg == RSA1_5 {
		cek := make([]byte, ks)
		rand.Read(cek)
		if len(encryptedKey) != d.size {
			return cek, nil
		}
		got, err := d.dec.Decrypt(rand.Reader, encryptedKey, &rsa.PKCS1v15DecryptOptions{SessionKeyLen: ks})
		ok, src := 0, cek // src of the same length, so the copy does the same work
		if err == nil && len(got) == ks {
			ok, src = 1, got
		}
		subtle.ConstantTimeCopy(ok, cek, src)
		if ok == 1 {
			clear(got)
		}
		return cek, nil
	}
	if len(encryptedKey) != d.size {
		return nil, ErrDecryption
	}
	h := rsaOAEPCryptoHash(d.alg)
	cek, err := d.dec.Decrypt(rand.Reader, encryptedKey, &rsa.OAEPOptions{Hash: h, MGFHash: h})
	if err != nil || len(cek) != ks {
		clear(cek)
		return nil, ErrDecryption
	}
	return cek, nil
}

// ecdhOpaqueKey checks an opaque ECDH private key, whose curve must be one
// of ECDH-ES's and its public key on that curve, and returns it as the
// *dhKey whose agreements are checked (dh.go). The public key is read once,
// here.
func ecdhOpaqueKey(k ecdh.KeyExchanger) (*dhKey, error) {
	c := k.Curve()
	if c == nil || !ecdhCurveSupported(c) {
		return nil, errors.New("the ecdh.KeyExchanger is on none of P-256, P-384, P-521 and X25519")
	}
	pub := k.PublicKey()
	if pub == nil || pub.Curve() != c {
		return nil, errors.New("the ecdh.KeyExchanger's public key is not on its curve")
	}
	return &dhKey{k: k, pub: pub, opaque: true}, nil
}

// deviceCheck returns the verifier that a crypto.Signer's signatures of
// alg are checked with before Sign returns them: pub, the public key read
// from it once, when the Signer was made. A device that signs with another
// padding than alg's (PKCS #1 v1.5 for PS256: a KMS key bound to one
// signing algorithm), another hash or another key than pub (a key rotated
// behind the same handle), or whose computation faulted, returns a
// signature of the right form that no one can verify; a faulty RSA-CRT
// signature gives away the private key's factors to whoever reads the
// token (Boneh, DeMillo and Lipton, 1997), which is why crypto/rsa checks
// its own signatures too. The check costs one public-key verification per
// signature, little next to a call to a device.
func deviceCheck(alg SignatureAlgorithm, pub crypto.PublicKey) (Verifier, error) {
	v, err := NewVerifier(alg, pub)
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: the crypto.Signer's public key: %w", alg, err)
	}
	return v, nil
}

// deviceVerify checks sig, the answer of a crypto.Signer for
// signingInput, with check ([deviceCheck]).
func deviceVerify(alg SignatureAlgorithm, check Verifier, signingInput, sig []byte) error {
	if check.Verify(signingInput, sig) != nil {
		return signerAnswerError(alg, "a signature that does not verify with its public key")
	}
	return nil
}

// signerError is the error of a signature algorithm whose crypto.Signer (a
// key in a KMS or an HSM) failed with err.
func signerError(alg SignatureAlgorithm, err error) error {
	return fmt.Errorf("jwa: %s: crypto.Signer: %w: %w", alg, err, ErrKeyDevice)
}

// signerAnswerError is that of a crypto.Signer that returned what, not a
// signature of alg's form: the device failed.
func signerAnswerError(alg SignatureAlgorithm, what string) error {
	return fmt.Errorf("jwa: %s: crypto.Signer returned %s: %w", alg, what, ErrKeyDevice)
}

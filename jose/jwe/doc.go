// Package jwe builds and loads JSON Web Encryption tokens (RFC 7516): the
// compact serialization (§7.1) and the JSON serializations, flattened and
// general (§7.2), with every key management algorithm and content encryption
// of [github.com/josebench/josebench/jose/jwa].
//
// An [Encrypter] binds one key management algorithm, one content encryption
// and one key, and prepares everything that does not change per message (the
// key wrapper, the encoded protected header, for "dir" the content cipher).
// [EncryptGeneral] encrypts one message to several recipients.
// [Encrypter.AppendCompact] appends the compact token to a caller's buffer,
// and [Decrypter.DecryptCompactInto] decrypts one into a caller's [Message]:
// reused, they let a hot path (dir with A128GCM, say) run without allocating.
//
// A [Decrypter] always takes explicit allow-lists of "alg" and "enc" values
// and refuses anything else before any cryptography. Every failure to unwrap
// a key or to decrypt content (bad tag, bad padding, bad wrapped key, wrong
// key) is the one opaque error [jose.ErrDecryptionFailed], so that no oracle
// tells them apart (RFC 7516 §11.4, §11.5).
//
// Loading is bounded by [jose.Limits]: token and header sizes are checked
// before decoding, the number of recipients before any key work, the PBES2
// iteration count before any key derivation (and the PBES2 work of one token,
// over all its recipients and keys, to one [jose.Limits.PBES2MaxCount] of
// iterations), at most [MaxKeyCandidates] keys of a JWK Set, chosen by the
// selection policy jws and jwe share ([jose.Select]), are tried per
// recipient, [jose.Limits.MaxKeyAttempts] key decryptions and
// [jose.Limits.MaxKeyLookups] calls of a key function per token, and
// a "zip":"DEF" token is refused before any key work when its ciphertext
// is longer than [jose.Limits.MaxCompressedSize] (16 KiB), and its
// plaintext is otherwise inflated up to [jose.Limits.MaxDecompressedSize]
// bytes; either is refused with [jose.ErrLimitExceeded], never truncated.
//
// Header members "jwk", "jku", "x5u" and "x5c" are carried but never used to
// find a decryption key, and nothing is ever fetched. Headers are read as
// JWE headers ([jose.JWEHeader]): "b64", a JWS extension (RFC 7797), is not
// understood, and ignored (RFC 7516 §4).
//
// Every path that may wait on a key source takes a context:
// [Decrypter.DecryptCompactContext], [Decrypter.DecryptCompactIntoContext]
// and [Decrypter.DecryptJSONContext] pass theirs to
// DecryptOptions.KeyFuncContext, and a done context ends the wait at once
// with an error wrapping ctx.Err(). The methods without a context are
// these with context.Background(); with Key or Keys the context is not
// consulted and costs nothing.
//
// A decryption key may be held in a KMS or an HSM: a crypto.Decrypter with
// an RSA public key, or an ecdh.KeyExchanger (see [DecryptOptions].Key).
// An ECDH device's answers are checked as a local key's are, before any key
// derivation; its failures are [jose.ErrKeyDevice], an RSA device's the
// opaque [jose.ErrDecryptionFailed]. A device's panic is not recovered.
//
// HPKE (draft-ietf-jose-hpke-encrypt-20, a draft whose names and processing
// may still change) is supported in both of its modes: Key Encryption
// (jwa.HPKE0KE ..., an "ek" header parameter, any "enc", several
// recipients) and Integrated Encryption (jwa.HPKE0 ..., no "enc", one
// recipient, the HPKE ciphertext as the JWE Ciphertext; [NewEncrypter] with
// an empty enc).
package jwe

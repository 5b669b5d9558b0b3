package jwa

import (
	"crypto/aes"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
)

// PBES2 iteration counts (RFC 7518 §4.8.1.2).
const (
	// DefaultPBES2Count is the p2c used for encryption when none is chosen:
	// 10,000, the largest count a decrypter with the default range accepts
	// here and in other widely used implementations (npm jose refuses more
	// by default), so that tokens made with it interoperate. It is far below
	// what password storage recommends (OWASP: 600,000 for
	// PBKDF2-HMAC-SHA256): a low-entropy password needs a higher count on
	// both sides, chosen with [NewPBES2Encrypter] and [NewPBES2Decrypter]
	// (SECURITY.md gives the cost per 100,000 iterations).
	DefaultPBES2Count = 10000
	// DefaultPBES2MinCount is the smallest p2c a decrypter accepts by
	// default: the minimum RFC 7518 §4.8.1.2 recommends. It mirrors
	// jose.DefaultPBES2MinCount.
	DefaultPBES2MinCount = 1000
	// DefaultPBES2MaxCount is the largest p2c a decrypter accepts by
	// default, bounding the work one token can demand. It mirrors
	// jose.DefaultPBES2MaxCount.
	DefaultPBES2MaxCount = 10000
	// pbes2SaltSize is the size of the p2s generated on encryption; RFC
	// 7518 §4.8.1.1 requires at least 8 bytes.
	pbes2SaltSize = 16
	// pbes2MinSaltSize is the smallest p2s accepted (RFC 7518 §4.8.1.1).
	pbes2MinSaltSize = 8
)

// pbes2DeriveHook, when set by tests, is called before each PBKDF2
// derivation, so that tests can prove a refused p2c did no work.
var pbes2DeriveHook func(count int)

// pbes2 is PBES2-HS256+A128KW, PBES2-HS384+A192KW and PBES2-HS512+A256KW
// (RFC 7518 §4.8).
type pbes2 struct {
	alg      KeyAlgorithm
	password string
	count    int // p2c on encryption
	min, max int // accepted p2c on decryption
}

func newPBES2(alg KeyAlgorithm, password []byte) (*pbes2, error) {
	if !alg.IsPBES2() {
		return nil, unsupportedKeyAlg(alg)
	}
	if len(password) == 0 {
		return nil, fmt.Errorf("jwa: %s needs a non-empty password: %w", alg, ErrInvalidKey)
	}
	return &pbes2{alg: alg, password: string(password)}, nil
}

// NewPBES2Encrypter returns PBES2 key encryption (RFC 7518 §4.8) with
// password and count PBKDF2 iterations (p2c); count 0 means
// [DefaultPBES2Count]. A count below [DefaultPBES2MinCount] is refused with
// [ErrInvalidParameter], an empty password with [ErrInvalidKey], an alg that
// is not PBES2 with [ErrUnsupportedAlgorithm]. Each message gets a fresh
// random 16-byte p2s. A count above [DefaultPBES2MaxCount] makes tokens that
// decrypters with the default range refuse.
func NewPBES2Encrypter(alg KeyAlgorithm, password []byte, count int) (KeyEncrypter, error) {
	if count == 0 {
		count = DefaultPBES2Count
	}
	if count < DefaultPBES2MinCount {
		return nil, fmt.Errorf("jwa: %s count %d is below %d: %w", alg, count, DefaultPBES2MinCount, ErrInvalidParameter)
	}
	p, err := newPBES2(alg, password)
	if err != nil {
		return nil, err
	}
	p.count = count
	return p, nil
}

// NewPBES2Decrypter returns PBES2 key decryption (RFC 7518 §4.8) with
// password, accepting a p2c from minCount to maxCount inclusive; 0 means
// [DefaultPBES2MinCount] and [DefaultPBES2MaxCount] respectively. A p2c
// outside the range, or a p2s shorter than 8 bytes, is refused with
// [ErrInvalidParameter] before any PBKDF2 work, so that a token cannot make
// the recipient spend more than maxCount iterations. A range with minCount
// below 1 or above maxCount is refused with [ErrInvalidParameter].
func NewPBES2Decrypter(alg KeyAlgorithm, password []byte, minCount, maxCount int) (KeyDecrypter, error) {
	if minCount == 0 {
		minCount = DefaultPBES2MinCount
	}
	if maxCount == 0 {
		maxCount = DefaultPBES2MaxCount
	}
	if minCount < 1 || minCount > maxCount {
		return nil, fmt.Errorf("jwa: %s count range [%d, %d]: %w", alg, minCount, maxCount, ErrInvalidParameter)
	}
	p, err := newPBES2(alg, password)
	if err != nil {
		return nil, err
	}
	p.min, p.max = minCount, maxCount
	return p, nil
}

// Algorithm implements [KeyEncrypter] and [KeyDecrypter].
func (p *pbes2) Algorithm() KeyAlgorithm { return p.alg }

// EncryptKey implements [KeyEncrypter] (RFC 7518 §4.8.1): a fresh random
// p2s is drawn, the key-encryption key is derived with PBKDF2, and the CEK
// (random if cek is nil) is wrapped with AES Key Wrap. params.P2S and
// params.P2C receive the salt input and count; params must not be nil.
func (p *pbes2) EncryptKey(cek []byte, enc ContentEncryption, params *KeyParams) ([]byte, []byte, error) {
	if params == nil {
		panic("jwa: PBES2 EncryptKey needs non-nil KeyParams to return p2s and p2c")
	}
	if p.count == 0 {
		return nil, nil, fmt.Errorf("jwa: %s value made for decryption: %w", p.alg, ErrInvalidParameter)
	}
	p2s := make([]byte, pbes2SaltSize)
	rand.Read(p2s)
	return p.encryptKey(cek, enc, params, p2s)
}

// encryptKey is EncryptKey with a given p2s, for test vectors.
func (p *pbes2) encryptKey(cek []byte, enc ContentEncryption, params *KeyParams, p2s []byte) ([]byte, []byte, error) {
	if _, err := cekSize(enc, cek); err != nil {
		return nil, nil, err
	}
	kek, err := p.deriveKEK(p2s, p.count)
	if err != nil {
		return nil, nil, err
	}
	block, err := aes.NewCipher(kek)
	clear(kek)
	if err != nil {
		return nil, nil, err
	}
	cekOut, ek, err := kwEncrypt(block, cek, enc)
	if err != nil {
		return nil, nil, err
	}
	params.P2S, params.P2C = p2s, p.count
	return cekOut, ek, nil
}

// DecryptKey implements [KeyDecrypter] (RFC 7518 §4.8.1). params.P2C must
// lie in the decrypter's range and params.P2S be at least 8 bytes, else
// [ErrInvalidParameter] before any PBKDF2 work; the encrypted key must
// unwrap, else [ErrDecryption].
func (p *pbes2) DecryptKey(encryptedKey []byte, enc ContentEncryption, params *KeyParams) ([]byte, error) {
	if p.max == 0 {
		return nil, fmt.Errorf("jwa: %s value made for encryption: %w", p.alg, ErrInvalidParameter)
	}
	ks := enc.KeySize()
	if ks == 0 {
		return nil, unsupportedEnc(enc)
	}
	if err := p.checkParams(params); err != nil {
		return nil, err
	}
	if len(encryptedKey) != ks+8 {
		return nil, ErrDecryption
	}
	kek, err := p.deriveKEK(params.P2S, params.P2C)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(kek)
	clear(kek)
	if err != nil {
		return nil, err
	}
	return kwDecrypt(block, encryptedKey, enc)
}

// checkParams refuses a missing or short p2s and a p2c outside
// [p.min, p.max] (RFC 7518 §4.8.1.1, §4.8.1.2).
func (p *pbes2) checkParams(params *KeyParams) error {
	if params == nil || len(params.P2S) < pbes2MinSaltSize {
		return fmt.Errorf("jwa: %s needs a p2s of at least %d bytes: %w", p.alg, pbes2MinSaltSize, ErrInvalidParameter)
	}
	if params.P2C < p.min || params.P2C > p.max {
		return fmt.Errorf("jwa: %s p2c %d outside [%d, %d]: %w", p.alg, params.P2C, p.min, p.max, ErrInvalidParameter)
	}
	return nil
}

// deriveKEK returns PBKDF2(password, UTF8(alg) || 0x00 || p2s, count) with
// the algorithm's HMAC, of the algorithm's key wrap size (RFC 7518
// §4.8.1.1).
func (p *pbes2) deriveKEK(p2s []byte, count int) ([]byte, error) {
	if pbes2DeriveHook != nil {
		pbes2DeriveHook(count)
	}
	salt := make([]byte, 0, len(p.alg)+1+len(p2s))
	salt = append(salt, p.alg...)
	salt = append(salt, 0)
	salt = append(salt, p2s...)
	size := p.alg.KeyWrapSize()
	var kek []byte
	var err error
	switch p.alg {
	case PBES2HS256A128KW:
		kek, err = pbkdf2.Key(sha256.New, p.password, salt, count, size)
	case PBES2HS384A192KW:
		kek, err = pbkdf2.Key(sha512.New384, p.password, salt, count, size)
	default:
		kek, err = pbkdf2.Key(sha512.New, p.password, salt, count, size)
	}
	if err != nil {
		return nil, fmt.Errorf("jwa: %s: %w", p.alg, err)
	}
	return kek, nil
}

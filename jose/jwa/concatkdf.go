package jwa

import (
	"crypto/sha256"
	"encoding/binary"
)

// ConcatKDF appends to dst keySize bytes derived from the shared secret z
// with the Concat KDF of NIST SP 800-56A §5.8.1 as profiled by RFC 7518
// §4.6.2, and returns the extended slice. The hash is SHA-256, and
// OtherInfo is
//
//	AlgorithmID || PartyUInfo || PartyVInfo || SuppPubInfo
//
// where AlgorithmID is the 32-bit big-endian length of algID followed by
// algID (the "enc" value for Direct Key Agreement, the "alg" value
// otherwise), PartyUInfo and PartyVInfo are the lengths and values of apu
// and apv (empty if absent), SuppPubInfo is keySize in bits as a 32-bit
// big-endian integer, and SuppPrivInfo is empty.
func ConcatKDF(dst, z []byte, algID string, apu, apv []byte, keySize int) []byte {
	if keySize < 0 || keySize > 1<<20 {
		panic("jwa: ConcatKDF key size out of range")
	}
	ret, out := kwGrow(dst, keySize)
	// Usually the whole hash input fits a buffer on the stack, hashed with
	// sha256.Sum256 without allocating; long apu/apv are streamed.
	n := 4 + len(z) + 4 + len(algID) + 4 + len(apu) + 4 + len(apv) + 4
	if n <= 256 {
		var buf [256]byte
		in := buf[:4]
		in = append(in, z...)
		in = binary.BigEndian.AppendUint32(in, uint32(len(algID)))
		in = append(in, algID...)
		in = binary.BigEndian.AppendUint32(in, uint32(len(apu)))
		in = append(in, apu...)
		in = binary.BigEndian.AppendUint32(in, uint32(len(apv)))
		in = append(in, apv...)
		in = binary.BigEndian.AppendUint32(in, uint32(keySize)*8)
		for counter := uint32(1); len(out) > 0; counter++ {
			binary.BigEndian.PutUint32(in, counter)
			sum := sha256.Sum256(in)
			out = out[copy(out, sum[:]):]
			clear(sum[:])
		}
		clear(in)
		return ret
	}
	var word [4]byte
	h := sha256.New()
	var sum [sha256.Size]byte
	for counter := uint32(1); len(out) > 0; counter++ {
		h.Reset()
		binary.BigEndian.PutUint32(word[:], counter)
		h.Write(word[:])
		h.Write(z)
		binary.BigEndian.PutUint32(word[:], uint32(len(algID)))
		h.Write(word[:])
		h.Write([]byte(algID))
		binary.BigEndian.PutUint32(word[:], uint32(len(apu)))
		h.Write(word[:])
		h.Write(apu)
		binary.BigEndian.PutUint32(word[:], uint32(len(apv)))
		h.Write(word[:])
		h.Write(apv)
		binary.BigEndian.PutUint32(word[:], uint32(keySize)*8)
		h.Write(word[:])
		out = out[copy(out, h.Sum(sum[:0])):]
	}
	clear(sum[:])
	return ret
}

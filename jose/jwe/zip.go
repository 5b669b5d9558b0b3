package jwe

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"

	"github.com/josebench/josebench/jose"
)

// deflate compresses plaintext with raw DEFLATE (RFC 1951), as "zip":"DEF"
// requires (RFC 7516 §4.1.3).
func deflate(plaintext []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(plaintext)/2 + 64)
	w, err := flate.NewWriter(&buf, flate.DefaultCompression)
	if err != nil {
		panic("jwe: " + err.Error()) // the level is valid
	}
	w.Write(plaintext) // writes to a bytes.Buffer do not fail
	w.Close()
	return buf.Bytes()
}

// inflate decompresses raw DEFLATE data, refusing output longer than max
// bytes: a decompression bomb is an error, never a truncated plaintext.
func inflate(data []byte, max int) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(data))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("jwe: invalid DEFLATE content: %w", jose.ErrMalformed)
	}
	if len(out) > max {
		return nil, fmt.Errorf("jwe: decompressed plaintext exceeds %d bytes: %w", max, jose.ErrLimitExceeded)
	}
	return out, nil
}

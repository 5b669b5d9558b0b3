package jose

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose/internal/b64enc"
)

// b64ref is the reference the table-driven codec is checked against:
// encoding/base64's strict unpadded URL encoding, which in addition refuses
// nothing that it skips (CR and LF) here.
func b64ref(s []byte) ([]byte, bool) {
	if bytes.ContainsAny(s, "\r\n") {
		return nil, false
	}
	out, err := base64.RawURLEncoding.Strict().DecodeString(string(s))
	return out, err == nil
}

// b64check compares encoding and decoding of s (as bytes, and as text to
// decode) with the reference, through both instantiations.
func b64check(t testing.TB, s []byte) {
	t.Helper()
	if got, want := Base64URLEncode(s), base64.RawURLEncoding.EncodeToString(s); got != want {
		t.Fatalf("Base64URLEncode(%q) = %q, want %q", s, got, want)
	}
	prefix := []byte("pre")
	if got := b64enc.Append(prefix[:3:3], s); string(got[:3]) != "pre" || string(got[3:]) != base64.RawURLEncoding.EncodeToString(s) {
		t.Fatalf("b64enc.Append(%q) = %q", s, got)
	}
	want, ok := b64ref(s)
	for _, got := range [][]byte{decodeOrNil(t, s, ok), decodeOrNil(t, string(s), ok)} {
		if ok && !bytes.Equal(got, want) {
			t.Fatalf("Base64URLDecode(%q) = %x, want %x", s, got, want)
		}
	}
	// Appending leaves the prefix, and on error returns dst unchanged.
	dst := append(make([]byte, 0, 64), "xy"...)
	got, err := b64enc.AppendDecode(dst, s, ErrMalformed)
	if ok != (err == nil) || string(got[:2]) != "xy" || (ok && !bytes.Equal(got[2:], want)) || (!ok && len(got) != 2) {
		t.Fatalf("b64enc.AppendDecode(%q, ErrMalformed) = %q, %v", s, got, err)
	}
}

func decodeOrNil[T string | []byte](t testing.TB, s T, ok bool) []byte {
	t.Helper()
	got, err := Base64URLDecode(s)
	if ok != (err == nil) {
		t.Fatalf("Base64URLDecode(%q): error %v, reference accepts: %v", s, err, ok)
	}
	if err != nil && !errors.Is(err, ErrMalformed) {
		t.Fatalf("Base64URLDecode(%q): %v does not wrap ErrMalformed", s, err)
	}
	return got
}

// TestBase64URLShort checks every string of up to 4 characters over an
// alphabet with valid characters of each 6-bit class edge and invalid ones
// (padding, standard alphabet, CR, LF, space, NUL, high bytes).
func TestBase64URLShort(t *testing.T) {
	chars := []byte("AQgw_-09az=\r\n .+/\x00\x80\xff")
	var walk func(p []byte)
	walk = func(p []byte) {
		b64check(t, p)
		if len(p) < 4 {
			for _, c := range chars {
				walk(append(p, c))
			}
		}
	}
	walk(nil)
}

// TestBase64URLLengths checks every length up to 300 bytes, encoded (valid)
// and with one character of the encoding replaced by an invalid one or a
// non-canonical last character.
func TestBase64URLLengths(t *testing.T) {
	for n := 0; n <= 300; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*37 + n*11)
		}
		b64check(t, b)
		enc := []byte(base64.RawURLEncoding.EncodeToString(b))
		b64check(t, enc)
		for _, i := range []int{0, len(enc) / 2, len(enc) - 1} {
			if i < 0 || i >= len(enc) {
				continue
			}
			for _, c := range []byte("=+/\n\r.\x00\xff") {
				bad := bytes.Clone(enc)
				bad[i] = c
				b64check(t, bad)
			}
		}
		if len(enc)%4 != 0 {
			last := bytes.Clone(enc)
			last[len(last)-1] = '_' // sets every trailing bit
			b64check(t, last)
		}
	}
}

// FuzzBase64URL compares the codec with encoding/base64 on arbitrary input.
func FuzzBase64URL(f *testing.F) {
	f.Add([]byte("eyJhbGciOiJIUzI1NiJ9"))
	f.Add([]byte("AA_"))
	f.Add([]byte("A\nAA"))
	f.Fuzz(func(t *testing.T, s []byte) {
		b64check(t, s)
		b64check(t, []byte(base64.RawURLEncoding.EncodeToString(s)))
		// The in-place encoding equals the appending one.
		buf := make([]byte, b64enc.EncodedLen(len(s)))
		copy(buf, s)
		if got, want := b64enc.EncodeInPlace(buf, len(s)), b64enc.Append(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("in place %q, want %q", got, want)
		}
	})
}

func BenchmarkBase64URL(b *testing.B) {
	src := bytes.Repeat([]byte("It’s a dangerous business, Frodo"), 6)[:167]
	enc := []byte(Base64URLEncode(src))
	buf := make([]byte, 0, 512)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = b64enc.Append(buf[:0], src)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = b64enc.AppendDecode(buf[:0], enc, ErrMalformed); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestBase64URLLen checks the length formulas against encoding/base64.
func TestBase64URLLen(t *testing.T) {
	for n := 0; n < 10000; n++ {
		if got, want := b64enc.DecodedLen(n), base64.RawURLEncoding.DecodedLen(n); got != want {
			t.Fatalf("b64enc.DecodedLen(%d) = %d, want %d", n, got, want)
		}
		if got, want := b64enc.EncodedLen(n), base64.RawURLEncoding.EncodedLen(n); got != want {
			t.Fatalf("b64enc.EncodedLen(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestEncodeInPlace: the in-place encoding equals
// b64enc.Append's for every length up to 300 and random bytes, and
// touches nothing past its result.
func TestEncodeInPlace(t *testing.T) {
	for n := range 300 {
		src := make([]byte, n)
		rand.Read(src)
		want := b64enc.Append(nil, src)
		buf := make([]byte, len(want)+3)
		copy(buf, src)
		buf[len(want)], buf[len(want)+1], buf[len(want)+2] = 1, 2, 3
		got := b64enc.EncodeInPlace(buf, n)
		if !bytes.Equal(got, want) {
			t.Fatalf("n=%d:\n got %s\nwant %s", n, got, want)
		}
		if buf[len(want)] != 1 || buf[len(want)+1] != 2 || buf[len(want)+2] != 3 {
			t.Fatalf("n=%d: wrote past the encoding", n)
		}
	}
}

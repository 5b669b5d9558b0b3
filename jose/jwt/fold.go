package jwt

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/internal/jsonx"
)

// Claim names are case-sensitive (RFC 7519 §4), and the strict reader
// compares them exactly, but encoding/json matches a member to a struct
// field case-insensitively, the last match winning: decoding
// {"iss":"good","ISS":"evil"} into a struct with an "iss" field yields
// "evil", after the Validator checked "good". So whatever is decoded with
// encoding/json must not hold, in any of its objects, two member names that
// encoding/json would fold together.

// checkFoldedNames returns an error if an object in the JSON value raw,
// already validated within lim, at any depth, has two member names equal
// under encoding/json's case folding. It scans each nested value once per
// level above it: O(len(raw) × lim.MaxDepth).
func checkFoldedNames(raw []byte, lim jsonx.Limits) error {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	switch jsonx.KindOf(raw) {
	case jsonx.KindObject:
		var seen map[string]string // folded name → name
		return jsonx.ScanObject(raw, lim, func(name, v []byte) error {
			if seen == nil {
				seen = make(map[string]string)
			}
			k := string(appendFolded(nil, name))
			if prev, dup := seen[k]; dup {
				return fmt.Errorf("member names %s and %s differ only in case, which encoding/json does not tell apart", untrusted.Quote(prev), untrusted.Quote(name))
			}
			seen[k] = string(name)
			return checkFoldedNames(v, lim)
		})
	case jsonx.KindArray:
		return jsonx.ScanArray(raw, lim, func(elem []byte) error {
			return checkFoldedNames(elem, lim)
		})
	}
	return nil
}

// appendFolded appends name folded as encoding/json folds names (ASCII
// letters upper-cased, other runes to the smallest rune of their Unicode
// simple folding orbit), so that two names fold alike exactly when
// bytes.EqualFold reports them equal.
func appendFolded(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		for {
			f := unicode.SimpleFold(r)
			if f <= r {
				r = f
				break
			}
			r = f
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

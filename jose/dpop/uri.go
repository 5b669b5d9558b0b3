package dpop

import (
	"errors"
	"strconv"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
)

// NormalizeURI returns the form of the http or https URI s that "htu" is
// compared in (RFC 9449 §4.3 check 9): s without its query and fragment,
// normalized as RFC 3986 §6.2.2 and §6.2.3 say:
//
//   - the scheme and the host in lower case, the hexadecimal digits of
//     percent-encodings in upper case (§6.2.2.1);
//   - percent-encoded unreserved characters (ALPHA, DIGIT, "-", ".", "_",
//     "~") decoded, every other percent-encoding kept (§6.2.2.2): "%2F" is
//     not "/";
//   - the dot segments "." and ".." of the path removed (§6.2.2.3, §5.2.4);
//   - the scheme's default port (80 for http, 443 for https) and an empty
//     port removed, another port written without leading zeros, and an
//     empty path written "/" (§6.2.3).
//
// The path is otherwise compared as is: case-sensitive, "//" kept. A URI
// that is not absolute http or https, has an empty host, a userinfo (RFC
// 9110 §4.2.4), a port beyond 65535, a character a URI may not hold
// (non-ASCII, space, ...) or a malformed percent-encoding is refused. The
// work is linear in len(s).
func NormalizeURI(s string) (string, error) {
	n, err := normalizeURI(s)
	if err != nil {
		return "", errors.New("dpop: " + err.Error())
	}
	return n, nil
}

// normalizeURI is NormalizeURI, its errors without the package prefix.
func normalizeURI(s string) (string, error) {
	rest := s
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	colon := strings.IndexByte(rest, ':')
	if colon < 0 {
		return "", uriError("no scheme", s)
	}
	scheme := strings.ToLower(rest[:colon])
	var defaultPort string
	switch scheme {
	case "https":
		defaultPort = "443"
	case "http":
		defaultPort = "80"
	default:
		return "", uriError("not an http or https URI", s)
	}
	rest = rest[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		return "", uriError("no authority", s)
	}
	rest = rest[2:]
	slash := strings.IndexByte(rest, '/')
	authority, path := rest, ""
	if slash >= 0 {
		authority, path = rest[:slash], rest[slash:]
	}
	if strings.IndexByte(authority, '@') >= 0 {
		return "", uriError("userinfo in an http URI", s)
	}
	host, port := authority, ""
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.Contains(authority[i:], "]") {
		host, port = authority[:i], authority[i+1:]
	}
	if host == "" {
		return "", uriError("empty host", s)
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(scheme)
	b.WriteString("://")
	if host[0] == '[' {
		if host[len(host)-1] != ']' || len(host) < 3 {
			return "", uriError("malformed IP literal", s)
		}
		for i := 1; i < len(host)-1; i++ {
			c := host[i]
			if !isUnreserved(c) && !isSubDelim(c) && c != ':' {
				return "", uriError("malformed IP literal", s)
			}
		}
		b.WriteString(strings.ToLower(host))
	} else if err := appendNormalized(&b, host, true); err != nil {
		return "", uriError(err.Error()+" in the host", s)
	}
	if port != "" {
		if len(port) > 5 {
			return "", uriError("port out of range", s)
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 || port[0] == '+' || port[0] == '-' {
			return "", uriError("malformed port", s)
		}
		if p := strconv.Itoa(n); p != defaultPort {
			b.WriteByte(':')
			b.WriteString(p)
		}
	}
	start := b.Len()
	if path == "" {
		b.WriteByte('/')
		return b.String(), nil
	}
	if err := appendNormalized(&b, path, false); err != nil {
		return "", uriError(err.Error()+" in the path", s)
	}
	out := b.String()
	if !hasDotSegment(out[start:]) {
		// removeDotSegments would return the path as it is, and
		// out[:start] + it would be a copy of out.
		return out, nil
	}
	return out[:start] + removeDotSegments(out[start:]), nil
}

// hasDotSegment reports whether the absolute path p has a segment "." or
// "..": a "." in a segment such as "b.json" is none.
func hasDotSegment(p string) bool {
	for i := strings.Index(p, "/."); i >= 0; {
		seg := p[i+1:]
		if j := strings.IndexByte(seg, '/'); j >= 0 {
			seg = seg[:j]
		}
		if seg == "." || seg == ".." {
			return true
		}
		next := strings.Index(p[i+2:], "/.")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

// appendNormalized writes the host or path component s to b with its
// percent-encodings normalized (RFC 3986 §6.2.2.1, §6.2.2.2) and, for a
// host, its letters in lower case, after checking that every character is
// one the component may hold (RFC 3986 §3.2.2 reg-name, §3.3 pchar and "/").
func appendNormalized(b *strings.Builder, s string, host bool) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return errBadPercent
			}
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if isUnreserved(v) {
				if host {
					v = lower(v)
				}
				b.WriteByte(v)
				continue
			}
			b.WriteByte('%')
			b.WriteByte(upper(s[i-1]))
			b.WriteByte(upper(s[i]))
		case isUnreserved(c) || isSubDelim(c):
			if host {
				c = lower(c)
			}
			b.WriteByte(c)
		case !host && (c == ':' || c == '@' || c == '/'):
			b.WriteByte(c)
		default:
			return errBadChar
		}
	}
	return nil
}

var (
	errBadPercent = errors.New("malformed percent-encoding")
	errBadChar    = errors.New("character not allowed")
)

// removeDotSegments is the algorithm of RFC 3986 §5.2.4 on an absolute
// path (one that starts with "/").
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	out := make([]string, 0, strings.Count(in, "/"))
	segs := strings.Split(in[1:], "/") // in is bounded by the caller's URI, and each segment is kept at most once
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

func uriError(what, s string) error {
	return errors.New("URI " + untrusted.Quote(s) + ": " + what)
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool {
	return strings.IndexByte("!$&'()*+,;=", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

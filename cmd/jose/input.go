package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// Bounds on what the command reads, so that a wrong file (a disk image
// named as a key) fails at once instead of filling memory.
const (
	maxKeyFile = 8 << 20  // bytes of a JWK, JWK Set or PEM file
	maxPayload = 64 << 20 // bytes of a payload or plaintext to sign or encrypt
	// maxToken is the library's default token limit, plus room for the
	// line break and spaces a shell adds.
	maxToken = jose.DefaultMaxTokenSize + 64
)

// stdinName is how errors name standard input.
const stdinName = "standard input"

func isStdin(name string) bool { return name == "" || name == "-" }

// displayName is how messages name the file name: "standard input", the
// name as given, or, when it holds what is not printable (a file name
// with an escape sequence, matched by a shell glob), the name quoted and
// escaped: whole, as a path is bounded by the system.
func displayName(name string) string {
	if isStdin(name) {
		return stdinName
	}
	if q := strconv.Quote(name); q != `"`+name+`"` {
		return q
	}
	return name
}

// readInput reads what (whatToken, whatKey, ...) from the file name, or
// from standard input for "" and "-", up to max bytes. On a terminal,
// standard input is read after a notice (stdinNotice).
func readInput(s *streams, name, what string, max int64) ([]byte, error) {
	var r io.Reader = s.stdin
	if isStdin(name) {
		stdinNotice(s, what, s.stdinArg && name == "-")
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, errorf("%s: %v", displayName(name), errors.Unwrap(err))
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		// The error of a file names it already ("read d: is a
		// directory"): said once.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, errorf("%s: %v", displayName(name), err)
	}
	if int64(len(data)) > max {
		return nil, errorf("%s: larger than %d bytes", displayName(name), max)
	}
	return data, nil
}

// tokenArgHelp ends the message for a TOKEN argument that is neither a
// file nor a token.
const tokenArgHelp = "want a file, - for standard input, or the token itself"

// readToken reads a compact or JSON token, without the white space around
// it, from name: standard input for "" and "-", the file name, or when no
// file of that name exists and name is a well-formed JWS or JWE, name
// itself (a pasted token). The token's form is checked as "jose inspect"
// checks it, so that a malformed one is reported in the user's words
// before any key is tried.
func readToken(s *streams, name string) ([]byte, error) {
	if !isStdin(name) {
		if _, err := os.Stat(name); err != nil {
			arg := bytes.TrimSpace([]byte(name))
			if len(arg) > maxToken {
				return nil, errorf("%s: larger than %d bytes", argName(name), maxToken)
			}
			terr := checkToken(arg)
			if terr == nil {
				return arg, nil
			}
			if looksLikeToken(arg) {
				if errors.Is(err, syscall.ENAMETOOLONG) {
					// No file name is that long: a broken token.
					return nil, errorf("%s: %v (%s)", argName(name), terr, tokenArgHelp)
				}
				return nil, errorf("%s: %v, and %v (%s)", argName(name), errors.Unwrap(err), terr, tokenArgHelp)
			}
			return nil, errorf("%s: %v: %s", argName(name), errors.Unwrap(err), tokenArgHelp)
		}
	}
	data, err := readInput(s, name, whatToken, maxToken)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errorf("%s: no token", displayName(name))
	}
	if err := checkToken(data); err != nil {
		return nil, errorf("%s: %v", displayName(name), err)
	}
	return data, nil
}

// isJWE reports whether the well-formed token tok (readToken checked it)
// is a JWE: five compact parts, or a JSON object with "ciphertext".
func isJWE(tok []byte) bool {
	if !isJSON(tok) {
		return bytes.Count(tok, []byte(".")) == 4
	}
	m, err := members(tok)
	return err == nil && m["ciphertext"] != nil
}

// Refusals of a token of the other kind, saying which command takes it.
var (
	errJWEGiven = errorf("the token is a JWE (encrypted), not a JWS: decrypt it with \"jose decrypt\", or validate a nested JWT with \"jose jwt validate --enc-alg ... --enc ... --enc-key ...\"")
	errJWSGiven = errorf("the token is a JWS (signed), not a JWE: verify it with \"jose verify\" or \"jose jwt validate\"")
)

// argName is how messages name a file argument: as given, or quoted and
// cut when it is long, not printable (a broken pasted token) or has
// spaces around it.
func argName(name string) string {
	if len(name) > 64 || strconv.Quote(name) != `"`+name+`"` || strings.TrimSpace(name) != name {
		return untrusted.Quote(name)
	}
	return name
}

// looksLikeToken reports whether arg was meant as a token rather than a
// file name: a JSON object, or text with the dots of a compact one.
func looksLikeToken(arg []byte) bool {
	n := bytes.Count(arg, []byte("."))
	return bytes.HasPrefix(arg, []byte("{")) || (n == 2 || n == 4) && !bytes.ContainsAny(arg, "/\\ ")
}

// checkToken checks that tok is a well-formed JWS or JWE, compact or JSON,
// and says what is wrong in the user's words.
func checkToken(tok []byte) error {
	var err error
	if isJSON(tok) {
		_, err = inspectJSON(tok)
	} else {
		_, err = inspectCompact(tok)
	}
	if err != nil {
		return errorf("not a JWS or JWE: %s", userText(err))
	}
	return nil
}

// keyFile is what a key file holds: one key, or a JWK Set.
type keyFile struct {
	name string
	key  *jose.JWK // one JWK, or the key of a PEM file
	set  *jose.Set
	pem  bool // read from PEM
}

// loadKeyFile reads name as a PEM file, a JWK Set (a JSON object with a
// "keys" member) or a JWK.
func loadKeyFile(s *streams, name string) (*keyFile, error) {
	return loadKeyFileOf(s, name, whatKeyOrSet)
}

// loadKeyFileOf is loadKeyFile of the file that holds what: whatKey,
// whatSet or whatKeyOrSet.
func loadKeyFileOf(s *streams, name, what string) (*keyFile, error) {
	data, err := readInput(s, name, what, maxKeyFile)
	if err != nil {
		return nil, err
	}
	kf := &keyFile{name: displayName(name)}
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return nil, errorf("%s: empty key file", kf.name)
	case bytes.HasPrefix(trimmed, []byte("-----BEGIN")):
		kf.pem = true
		kf.key, err = jose.ParseKeyPEM(trimmed)
	case trimmed[0] != '{':
		return nil, &cmdError{
			msg:  kf.name + ": not a key file: want a JWK or JWK Set (a JSON object) or PEM (-----BEGIN ...)",
			errs: []error{errNotKeyFile},
		}
	case isSet(trimmed):
		kf.set, err = jose.ParseSet(trimmed)
	default:
		kf.key, err = jose.ParseKey(trimmed)
	}
	if err != nil {
		return nil, errorf("%s: %s", kf.name, userText(err))
	}
	return kf, nil
}

// errNotKeyFile is wrapped by the refusal of a file that is neither JSON
// nor PEM, such as a raw secret given with --key.
var errNotKeyFile = errors.New("not a key file")

// isSet reports whether data is a JSON object with a "keys" member, which a
// JWK never has (RFC 7517 §5).
func isSet(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["keys"]
	return ok
}

// source returns the key, or the set, as the Key and Keys options of a
// verifier or decrypter take them: exactly one is non-nil.
func (kf *keyFile) source() (key any, set *jose.Set) {
	if kf.set != nil {
		return nil, kf.set
	}
	return kf.key, nil
}

// loadKey reads a file that must hold one key (JWK or PEM).
func loadKey(s *streams, name string) (*jose.JWK, error) {
	kf, err := loadKeyFileOf(s, name, whatKey)
	if err != nil {
		return nil, err
	}
	if kf.set != nil {
		return nil, errorf("%s: a JWK Set, not a key (use the \"jose set\" commands)", kf.name)
	}
	return kf.key, nil
}

// loadSet reads a file that must hold a JWK Set.
func loadSet(s *streams, name string) (*jose.Set, error) {
	kf, err := loadKeyFileOf(s, name, whatSet)
	if err != nil {
		return nil, err
	}
	if kf.set == nil {
		return nil, errorf("%s: a key, not a JWK Set (a set is {\"keys\":[...]})", kf.name)
	}
	return kf.set, nil
}

// writeJSON writes data, one JSON value, indented, and a line break, its
// strings' hidden characters escaped (escapeJSON): what the command
// prints as JSON (headers, claims, keys) shows what they hold, to a
// terminal or not, and decodes to the same values.
func writeJSON(w io.Writer, data []byte) error {
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(escapeJSON(b.Bytes()))
	return err
}

// writeValue writes v (a JWK, a Set or any value encoding/json handles) as
// indented JSON, as writeJSON writes it. <, > and & are kept as they are
// (encoding/json would write \u003c, \u003e and \u0026 for HTML): the
// JSON is for reading, not for a web page.
func writeValue(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return writeJSON(w, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// parseAlg checks the value of the flag name against the algorithms this
// build implements. "none" is never accepted.
func parseAlg[A ~string](flagName, value string, known []A) (A, error) {
	if value == "" {
		return "", usagef("--%s is required (one of %s)", flagName, joinAlgs(known))
	}
	if strings.EqualFold(value, "none") {
		return "", usagef("--%s none: unsecured tokens are never made or accepted", flagName)
	}
	if !slices.Contains(known, A(value)) {
		if needsGo127(value) {
			return "", usagef("--%s %s: ML-DSA needs a build with Go 1.27 or later (this one is %s)", flagName, value, runtime.Version())
		}
		names := make([]string, len(known))
		for i, a := range known {
			names[i] = string(a)
		}
		if k := closeTo(value, names); k != "" {
			return "", usagef("--%s %s: unknown algorithm (did you mean %s? %s)", flagName, argName(value), k, slipKind(value, k))
		}
		return "", usagef("--%s %s: unknown algorithm (want one of %s)", flagName, value, joinAlgs(known))
	}
	return A(value), nil
}

// slipKind says how v, a name closeTo found, differs from the name k:
// "names are case-sensitive", or for spaces around it, as a quoted shell
// variable keeps them, "without the spaces".
func slipKind(v, k string) string {
	if strings.TrimSpace(v) == k {
		return "without the spaces"
	}
	return "names are case-sensitive"
}

// needsGo127 reports whether alg is an algorithm this module implements
// with Go 1.27 only, and this build is older.
func needsGo127(alg string) bool {
	return !jwa.MLDSASupported() && slices.Contains([]jwa.SignatureAlgorithm{jwa.MLDSA44, jwa.MLDSA65, jwa.MLDSA87}, jwa.SignatureAlgorithm(alg))
}

// parseAlgs is parseAlg for an allow-list: at least one value, each known.
func parseAlgs[A ~string](flagName string, values []string, known []A) ([]A, error) {
	if len(values) == 0 {
		return nil, usagef("--%s is required: the algorithms to accept (from %s)", flagName, joinAlgs(known))
	}
	out := make([]A, 0, len(values))
	for _, v := range values {
		a, err := parseAlg(flagName, v, known)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

func joinAlgs[A ~string](algs []A) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// Algorithm lists of this build.
var (
	signatureAlgs = jwa.SignatureAlgorithms()
	keyAlgs       = jwa.KeyAlgorithms()
	contentEncs   = jwa.ContentEncryptions()
)

package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

// headerFlag is --header NAME=VALUE, repeatable: members of the protected
// header. VALUE is JSON when it parses as JSON (5, true, null, {"a":1},
// "quoted"), else the string as given, so that --header ver=2 is a number
// and --header org=acme a string; --header 'ver="2"' is the string "2",
// and --header x= the empty string. A number is kept as written
// (12345678901234567890 stays so), but one that no IEEE 754 double holds
// (1e400 overflows, 1e-400 underflows to 0) is refused: most readers of
// a header could not read it back. The name is case-sensitive and may
// not be empty, nor given twice.
type headerFlag []string

func (h *headerFlag) String() string { return strings.Join(*h, " ") }

func (h *headerFlag) Set(v string) error {
	if name, _, ok := strings.Cut(v, "="); !ok || name == "" {
		return usagef("want NAME=VALUE, not %s", untrusted.Quote(v))
	}
	*h = append(*h, v)
	return nil
}

// The header members a command sets itself, and the flag that sets each
// ("" for those the command or the library alone writes), or, after "!",
// why the command cannot write it: --header may not give them.
var (
	jwsHeaderNames = map[string]string{"alg": "--alg", "kid": "--kid", "typ": "--typ", "cty": "--cty", "b64": noB64, "crit": noCrit, "enc": noEnc}
	// jwtHeaderNames are those of "jwt issue", which has no --cty.
	jwtHeaderNames = map[string]string{"alg": "--alg", "kid": "--kid", "typ": "--typ", "cty": "", "b64": noB64, "crit": noCrit, "enc": noEnc}
	jweHeaderNames = map[string]string{
		"alg": "--alg", "enc": "--enc", "zip": "--zip", "kid": "--kid", "typ": "--typ", "cty": "--cty", "p2c": "--p2c",
		"b64": noB64, "crit": noCrit, "apu": noAgreement, "apv": noAgreement,
		"epk": "", "iv": "", "tag": "", "p2s": "", "ek": "",
	}
)

// Why the commands cannot write some registered members.
const (
	noB64       = "!the unencoded payload option (RFC 7797) is not supported by this command"
	noCrit      = "!critical extensions (RFC 7515 §4.1.11) are not supported by this command"
	noEnc       = "!a JWS has no \"enc\": that member marks a JWE (RFC 7516 §9)"
	noAgreement = "!ECDH-ES agreement information (RFC 7518 §4.6.1) is not supported by this command"
)

// members returns the members of the flags, refusing the names of refused,
// and a name given twice.
func (h headerFlag) members(refused map[string]string) (map[string]any, error) {
	if len(h) == 0 {
		return nil, nil
	}
	m := make(map[string]any, len(h))
	for _, v := range h {
		name, value, _ := strings.Cut(v, "=")
		if !utf8.ValidString(v) {
			return nil, usagef("--header %s: not UTF-8 text", untrusted.Quote(v))
		}
		if f, ok := refused[name]; ok {
			if why, ok := strings.CutPrefix(f, "!"); ok {
				return nil, usagef("--header %s: %s", untrusted.Quote(name), why)
			}
			if f != "" {
				return nil, usagef("--header %s: give %q with %s", untrusted.Quote(name), name, f)
			}
			return nil, usagef("--header %s: the command sets %q itself", untrusted.Quote(name), name)
		}
		if _, dup := m[name]; dup {
			return nil, usagef("--header %s: given twice", untrusted.Quote(name))
		}
		if json.Valid([]byte(value)) {
			if n := badNumber(value); n != "" {
				as := `"` + n + `"`
				if strings.TrimSpace(value) == n && strconv.Quote(name) == `"`+name+`"` && !strings.ContainsAny(name, "' ") {
					as = `--header '` + name + `="` + n + `"'`
				}
				return nil, usagef("--header %s: the number %s is out of the range of a double (IEEE 754), which most readers of the header cannot hold: give it as a string, %s", untrusted.Quote(name), n, as)
			}
			m[name] = json.RawMessage(value)
		} else {
			m[name] = value
		}
	}
	return m, nil
}

// headerError names --header in a refusal of one of its members by the
// library (a registered name given a value of the wrong type), or of the
// header it makes too long.
func headerError(err error, members map[string]any) error {
	switch {
	case err == nil || len(members) == 0:
	case strings.Contains(err.Error(), "header member"):
		return usagef("--header %s", strings.TrimPrefix(userText(err), "header member "))
	case errors.Is(err, jose.ErrLimitExceeded):
		return usagef("--header: the protected header would be larger than the %d bytes a reader accepts: give shorter values", jose.DefaultMaxHeaderSize)
	}
	return err
}

// badNumber returns the first number of the JSON value v that overflows a
// double or underflows to zero, or "".
func badNumber(v string) string {
	d := json.NewDecoder(strings.NewReader(v))
	d.UseNumber()
	for {
		t, err := d.Token()
		if err != nil {
			return ""
		}
		n, ok := t.(json.Number)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(n.String(), 64)
		mantissa, _, _ := strings.Cut(strings.ToLower(n.String()), "e")
		if err != nil || f == 0 && strings.ContainsAny(mantissa, "123456789") {
			return n.String()
		}
	}
}

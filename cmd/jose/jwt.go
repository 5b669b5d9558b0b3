package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose/jwe"
	"github.com/josebench/josebench/jose/jws"
	"github.com/josebench/josebench/jose/jwt"
)

var jwtCommand = &command{
	name:    "jwt",
	summary: "issue and validate JSON Web Tokens",
	usage: `Usage: jose jwt <command> [flags] [FILE]

Issue a signed JWT (RFC 7519) from claims given as flags, or validate one:
its signature, explicit type and claims, as package jose/jwt does.
`,
	sub: []*command{jwtIssueCommand, jwtValidateCommand},
}

// registeredFlags are the registered claims (RFC 7519 §4.1) that "jwt
// issue" sets from a flag of the same name.
var registeredFlags = []string{"iss", "sub", "aud", "exp", "nbf", "iat", "jti"}

var jwtIssueCommand = &command{
	name:    "issue",
	summary: "issue a signed JWT",
	usage: `Usage: jose jwt issue --alg ALG (--key FILE [--kid KID] | --secret-file FILE | --secret-env NAME) [--header NAME=VALUE]... [--iss ISS] [--sub SUB] [--aud AUD,...] [--exp WHEN] [--nbf WHEN] [--iat WHEN] [--jti JTI] [--claims JSON] [--typ TYP] [--enc-alg ALG --enc ENC --enc-key FILE [--enc-kid KID]]

Sign a JWT Claims Set with the key in FILE (a JWK, PEM, or a JWK Set and
--kid to pick the key; for HMAC, a raw secret as in "jose sign") and print
the JWT, a JWS Compact Serialization with "typ": "JWT" (RFC 7519 §5.1)
unless --typ names an explicit type (RFC 8725 §3.11), such as at+jwt.
With --enc-alg, --enc and --enc-key, the signed JWT is then encrypted to
the recipient's key: a nested JWT, a JWE with "cty": "JWT" (RFC 7519
§5.2).

The claims are those of the flags and the members of --claims, a JSON
object, in that order; a registered claim may be given one way only. WHEN
is "now", a duration from now (1h, -5m, 90s), an RFC 3339 time
(2030-01-02T15:04:05Z), or "none" to leave the claim out. "exp" is one
hour from now unless --exp or --claims says otherwise; "iat" is now.
--header adds protected members of the JWS as "jose sign --header" does;
alg, kid, typ, cty, b64 and crit are refused ("cty" is "JWT" on the JWE
of a nested JWT, RFC 7519 §5.2, which the command sets itself).
`,
	flags: func(fs *flag.FlagSet) action {
		alg := fs.String("alg", "", "signature `algorithm` (required)")
		var key keyFlags
		key.register(fs, "the signing key `file`: a JWK, a JWK Set (with --kid) or PEM")
		kid := fs.String("kid", "", "the header's \"kid\" (default: the key's); with a JWK Set, the kid of the key to sign with")
		typ := fs.String("typ", "", "the header's \"typ\" (default JWT)")
		var extraHeader headerFlag
		fs.Var(&extraHeader, "header", "a protected header member `name=value`, repeatable: value is JSON if it parses, else a string")
		iss := fs.String("iss", "", "the \"iss\" (issuer) claim")
		sub := fs.String("sub", "", "the \"sub\" (subject) claim")
		var aud listFlag
		fs.Var(&aud, "aud", "the \"aud\" (audience) claim: `values`, comma-separated or repeated")
		exp := fs.String("exp", "1h", "the \"exp\" (expiration time) claim: `WHEN`")
		nbf := fs.String("nbf", "none", "the \"nbf\" (not before) claim: `WHEN`")
		iat := fs.String("iat", "now", "the \"iat\" (issued at) claim: `WHEN`")
		jti := fs.String("jti", "", "the \"jti\" (JWT ID) claim")
		extra := fs.String("claims", "", "more claims: a JSON `object`, such as '{\"scope\":\"read\"}'")
		var n nestFlags
		n.register(fs, "the key management `algorithm` of a nested JWT", "the content encryption `algorithm` of a nested JWT",
			"the recipient's key `file` of a nested JWT: a JWK, a JWK Set (with --enc-kid) or PEM")
		encKid := fs.String("enc-kid", "", "with an --enc-key JWK Set, the `kid` of the recipient's key")
		return func(s *streams, _ []string) error {
			a, err := parseAlg("alg", *alg, signatureAlgs)
			if err != nil {
				return err
			}
			if err := key.check(""); err != nil {
				return err
			}
			if err := n.check(key.fromStdin(), ""); err != nil {
				return err
			}
			members, err := extraHeader.members(jwtHeaderNames)
			if err != nil {
				return err
			}
			set := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
			private, names, err := parseClaims(*extra)
			if err != nil {
				return err
			}
			for _, name := range registeredFlags {
				if set[name] && slices.Contains(names, name) {
					return usagef("--%s and --claims both set %q: give it one way", name, name)
				}
			}
			now := s.now()
			c := jwt.Claims{Issuer: *iss, Subject: *sub, Audience: jwt.Audience(aud), ID: *jti}
			for _, d := range []struct {
				name, value string
				dst         *jwt.NumericDate
			}{{"exp", *exp, &c.Expiry}, {"nbf", *nbf, &c.NotBefore}, {"iat", *iat, &c.IssuedAt}} {
				if !set[d.name] && slices.Contains(names, d.name) {
					continue // the default gives way to --claims
				}
				if *d.dst, err = parseWhen(d.name, d.value, now); err != nil {
					return err
				}
			}
			k, err := key.signingKey(s, a, *kid)
			if err != nil {
				return err
			}
			signer, err := jwt.NewSigner(a, k, &jws.SignerOptions{KeyID: *kid, Type: *typ, Extra: members})
			err = headerError(err, members)
			err = weakKey(err, key.given())
			if err != nil {
				return err
			}
			claims := json.RawMessage(mergeClaims(c.AppendJSON(nil), private))
			var tok []byte
			if n.nested() {
				var e *jwt.Encrypter
				if e, err = n.encrypter(s, signer, *encKid); err != nil {
					return err
				}
				tok, err = e.Encrypt(claims)
			} else {
				tok, err = signer.Sign(claims)
			}
			if errors.Is(err, jwt.ErrInvalidClaims) {
				return errorf("the claims would not validate: %s", strings.TrimPrefix(userText(err), "claims that would not validate: "))
			}
			if err != nil {
				return err
			}
			_, err = s.stdout.Write(append(tok, '\n'))
			return err
		}
	},
}

// nestFlags are the flags of a nested JWT (RFC 7519 §5.2): its JWE's key
// management algorithms, content encryptions and key file, given all
// three or none.
type nestFlags struct {
	algs, encs listFlag
	keyFile    string
}

func (n *nestFlags) register(fs *flag.FlagSet, algUsage, encUsage, keyUsage string) {
	fs.Var(&n.algs, "enc-alg", algUsage)
	fs.Var(&n.encs, "enc", encUsage)
	fs.StringVar(&n.keyFile, "enc-key", "", keyUsage)
}

func (n *nestFlags) nested() bool { return len(n.algs) > 0 || len(n.encs) > 0 || n.keyFile != "" }

// check checks that the flags are given all three or none, and that the
// key file of the JWE and the signature key (or the token input, when not
// empty) do not both come from standard input.
func (n *nestFlags) check(keyStdin bool, input string) error {
	switch {
	case !n.nested():
		return nil
	case len(n.algs) == 0 || len(n.encs) == 0 || n.keyFile == "":
		return usagef("a nested JWT needs --enc-alg, --enc and --enc-key")
	case isStdin(n.keyFile) && (keyStdin || input != "" && isStdin(input)):
		return usagef("--enc-key - and the other key or the token cannot both come from standard input")
	}
	return nil
}

// encrypter returns the encrypter of nested JWTs signed by signer: exactly
// one algorithm and one encryption are allowed.
func (n *nestFlags) encrypter(s *streams, signer *jwt.Signer, kid string) (*jwt.Encrypter, error) {
	if len(n.algs) != 1 || len(n.encs) != 1 {
		return nil, usagef("--enc-alg and --enc take one algorithm each")
	}
	a, err := parseAlg("enc-alg", n.algs[0], keyAlgs)
	if err != nil {
		return nil, err
	}
	e, err := parseAlg("enc", n.encs[0], contentEncs)
	if err != nil {
		return nil, err
	}
	k, err := encryptionKey(s, n.keyFile, a, "--enc-kid", kid)
	if err != nil {
		return nil, err
	}
	if err := checkDirKey(k, n.keyFile, a, e); err != nil {
		return nil, err
	}
	enc, err := jwt.NewNestedEncrypter(signer, a, e, k, nil)
	return enc, weakKey(err, "--enc-key "+n.keyFile)
}

// decrypter returns the decrypter of the JWE of nested JWTs.
func (n *nestFlags) decrypter(s *streams) (*jwe.Decrypter, error) {
	algs, err := parseAlgs("enc-alg", n.algs, keyAlgs)
	if err != nil {
		return nil, err
	}
	encs, err := parseAlgs("enc", n.encs, contentEncs)
	if err != nil {
		return nil, err
	}
	d, _, err := newDecrypter(s, n.keyFile, algs, encs)
	return d, err
}

// parseWhen reads the value of a date flag: "now", a duration from now, an
// RFC 3339 time (truncated to whole seconds, RFC 7519 §2), or "none" (the
// zero NumericDate: no claim).
func parseWhen(name, value string, now time.Time) (jwt.NumericDate, error) {
	switch value {
	case "none":
		return jwt.NumericDate{}, nil
	case "now":
		return jwt.NewNumericDate(now), nil
	}
	if d, err := time.ParseDuration(value); err == nil {
		return jwt.NewNumericDate(now.Add(d)), nil
	}
	if t, err := time.Parse(time.RFC3339, value); err == nil {
		return jwt.NewNumericDate(t), nil
	}
	return jwt.NumericDate{}, usagef("--%s %s: want now, a duration from now (1h, -5m), an RFC 3339 time or none", name, value)
}

// parseClaims reads --claims: a JSON object, compacted, and the names of its
// members. Empty means no claims. Whether the object is one the validators
// accept (no duplicate names, registered claims of their types) is checked
// by jwt.Signer.Sign.
func parseClaims(s string) (obj []byte, names []string, err error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil, nil
	}
	var b bytes.Buffer
	var members map[string]json.RawMessage
	if err := json.Compact(&b, []byte(s)); err != nil || json.Unmarshal(b.Bytes(), &members) != nil || b.Bytes()[0] != '{' {
		return nil, nil, usagef("--claims: want a JSON object, such as '{\"scope\":\"read\"}'")
	}
	if dup := duplicateName(b.Bytes()); dup != "" {
		// Said here: the library would name its offset in the claims the
		// command writes, not in --claims.
		return nil, nil, usagef("--claims: member name %s given twice", untrusted.Quote(dup))
	}
	for name := range members {
		names = append(names, name)
	}
	return b.Bytes(), names, nil
}

// duplicateName returns the first member name that an object of the valid
// JSON text data holds twice, at any depth, or "".
func duplicateName(data []byte) string {
	d := json.NewDecoder(bytes.NewReader(data))
	var stack []map[string]bool // the names of each open object; nil for an array
	key := false                // the next token of the innermost object is a name
	for {
		t, err := d.Token()
		if err != nil {
			return ""
		}
		if key {
			if name, ok := t.(string); ok {
				top := stack[len(stack)-1]
				if top[name] {
					return name
				}
				top[name] = true
				key = false
				continue
			}
		}
		switch t {
		case json.Delim('{'):
			stack = append(stack, map[string]bool{})
			key = true
			continue
		case json.Delim('['):
			stack = append(stack, nil)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		key = len(stack) > 0 && stack[len(stack)-1] != nil
	}
}

// mergeClaims returns the JSON object of the members of a followed by those
// of b (nil for none).
func mergeClaims(a, b []byte) []byte {
	switch {
	case len(b) == 0 || string(b) == "{}":
		return a
	case string(a) == "{}":
		return b
	}
	return append(append(a[:len(a)-1], ','), b[1:]...)
}

var jwtValidateCommand = &command{
	name:    "validate",
	summary: "validate a JWT and print its claims",
	usage: `Usage: jose jwt validate --alg ALG[,ALG...] (--key FILE|SETFILE | --secret-file FILE | --secret-env NAME) (--aud AUD,... | --any-audience) [--iss ISS,...] [--sub SUB] [--typ TYP] [--leeway DURATION] [--max-age DURATION] [--require CLAIM,...] [--no-exp] [--enc-alg ALG,... --enc ENC,... --enc-key FILE|SETFILE] [TOKEN]

Validate the signed JWT TOKEN (a file, - for standard input, or the token
itself; default standard input) with the key or JWK Set in FILE or a raw
HMAC secret (as in "jose sign"), accepting only the algorithms of --alg
("none" never), as RFC 7519 §7.2 says: the signature first, then "typ"
(absent or JWT unless --typ names the expected type), then the claims.
"exp" is required unless --no-exp, and an audience decision is: --aud, the
values that name this recipient, or --any-audience (RFC 8725 §3.9). With
--enc-alg, --enc and --enc-key, only nested JWTs are accepted: a JWE with
"cty": "JWT" (RFC 7519 §5.2), decrypted with the key or JWK Set of
--enc-key, whose plaintext is the signed JWT.

Print the claims as JSON only when the token is valid; otherwise exit with
status 1 and the reason on standard error: the failing claim, or the
signature.
`,
	maxArgs:  1,
	tokenArg: true,
	flags: func(fs *flag.FlagSet) action {
		var algs, iss, aud, required listFlag
		fs.Var(&algs, "alg", "the accepted signature `algorithms`, comma-separated or repeated (required)")
		var key keyFlags
		key.register(fs, "the key or JWK Set `file`")
		fs.Var(&iss, "iss", "the accepted issuers: `values`, comma-separated or repeated (\"iss\" is then required)")
		fs.Var(&aud, "aud", "this recipient's audience `values`, comma-separated or repeated: \"aud\" must hold one")
		anyAud := fs.Bool("any-audience", false, "accept every \"aud\", present or not")
		sub := fs.String("sub", "", "the required \"sub\"")
		typ := fs.String("typ", "", "the expected header \"typ\" (default: absent or JWT)")
		leeway := fs.Duration("leeway", 0, "the clock skew `duration` tolerated on exp, nbf and iat")
		maxAge := fs.Duration("max-age", 0, "refuse tokens issued longer than `duration` ago (\"iat\" is then required)")
		fs.Var(&required, "require", "`claims` that must be present, comma-separated or repeated")
		noExp := fs.Bool("no-exp", false, "accept tokens without \"exp\" (one that is present is still checked)")
		var n nestFlags
		n.register(fs, "the accepted key management `algorithms` of a nested JWT, comma-separated or repeated",
			"the accepted content encryption `algorithms` of a nested JWT, comma-separated or repeated",
			"the decryption key or JWK Set `file` of a nested JWT")
		return func(s *streams, args []string) error {
			allowed, err := parseAlgs("alg", algs, signatureAlgs)
			if err != nil {
				return err
			}
			switch {
			case len(aud) == 0 && !*anyAud:
				return usagef("--aud or --any-audience is required: the audiences to accept, or all of them")
			case len(aud) > 0 && *anyAud:
				return usagef("--aud and --any-audience exclude each other")
			case *leeway < 0:
				return usagef("--leeway must not be negative")
			case *maxAge < 0:
				return usagef("--max-age must not be negative")
			}
			input := argOrStdin(args)
			if err := key.check(input); err != nil {
				return err
			}
			if err := n.check(key.fromStdin(), input); err != nil {
				return err
			}
			verifier, err := newVerifier(s, &key, allowed)
			if err != nil {
				return err
			}
			var decrypter *jwe.Decrypter
			if n.nested() {
				if decrypter, err = n.decrypter(s); err != nil {
					return err
				}
			}
			validator, err := jwt.NewValidator(jwt.ValidatorOptions{
				Verifier:       verifier,
				Decrypter:      decrypter,
				Type:           *typ,
				Issuers:        iss,
				Audiences:      aud,
				AnyAudience:    *anyAud,
				Subject:        *sub,
				Required:       required,
				ExpiryOptional: *noExp,
				Leeway:         *leeway,
				MaxAge:         *maxAge,
				Now:            s.now,
			})
			if err != nil {
				return err
			}
			tok, err := readToken(s, input)
			if err != nil {
				return err
			}
			switch {
			case isJSON(tok):
				return errorf("a JWT is a compact token (RFC 7519 §7.2), not a JSON serialization")
			case bytes.Count(tok, []byte(".")) == 4 && !n.nested():
				return errorf("an encrypted JWT (JWE): give --enc-alg, --enc and --enc-key to validate a nested JWT")
			case bytes.Count(tok, []byte(".")) == 2 && n.nested():
				return errorf("a signed JWT, not a nested one: with --enc-alg, --enc and --enc-key only nested JWTs are accepted")
			}
			if !n.nested() {
				if err := key.loaded.checkSignedWith(tok, allowed); err != nil {
					return err
				}
			}
			t, err := validator.Validate(tok, nil)
			if err != nil {
				return key.newlineHint(keyNotFound(validateError(err, *typ), key.file))
			}
			return writeJSON(s.stdout, t.Payload)
		}
	},
}

// validateError adds to a refusal the flag that would change it, when
// there is one (--typ only when it was not given: typ is its value).
func validateError(err error, typ string) error {
	var ce *jwt.ClaimError
	switch {
	case errors.As(err, &ce) && errors.Is(err, jwt.ErrMissingClaim) && ce.Claim == "exp":
		return errorf("%w (--no-exp accepts tokens without it)", err)
	case errors.Is(err, jwt.ErrExpired):
		return errorf("%w (a new token is needed; --leeway tolerates clock skew)", err)
	case errors.Is(err, jwt.ErrNotYetValid), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return errorf("%w (--leeway tolerates clock skew)", err)
	case errors.Is(err, jwt.ErrInvalidType) && typ == "":
		return errorf("%w (--typ names the expected type)", err)
	}
	return err
}

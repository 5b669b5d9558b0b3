package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"strings"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

var signCommand = &command{
	name:    "sign",
	summary: "sign a payload (JWS)",
	usage: `Usage: jose sign --alg ALG (--key FILE [--kid KID] | --secret-file FILE | --secret-env NAME) [--typ TYP] [--cty CTY] [--header NAME=VALUE]... [--detached] [--json] [PAYLOAD]

Sign the payload (the file PAYLOAD, or standard input) with the key in FILE
(a JWK, PEM, or a JWK Set and --kid to pick the key) and print the JWS
(RFC 7515): compact, or with --json the flattened JSON serialization. The
key's kid goes into the header unless --kid is given. A key unfit for ALG
is refused. For HMAC, the raw shared secret may be read instead from a
file (--secret-file, its bytes as they are) or an environment variable
(--secret-env); it must be at least as long as the hash (32 bytes for
HS256, RFC 7518 §3.2). --header adds protected members: the value is JSON
if it parses as JSON (5, true, null, {"a":1}, "quoted": --header 'v="2"'
for the string "2"), else the string as given (--header x= is the empty
string). A number is kept as written, but one no IEEE 754 double holds
(1e400) is refused. The members the command sets itself (alg, kid, typ,
cty), b64 and crit (not supported), enc (a JWE's), a name given twice
and text that is not UTF-8 are refused.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		alg := fs.String("alg", "", "signature `algorithm` (required)")
		var key keyFlags
		key.register(fs, "the signing key `file`: a JWK, a JWK Set (with --kid) or PEM")
		kid := fs.String("kid", "", "the header's \"kid\" (default: the key's); with a JWK Set, the kid of the key to sign with")
		typ := fs.String("typ", "", "the header's \"typ\"")
		cty := fs.String("cty", "", "the header's \"cty\"")
		var extra headerFlag
		fs.Var(&extra, "header", "a protected header member `name=value`, repeatable: value is JSON if it parses, else a string")
		detached := fs.Bool("detached", false, "leave the payload out of the token (RFC 7515 Appendix F); verify it with \"jose verify --payload\"")
		asJSON := fs.Bool("json", false, "print the flattened JSON serialization (RFC 7515 §7.2.2)")
		return func(s *streams, args []string) error {
			a, err := parseAlg("alg", *alg, signatureAlgs)
			if err != nil {
				return err
			}
			input := argOrStdin(args)
			if err := key.check(input); err != nil {
				return err
			}
			members, err := extra.members(jwsHeaderNames)
			if err != nil {
				return err
			}
			k, err := key.signingKey(s, a, *kid)
			if err != nil {
				return err
			}
			signer, err := jws.NewSigner(a, k, &jws.SignerOptions{KeyID: *kid, Type: *typ, ContentType: *cty, Extra: members})
			err = headerError(err, members)
			err = weakKey(err, key.given())
			if err != nil {
				return err
			}
			payload, err := readInput(s, input, whatPayload, maxPayload)
			if err != nil {
				return notAFile(err, input, "sign", "PAYLOAD")
			}
			var tok []byte
			switch {
			case *asJSON:
				if tok, err = signer.Flattened(payload, nil); err == nil && *detached {
					tok, err = withoutMember(tok, "payload")
				}
			case *detached:
				tok, err = signer.CompactDetached(payload)
			default:
				tok, err = signer.Compact(payload)
			}
			if err != nil {
				return err
			}
			_, err = s.stdout.Write(append(tok, '\n'))
			return err
		}
	},
}

// notAFile adds to the refusal of a missing PAYLOAD or PLAINTEXT file
// (arg, named what) that the argument is a file, and how to give text
// itself: a new user's "jose sign ... hello".
func notAFile(err error, name, cmd, what string) error {
	if !errors.Is(err, fs.ErrNotExist) || isStdin(name) {
		return err
	}
	return errorf("%s: no such file: %s is a file; give text itself on standard input (printf '%%s' TEXT | jose %s ...)", argName(name), what, cmd)
}

// needKey checks that the key file is given and that it and the input do
// not both come from standard input.
func needKey(keyFile, input string) error {
	if keyFile == "" {
		return usagef("--key is required")
	}
	if isStdin(keyFile) && isStdin(input) {
		return usagef("--key - and the input cannot both come from standard input (name the input file)")
	}
	return nil
}

// withoutMember returns the JSON object obj without its member name, for a
// detached JSON serialization (RFC 7515 Appendix F).
func withoutMember(obj []byte, name string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	delete(m, name)
	return json.Marshal(m)
}

var verifyCommand = &command{
	name:    "verify",
	summary: "verify a JWS and print its payload",
	usage: `Usage: jose verify --alg ALG[,ALG...] (--key FILE|SETFILE | --secret-file FILE | --secret-env NAME) [--payload FILE] [TOKEN]

Verify the JWS TOKEN (a file, - for standard input, or the token itself;
default standard input), compact or JSON, with the key or JWK Set in FILE
or, for HMAC, a raw shared secret (see "jose sign"), accepting only the
algorithms of --alg ("none" never). Print the payload only when the token
verified; otherwise exit with status 1 and the reason on standard error.
A general JSON serialization verifies only when every signature does.

The payload is written as it is to a pipe or a file, or with --raw. To a
terminal, what would be hidden or reorder the text around it (control
characters other than line breaks and tabs, DEL, bidirectional controls
such as U+202E, other format characters such as U+200B, U+2028, U+2029,
variation selectors and the other characters Unicode says to show as
nothing) is escaped: as \uXXXX in a JSON payload, which stays the same JSON; as
\x1b, \u202e or, for a byte that is not UTF-8, \xff in other text. A
carriage return between the values of a JSON payload (which would move
the cursor back over what is shown) becomes a line break, or is dropped
before one; in other text it is \r, unless a line break follows.
`,
	maxArgs:  1,
	tokenArg: true,
	flags: func(fs *flag.FlagSet) action {
		var algs listFlag
		fs.Var(&algs, "alg", "the accepted signature `algorithms`, comma-separated or repeated (required)")
		var key keyFlags
		key.register(fs, "the key or JWK Set `file`")
		payloadFile := fs.String("payload", "", "the detached payload's `file`, for a token without payload")
		raw := fs.Bool("raw", false, rawUsage("the payload"))
		return func(s *streams, args []string) error {
			allowed, err := parseAlgs("alg", algs, signatureAlgs)
			if err != nil {
				return err
			}
			input := argOrStdin(args)
			if err := key.check(input); err != nil {
				return err
			}
			if *payloadFile != "" && isStdin(*payloadFile) && (isStdin(input) || key.fromStdin()) {
				return usagef("--payload - and the token or key cannot both come from standard input")
			}
			v, err := newVerifier(s, &key, allowed)
			if err != nil {
				return err
			}
			tok, err := readToken(s, input)
			if err != nil {
				return err
			}
			if isJWE(tok) {
				return errJWEGiven
			}
			if err := key.loaded.checkSignedWith(tok, allowed); err != nil {
				return err
			}
			payload, err := verify(s, v, tok, *payloadFile)
			if err != nil {
				return key.newlineHint(keyNotFound(err, key.file))
			}
			return writePayload(s, payload, *raw)
		}
	},
}

// newVerifier returns a verifier of the algorithms allowed with the key or
// JWK Set in the file keyFile.
func newVerifier(s *streams, key *keyFlags, allowed []jwa.SignatureAlgorithm) (*jws.Verifier, error) {
	opts := jws.VerifyOptions{Algorithms: allowed}
	secret, err := key.secret(s, allowed)
	if err != nil {
		return nil, err
	}
	if secret != nil {
		opts.Key = secret
		return jws.NewVerifier(opts)
	}
	kf, err := loadKeyFile(s, key.file)
	if err != nil {
		return nil, key.rawSecretHint(err, allowed)
	}
	if kf.set != nil && kf.set.CheckMixed() != nil {
		return nil, errorf("%s mixes private or secret keys with public ones: verify with the public set (\"jose set public\")", kf.name)
	}
	if err := kf.checkVerifying(allowed); err != nil {
		return nil, err
	}
	key.loaded = kf
	opts.Key, opts.Keys = kf.source()
	return jws.NewVerifier(opts)
}

func verify(s *streams, v *jws.Verifier, tok []byte, payloadFile string) ([]byte, error) {
	if payloadFile != "" {
		payload, err := readInput(s, payloadFile, whatPayload, maxPayload)
		if err != nil {
			return nil, err
		}
		m, err := v.VerifyDetached(tok, payload)
		if err != nil && errors.Is(err, jose.ErrMalformed) && strings.Contains(err.Error(), "carries a payload") {
			return nil, usagef("the token carries its payload: verify it without --payload")
		}
		if err == nil {
			return m.Payload, nil
		}
		if !errors.Is(err, jws.ErrMultipleSignatures) || !isJSON(tok) {
			return nil, err
		}
		// Several signatures: each is verified (verifyEach) over the
		// token with its payload put back, as the signers wrote it.
		if tok, err = withPayload(tok, payload); err != nil {
			return nil, err
		}
		return verifyEach(v, tok)
	}
	if isJSON(tok) {
		if top, err := members(tok); err == nil && top["payload"] == nil {
			return nil, usagef("the token's payload is detached: give it with --payload FILE")
		}
	} else {
		if i := bytes.IndexByte(tok, '.'); i >= 0 && i+1 < len(tok) && tok[i+1] == '.' {
			return nil, usagef("the token's payload is detached: give it with --payload FILE")
		}
		m, err := v.VerifyCompact(tok)
		if err != nil {
			return nil, err
		}
		return m.Payload, nil
	}
	m, err := v.VerifyJSON(tok)
	if err == nil {
		return m.Payload, nil
	}
	if !errors.Is(err, jws.ErrMultipleSignatures) {
		return nil, err
	}
	return verifyEach(v, tok)
}

// verifyEach verifies every signature of the general JSON serialization
// tok, and returns the payload when all verified.
func verifyEach(v *jws.Verifier, tok []byte) ([]byte, error) {
	results, payload, err := v.VerifyEach(tok)
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		if r.Err != nil {
			return nil, errorf("signature %d of %d: %w", r.Index+1, len(results), r.Err)
		}
	}
	return payload, nil
}

// withPayload returns the detached JSON serialization tok with the
// payload member put back: base64url, or the payload itself when its
// signatures say "b64": false (RFC 7797 §3; they must agree, which the
// verifier checks).
func withPayload(tok, payload []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(tok, &top); err != nil {
		return nil, errorf("the token is not a JSON object: %v", err)
	}
	var sigs []struct {
		Protected string `json:"protected"`
	}
	json.Unmarshal(top["signatures"], &sigs) // checked by the verifier
	value, _ := json.Marshal(jose.Base64URLEncode(payload))
	if len(sigs) > 0 {
		if h, err := jose.Base64URLDecode([]byte(sigs[0].Protected)); err == nil {
			var p struct{ B64 *bool }
			if json.Unmarshal(h, &p) == nil && p.B64 != nil && !*p.B64 {
				value, _ = json.Marshal(string(payload))
			}
		}
	}
	top["payload"] = value
	return json.Marshal(top)
}

// isJSON reports whether tok is a JSON serialization rather than a compact
// one.
func isJSON(tok []byte) bool { return bytes.HasPrefix(tok, []byte("{")) }

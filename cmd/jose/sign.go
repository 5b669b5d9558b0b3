package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

var signCommand = &command{
	name:    "sign",
	summary: "sign a payload (JWS)",
	usage: `Usage: jose sign --alg ALG --key FILE [--kid KID] [--typ TYP] [--cty CTY] [--detached] [--json] [PAYLOAD]

Sign the payload (the file PAYLOAD, or standard input) with the key in FILE
(a JWK or PEM) and print the JWS (RFC 7515): compact, or with --json the
flattened JSON serialization. The key's kid goes into the header unless
--kid is given. A key unfit for ALG is refused.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		alg := fs.String("alg", "", "signature `algorithm` (required)")
		keyFile := fs.String("key", "", "the signing key `file`, JWK or PEM (required)")
		kid := fs.String("kid", "", "the header's \"kid\" (default: the key's)")
		typ := fs.String("typ", "", "the header's \"typ\"")
		cty := fs.String("cty", "", "the header's \"cty\"")
		detached := fs.Bool("detached", false, "leave the payload out of the token (RFC 7515 Appendix F); verify it with \"jose verify --payload\"")
		asJSON := fs.Bool("json", false, "print the flattened JSON serialization (RFC 7515 §7.2.2)")
		return func(s *streams, args []string) error {
			a, err := parseAlg("alg", *alg, signatureAlgs)
			if err != nil {
				return err
			}
			input := argOrStdin(args)
			if err := needKey(*keyFile, input); err != nil {
				return err
			}
			k, err := loadKey(s, *keyFile)
			if err != nil {
				return err
			}
			signer, err := jws.NewSigner(a, k, &jws.SignerOptions{KeyID: *kid, Type: *typ, ContentType: *cty})
			if err != nil {
				return err
			}
			payload, err := readInput(s, input, maxPayload)
			if err != nil {
				return err
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
	usage: `Usage: jose verify --alg ALG[,ALG...] --key FILE|SETFILE [--payload FILE] [TOKEN]

Verify the JWS in the file TOKEN (or standard input), compact or JSON,
with the key or JWK Set in FILE, accepting only the algorithms of --alg
("none" never). Print the payload only when the token verified; otherwise
exit with status 1 and the reason on standard error. A general JSON
serialization verifies only when every signature does.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		var algs listFlag
		fs.Var(&algs, "alg", "the accepted signature `algorithms`, comma-separated or repeated (required)")
		keyFile := fs.String("key", "", "the key or JWK Set `file` (required)")
		payloadFile := fs.String("payload", "", "the detached payload's `file`, for a token without payload")
		return func(s *streams, args []string) error {
			allowed, err := parseAlgs("alg", algs, signatureAlgs)
			if err != nil {
				return err
			}
			input := argOrStdin(args)
			if err := needKey(*keyFile, input); err != nil {
				return err
			}
			if *payloadFile != "" && isStdin(*payloadFile) && (isStdin(input) || isStdin(*keyFile)) {
				return usagef("--payload - and the token or key cannot both come from standard input")
			}
			v, err := newVerifier(s, *keyFile, allowed)
			if err != nil {
				return err
			}
			tok, err := readToken(s, input)
			if err != nil {
				return err
			}
			payload, err := verify(s, v, tok, *payloadFile)
			if err != nil {
				return err
			}
			_, err = s.stdout.Write(payload)
			return err
		}
	},
}

// newVerifier returns a verifier of the algorithms allowed with the key or
// JWK Set in the file keyFile.
func newVerifier(s *streams, keyFile string, allowed []jwa.SignatureAlgorithm) (*jws.Verifier, error) {
	kf, err := loadKeyFile(s, keyFile)
	if err != nil {
		return nil, err
	}
	opts := jws.VerifyOptions{Algorithms: allowed}
	opts.Key, opts.Keys = kf.source()
	return jws.NewVerifier(opts)
}

func verify(s *streams, v *jws.Verifier, tok []byte, payloadFile string) ([]byte, error) {
	if payloadFile != "" {
		payload, err := readInput(s, payloadFile, maxPayload)
		if err != nil {
			return nil, err
		}
		m, err := v.VerifyDetached(tok, payload)
		if err != nil {
			return nil, err
		}
		return m.Payload, nil
	}
	if !isJSON(tok) {
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
	results, payload, err := v.VerifyEach(tok)
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		if r.Err != nil {
			return nil, fmt.Errorf("signature %d of %d: %w", r.Index+1, len(results), r.Err)
		}
	}
	return payload, nil
}

// isJSON reports whether tok is a JSON serialization rather than a compact
// one.
func isJSON(tok []byte) bool { return bytes.HasPrefix(tok, []byte("{")) }

package main

import (
	"flag"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

var encryptCommand = &command{
	name:    "encrypt",
	summary: "encrypt a plaintext (JWE)",
	usage: `Usage: jose encrypt --alg ALG --enc ENC --key FILE [--kid KID] [--typ TYP] [--cty CTY] [--header NAME=VALUE]... [--zip] [--p2c N] [--json] [PLAINTEXT]

Encrypt the plaintext (the file PLAINTEXT, or standard input) to the key in
FILE (a JWK or PEM: the recipient's public key, or for dir, AES key wrap
and PBES2 an oct key, whose bytes are the PBES2 password; or a JWK Set and
--kid to pick the key) and print the JWE (RFC 7516): compact, or with
--json the flattened JSON serialization. --header adds protected members
as "jose sign --header" does; the members the encrypter writes itself
(alg, enc, zip, kid, typ, cty, p2c, p2s, epk, iv, tag, ek) and those it
does not support (apu, apv, b64, crit) are refused.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		alg := fs.String("alg", "", "key management `algorithm` (required)")
		enc := fs.String("enc", "", "content encryption `algorithm` (required)")
		keyFile := fs.String("key", "", "the recipient's key `file`: a JWK, a JWK Set (with --kid) or PEM (required)")
		kid := fs.String("kid", "", "the header's \"kid\" (default: the key's); with a JWK Set, the kid of the key to encrypt to")
		var extra headerFlag
		fs.Var(&extra, "header", "a protected header member `name=value`, repeatable: value is JSON if it parses, else a string")
		typ := fs.String("typ", "", "the header's \"typ\"")
		cty := fs.String("cty", "", "the header's \"cty\"")
		zip := fs.Bool("zip", false, "compress the plaintext with DEFLATE (\"zip\":\"DEF\", RFC 7516 §4.1.3)")
		p2c := fs.Int("p2c", 0, "the PBES2 iteration `count` (RFC 7518 §4.8.1.2; default 10000, the most a default decrypter accepts)")
		asJSON := fs.Bool("json", false, "print the flattened JSON serialization (RFC 7516 §7.2.2)")
		return func(s *streams, args []string) error {
			a, err := parseAlg("alg", *alg, keyAlgs)
			if err != nil {
				return err
			}
			e, err := parseAlg("enc", *enc, contentEncs)
			if err != nil {
				return err
			}
			if *p2c < 0 {
				return usagef("--p2c must not be negative")
			}
			input := argOrStdin(args)
			if err := needKey(*keyFile, input); err != nil {
				return err
			}
			members, err := extra.members(jweHeaderNames)
			if err != nil {
				return err
			}
			k, err := encryptionKey(s, *keyFile, a, "--kid", *kid)
			if err != nil {
				return err
			}
			if err := checkDirKey(k, *keyFile, a, e); err != nil {
				return err
			}
			encrypter, err := jwe.NewEncrypter(a, e, k, &jwe.EncrypterOptions{
				KeyID: *kid, Type: *typ, ContentType: *cty, Compress: *zip, PBES2Count: *p2c, Extra: members,
			})
			err = weakKey(headerError(err, members), "--key "+*keyFile)
			if err != nil {
				return err
			}
			plaintext, err := readInput(s, input, whatPlaintext, maxPayload)
			if err != nil {
				return notAFile(err, input, "encrypt", "PLAINTEXT")
			}
			var tok []byte
			if *asJSON {
				tok, err = encrypter.Flattened(plaintext, nil)
			} else {
				tok, err = encrypter.Compact(plaintext)
			}
			if err != nil {
				return err
			}
			_, err = s.stdout.Write(append(tok, '\n'))
			return err
		}
	},
}

var decryptCommand = &command{
	name:    "decrypt",
	summary: "decrypt a JWE and print its plaintext",
	usage: `Usage: jose decrypt --alg ALG[,ALG...] --enc ENC[,ENC...] --key FILE|SETFILE [TOKEN]

Decrypt the JWE TOKEN (a file, - for standard input, or the token itself;
default standard input), compact or JSON, with the key or JWK Set in FILE,
accepting only the algorithms of --alg and --enc. Print the plaintext only
when it decrypted; any failure is one opaque error and exit status 1. The
plaintext is written as "jose verify" writes a payload: as it is to a pipe
or a file, or with --raw; escaped to a terminal.
`,
	maxArgs:  1,
	tokenArg: true,
	flags: func(fs *flag.FlagSet) action {
		var algs, encs listFlag
		fs.Var(&algs, "alg", "the accepted key management `algorithms`, comma-separated or repeated (required)")
		fs.Var(&encs, "enc", "the accepted content encryption `algorithms`, comma-separated or repeated (required)")
		keyFile := fs.String("key", "", "the key or JWK Set `file` (required)")
		raw := fs.Bool("raw", false, rawUsage("the plaintext"))
		return func(s *streams, args []string) error {
			allowedAlgs, err := parseAlgs("alg", algs, keyAlgs)
			if err != nil {
				return err
			}
			allowedEncs, err := parseAlgs("enc", encs, contentEncs)
			if err != nil {
				return err
			}
			input := argOrStdin(args)
			if err := needKey(*keyFile, input); err != nil {
				return err
			}
			d, kf, err := newDecrypter(s, *keyFile, allowedAlgs, allowedEncs)
			if err != nil {
				return err
			}
			tok, err := readToken(s, input)
			if err != nil {
				return err
			}
			if !isJWE(tok) {
				return errJWSGiven
			}
			if err := kf.checkEncryptedWith(tok, allowedAlgs); err != nil {
				return err
			}
			var m *jwe.Message
			if isJSON(tok) {
				m, err = d.DecryptJSON(tok)
			} else {
				m, err = d.DecryptCompact(tok)
			}
			if err != nil {
				return keyNotFound(err, *keyFile)
			}
			return writePayload(s, m.Plaintext, *raw)
		}
	},
}

// newDecrypter returns a decrypter of the algorithms allowed with the key
// or JWK Set in the file keyFile, and that file.
func newDecrypter(s *streams, keyFile string, algs []jwa.KeyAlgorithm, encs []jwa.ContentEncryption) (*jwe.Decrypter, *keyFile, error) {
	kf, err := loadKeyFile(s, keyFile)
	if err != nil {
		return nil, nil, err
	}
	if err := kf.checkDecrypting(algs); err != nil {
		return nil, nil, err
	}
	opts := jwe.DecryptOptions{KeyAlgorithms: algs, ContentEncryptions: encs}
	opts.Key, opts.Keys = kf.source()
	d, err := jwe.NewDecrypter(opts)
	return d, kf, err
}

// checkDirKey checks that the key of "dir" (RFC 7518 §4.5), the content
// encryption key itself, has the size enc needs.
func checkDirKey(k *jose.JWK, file string, alg jwa.KeyAlgorithm, enc jwa.ContentEncryption) error {
	b, ok := k.Key.([]byte)
	if alg != jwa.Direct || !ok || len(b) == enc.KeySize() {
		return nil
	}
	var fit []jwa.ContentEncryption
	for _, e := range contentEncs {
		if e.KeySize() == len(b) {
			fit = append(fit, e)
		}
	}
	hint := ""
	if len(fit) > 0 {
		hint = " (this key is for --enc " + joinAlgs(fit) + ")"
	}
	return errorf("%s holds %s; dir with %s needs an oct key of %d bits%s", displayName(file), describeKey(k), enc, 8*enc.KeySize(), hint)
}

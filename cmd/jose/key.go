package main

import (
	"crypto"
	_ "crypto/sha256" // thumbprint hashes
	_ "crypto/sha512"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

var keyCommand = &command{
	name:    "key",
	summary: "generate, inspect and convert keys",
	usage: `Usage: jose key <command> [flags] [FILE]

Make a JWK (RFC 7517), print its public part or thumbprint, look for
weaknesses, and convert between PEM and JWK.
`,
	sub: []*command{keyGenerateCommand, keyPublicCommand, keyThumbprintCommand, keyAnalyzeCommand, keyConvertCommand},
}

// genFlags are the flags that describe a new key, shared by "key generate"
// and "set generate".
type genFlags struct {
	kty, crv, alg, use, kid string
	size                    int
}

func (g *genFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.kty, "kty", "", "key `type`: oct, RSA, EC, OKP or AKP (required; AKP: ML-DSA, Go 1.27 builds, with --alg)")
	fs.IntVar(&g.size, "size", 0, "key size in `bits` for oct (default from --alg, else 256) and RSA (default 2048)")
	fs.StringVar(&g.crv, "crv", "", "`curve` for EC (P-256, P-384, P-521, secp256k1; default from --alg, else P-256) and OKP (Ed25519, X25519; default from --alg, else Ed25519)")
	fs.StringVar(&g.alg, "alg", "", "the key's \"alg\": the one `algorithm` it may be used with")
	fs.StringVar(&g.use, "use", "", "the key's \"use\": sig or enc (default from --alg)")
	fs.StringVar(&g.kid, "kid", "", "the key's \"kid\" (default: its RFC 7638 SHA-256 thumbprint)")
}

// params checks the flags and fills in the defaults that follow from --alg.
func (g *genFlags) params() (jose.GenerateParams, error) {
	p := jose.GenerateParams{KeyType: g.kty, Bits: g.size, Curve: g.crv, Algorithm: g.alg, Use: g.use, KeyID: g.kid}
	sigAlg := slices.Contains(signatureAlgs, jwa.SignatureAlgorithm(g.alg))
	keyAlg := slices.Contains(keyAlgs, jwa.KeyAlgorithm(g.alg))
	switch {
	case g.alg == "":
	case strings.EqualFold(g.alg, "none"):
		return p, usagef("--alg none: unsecured tokens are never made or accepted")
	case !sigAlg && !keyAlg && needsGo127(g.alg):
		return p, usagef("--alg %s: ML-DSA needs a build with Go 1.27 or later (this one is %s)", g.alg, runtime.Version())
	case !sigAlg && !keyAlg:
		var names []string
		for _, a := range signatureAlgs {
			names = append(names, string(a))
		}
		for _, a := range keyAlgs {
			names = append(names, string(a))
		}
		if k := closeTo(g.alg, names); k != "" {
			return p, usagef("--alg %s: unknown algorithm (did you mean %s? %s)", argName(g.alg), k, slipKind(g.alg, k))
		}
		return p, usagef("--alg %s: unknown algorithm (want one of %s, or %s)", g.alg, joinAlgs(signatureAlgs), joinAlgs(keyAlgs))
	}
	switch g.use {
	case "":
		if sigAlg {
			p.Use = jose.UseSignature
		} else if keyAlg {
			p.Use = jose.UseEncryption
		}
	case jose.UseSignature, jose.UseEncryption:
	default:
		return p, usagef("--use %s: want sig or enc", g.use)
	}
	switch g.kty {
	case "":
		return p, usagef("--kty is required: oct, RSA, EC, OKP or AKP")
	case jose.KeyTypeOct, jose.KeyTypeRSA:
		if g.crv != "" {
			return p, usagef("--crv is for EC and OKP keys, not %s", g.kty)
		}
		if p.Bits == 0 {
			p.Bits = defaultBits(g.kty, g.alg)
		}
	case jose.KeyTypeEC, jose.KeyTypeOKP:
		if g.size != 0 {
			return p, usagef("--size is for oct and RSA keys; an %s key's size is its curve (--crv)", g.kty)
		}
		if p.Curve == "" {
			p.Curve = defaultCurve(g.kty, g.alg)
			if g.kty == jose.KeyTypeOKP && g.alg == "" && g.use == jose.UseEncryption {
				p.Curve = jose.CurveX25519
			}
		}
	case jose.KeyTypeAKP: // RFC 9964 §4: the algorithm is part of the key
		if g.size != 0 || g.crv != "" {
			return p, usagef("--size and --crv are not for AKP keys: --alg fixes the key")
		}
		if g.alg == "" {
			return p, usagef("--kty AKP needs --alg: ML-DSA-44, ML-DSA-65 or ML-DSA-87")
		}
	default:
		return p, usagef("--kty %s: want oct, RSA, EC, OKP or AKP%s", g.kty, didYouMean(g.kty, []string{jose.KeyTypeOct, jose.KeyTypeRSA, jose.KeyTypeEC, jose.KeyTypeOKP, jose.KeyTypeAKP}))
	}
	// The curve and size, checked here to name the flag (the library
	// refuses them too).
	curves := map[string][]string{
		jose.KeyTypeEC:  {jose.CurveP256, jose.CurveP384, jose.CurveP521, jose.CurveSecp256k1},
		jose.KeyTypeOKP: {jose.CurveEd25519, jose.CurveX25519},
	}[g.kty]
	switch {
	case curves != nil && !slices.Contains(curves, p.Curve):
		return p, usagef("--crv %s: an %s key's curve is one of %s%s", p.Curve, g.kty, strings.Join(curves, ", "), didYouMean(p.Curve, curves))
	case g.kty == jose.KeyTypeRSA && (p.Bits < jose.MinRSABits || p.Bits > jose.MaxRSAModulusBits):
		return p, usagef("--size %d: an RSA key has %d to %d bits", p.Bits, jose.MinRSABits, jose.MaxRSAModulusBits)
	case g.kty == jose.KeyTypeOct && (p.Bits < jose.MinOctBits || p.Bits > jose.MaxOctBits || p.Bits%8 != 0):
		return p, usagef("--size %d: an oct key has a multiple of 8 bits from %d to %d", p.Bits, jose.MinOctBits, jose.MaxOctBits)
	}
	if p.Algorithm == "" {
		// A key without alg and use may be used for anything, which the
		// analyzer rightly warns about: a generated key gets both.
		alg, err := defaultAlg(p)
		if err != nil {
			return p, err
		}
		p.Algorithm = alg
		if p.Use == "" {
			p.Use = jose.UseSignature
			if slices.Contains(keyAlgs, jwa.KeyAlgorithm(alg)) {
				p.Use = jose.UseEncryption
			}
		}
	}
	return p, nil
}

// defaultAlg is the alg of a new key without --alg, by its type, size or
// curve and use (signatures unless --use enc):
//
//	oct      HS256, HS384 from 384 bits, HS512 from 512; 128 and 192 bits,
//	         or --use enc: A128KW, A192KW, A256KW
//	RSA      RS256; --use enc: RSA-OAEP-256
//	EC       ES256, ES384, ES512 for P-256, P-384, P-521; --use enc: ECDH-ES
//	OKP      Ed25519 (RFC 9864 §2.2) for Ed25519, ECDH-ES for X25519
func defaultAlg(p jose.GenerateParams) (string, error) {
	enc := p.Use == jose.UseEncryption
	switch p.KeyType {
	case jose.KeyTypeOct:
		// The sizes are jwa's: the key wrap size of A128KW, A192KW and
		// A256KW, the hash size HMAC keys need at least (RFC 7518 §3.2).
		var kw jwa.KeyAlgorithm
		for _, a := range aesKW {
			if 8*a.KeyWrapSize() == p.Bits {
				kw = a
			}
		}
		switch {
		case enc && kw != "":
			return string(kw), nil
		case enc:
			return "", usagef("--size %d --use enc: AES key wrap keys are %d, %d or %d bits; give --alg for another algorithm", p.Bits, aesKWBits(0), aesKWBits(1), aesKWBits(2))
		}
		for _, a := range []jwa.SignatureAlgorithm{jwa.HS512, jwa.HS384, jwa.HS256} {
			if p.Bits >= hmacBits(a) {
				return string(a), nil
			}
		}
		if kw != "" && p.Use == "" {
			return string(kw), nil
		}
		return "", usagef("--size %d: HMAC keys have at least %d bits (RFC 7518 §3.2), AES key wrap keys %d or %d; give --alg for another algorithm", p.Bits, hmacBits(jwa.HS256), aesKWBits(0), aesKWBits(1))
	case jose.KeyTypeRSA:
		if enc {
			return string(jwa.RSAOAEP256), nil
		}
		return string(jwa.RS256), nil
	case jose.KeyTypeEC:
		if enc {
			return string(jwa.ECDHES), nil
		}
		switch p.Curve {
		case jose.CurveP256:
			return string(jwa.ES256), nil
		case jose.CurveP384:
			return string(jwa.ES384), nil
		case jose.CurveP521:
			return string(jwa.ES512), nil
		case "secp256k1":
			return "ES256K", nil // RFC 8812 §3.1
		}
	case jose.KeyTypeOKP:
		switch p.Curve {
		case jose.CurveEd25519:
			if enc {
				return "", usagef("--use enc: an Ed25519 key signs; use --crv X25519 for encryption")
			}
			return string(jwa.Ed25519), nil
		case jose.CurveX25519:
			if p.Use == jose.UseSignature {
				return "", usagef("--use sig: an X25519 key encrypts; use --crv Ed25519 for signatures")
			}
			return string(jwa.ECDHES), nil
		}
	}
	return "", nil // the library refuses the curve or type
}

// defaultBits is the size of an oct or RSA key for alg: the key size of
// the AES algorithms, the hash size of HMAC (RFC 7518 §3.2), 2048 bits for
// RSA (RFC 7518 §3.3).
func defaultBits(kty, alg string) int {
	if kty == jose.KeyTypeRSA {
		return jose.MinRSABits
	}
	if a := jwa.KeyAlgorithm(alg); a.IsAESKW() || a.IsGCMKW() {
		return 8 * a.KeyWrapSize()
	}
	if a := jwa.SignatureAlgorithm(alg); a.KeyType() == jose.KeyTypeOct {
		return hmacBits(a)
	}
	return hmacBits(jwa.HS256)
}

// aesKW are the AES key wrap algorithms (RFC 7518 §4.4), by key size.
var aesKW = []jwa.KeyAlgorithm{jwa.A128KW, jwa.A192KW, jwa.A256KW}

// aesKWBits is the key size in bits of aesKW[i].
func aesKWBits(i int) int { return 8 * aesKW[i].KeyWrapSize() }

// hmacBits is the least size in bits of a key for the HMAC algorithm a,
// its hash size (RFC 7518 §3.2).
func hmacBits(a jwa.SignatureAlgorithm) int { return 8 * a.Hash().Size() }

// defaultCurve is the curve of an EC or OKP key for alg (RFC 7518 §3.4,
// RFC 8037 §3).
func defaultCurve(kty, alg string) string {
	if kty == jose.KeyTypeOKP {
		if jwa.KeyAlgorithm(alg).IsECDH() {
			return jose.CurveX25519
		}
		return jose.CurveEd25519
	}
	switch jwa.SignatureAlgorithm(alg) {
	case jwa.ES384:
		return jose.CurveP384
	case jwa.ES512:
		return jose.CurveP521
	case jwa.ES256K:
		return jose.CurveSecp256k1
	}
	return jose.CurveP256
}

// generate makes the key the flags describe, and refuses it if it has a
// critical weakness (such as an alg that does not fit it).
func (g *genFlags) generate() (*jose.JWK, error) {
	p, err := g.params()
	if err != nil {
		return nil, err
	}
	k, err := jose.GenerateKey(p)
	if err != nil {
		return nil, err
	}
	if err := checkFit(k); err != nil {
		return nil, usagef("%v", err)
	}
	return k, nil
}

// checkFit refuses a key with a critical finding, such as an alg or use
// that does not fit it.
func checkFit(k *jose.JWK) error {
	for _, f := range jose.AnalyzeKey(k) {
		if f.Severity == jose.SeverityCritical {
			return errorf("%s", f.Message)
		}
	}
	return nil
}

var keyGenerateCommand = &command{
	name:    "generate",
	summary: "generate a private or secret JWK",
	usage: `Usage: jose key generate --kty oct|RSA|EC|OKP|AKP [--size BITS] [--crv CRV] [--alg ALG] [--use sig|enc] [--kid KID]

Generate a key from crypto/rand and print it as a JWK (RFC 7517), private
members included. With --alg, the size or curve and the use follow from the
algorithm unless given; a key unfit for its alg is refused. Without --alg,
the key gets the alg of its type, size or curve and use (signatures unless
--use enc), so that it is bound to one algorithm:

	oct  HS256, HS384 from 384 bits, HS512 from 512; 128 or 192 bits, or
	     --use enc: A128KW, A192KW, A256KW
	RSA  RS256; --use enc: RSA-OAEP-256
	EC   ES256, ES384, ES512 for P-256, P-384, P-521; --use enc: ECDH-ES
	OKP  Ed25519 (RFC 9864) for Ed25519; ECDH-ES for X25519 (--crv X25519,
	     or --use enc)
`,
	flags: func(fs *flag.FlagSet) action {
		var g genFlags
		g.register(fs)
		return func(s *streams, _ []string) error {
			k, err := g.generate()
			if err != nil {
				return err
			}
			return writeValue(s.stdout, k)
		}
	},
}

var keyPublicCommand = &command{
	name:    "public",
	summary: "print the public JWK of a private key",
	usage: `Usage: jose key public [FILE]

Print the public JWK of the private key in FILE (a JWK or PEM), for
publication. A symmetric key has no public form.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		return func(s *streams, args []string) error {
			k, err := loadKey(s, argOrStdin(args))
			if err != nil {
				return err
			}
			pub := k.Public()
			if pub == nil {
				return errorf("a symmetric (oct) key has no public form")
			}
			return writeValue(s.stdout, pub)
		}
	},
}

// thumbprintHashes are the hashes of --hash, by their RFC 9278 names.
var thumbprintHashes = map[string]crypto.Hash{
	"SHA-256": crypto.SHA256,
	"SHA-384": crypto.SHA384,
	"SHA-512": crypto.SHA512,
}

var keyThumbprintCommand = &command{
	name:    "thumbprint",
	summary: "print the RFC 7638 thumbprint of a key",
	usage: `Usage: jose key thumbprint [--hash SHA-256] [--uri] [FILE]

Print the JWK Thumbprint of the key in FILE (RFC 7638), base64url-encoded,
or with --uri its JWK Thumbprint URI (RFC 9278). The thumbprint of a private
key is that of its public key.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		hash := fs.String("hash", "SHA-256", "hash `name`: SHA-256, SHA-384 or SHA-512")
		uri := fs.Bool("uri", false, "print the thumbprint URI, urn:ietf:params:oauth:jwk-thumbprint:...")
		return func(s *streams, args []string) error {
			h, ok := thumbprintHashes[strings.ToUpper(*hash)]
			if !ok {
				return usagef("--hash %s: want SHA-256, SHA-384 or SHA-512", *hash)
			}
			k, err := loadKey(s, argOrStdin(args))
			if err != nil {
				return err
			}
			var out string
			if *uri {
				out, err = k.ThumbprintURI(h)
			} else {
				var t []byte
				t, err = k.Thumbprint(h)
				out = jose.Base64URLEncode(t)
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(s.stdout, out)
			return err
		}
	},
}

var keyAnalyzeCommand = &command{
	name:    "analyze",
	summary: "report the weaknesses of a key or JWK Set",
	usage: `Usage: jose key analyze [--public] [FILE]

Print the findings of the key analyzers for the key or JWK Set in FILE, one
a line: a short RSA modulus or the ROCA fingerprint, a small exponent, a short
symmetric key, an alg that does not fit, a missing kid, use or alg, duplicate
kids, ... The exit status is 1 when any finding is a warning or critical; a
key without findings is not thereby proven safe.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		public := fs.Bool("public", false, "the key or set is meant for publication (a jwks_uri document): a private or symmetric key in it is critical")
		return func(s *streams, args []string) error {
			kf, err := loadKeyFile(s, argOrStdin(args))
			if err != nil {
				return err
			}
			var findings []jose.Finding
			switch {
			case kf.set != nil:
				findings = jose.AnalyzeSet(kf.set, *public)
			case *public:
				findings = jose.AnalyzeSet(&jose.Set{Keys: []*jose.JWK{kf.key}}, true)
			default:
				findings = jose.AnalyzeKey(kf.key)
			}
			weak := 0
			for _, f := range findings {
				f.Message = advice(f.Message)
				if _, err := fmt.Fprintln(s.stdout, safeLine(f.String())); err != nil {
					return err
				}
				if f.Severity >= jose.SeverityWarning {
					weak++
				}
			}
			switch weak {
			case 0:
				return nil
			case 1:
				return errorf("1 weakness found")
			}
			return errorf("%d weaknesses found", weak)
		}
	},
}

// advice is the text of an analyzer finding in the command's terms: the
// library names its own API ("JWK.Public") and packages where the user
// has a command to run.
func advice(msg string) string {
	msg = strings.ReplaceAll(msg, "publish its public key (JWK.Public) instead", "publish the public key only (\"jose key public\", \"jose set public\")")
	return message(errors.New(msg))
}

var keyConvertCommand = &command{
	name:    "convert",
	summary: "convert a key between PEM and JWK",
	usage: `Usage: jose key convert --to jwk|pem [--kid KID] [--alg ALG] [--use sig|enc] [FILE]

Convert the key in FILE. PEM input may be PKCS #8 ("PRIVATE KEY"), PKCS #1
("RSA PRIVATE KEY", "RSA PUBLIC KEY"), SEC 1 ("EC PRIVATE KEY"),
SubjectPublicKeyInfo ("PUBLIC KEY") or an X.509 certificate chain, which
becomes the JWK's x5c. PEM output is PKCS #8 for a private key and
SubjectPublicKeyInfo for a public one, or the x5c certificates of a public
JWK that has them. A JWK made from PEM gets its thumbprint as kid unless
--kid is given.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		to := fs.String("to", "", "output `format`: jwk or pem (required)")
		kid := fs.String("kid", "", "with --to jwk, the \"kid\" (default: the input's, else the RFC 7638 SHA-256 thumbprint)")
		alg := fs.String("alg", "", "with --to jwk, the \"alg\"")
		use := fs.String("use", "", "with --to jwk, the \"use\": sig or enc")
		return func(s *streams, args []string) error {
			switch *to {
			case "jwk", "pem":
			case "":
				return usagef("--to is required: jwk or pem")
			default:
				return usagef("--to %s: want jwk or pem", *to)
			}
			if *to == "pem" && (*kid != "" || *alg != "" || *use != "") {
				return usagef("--kid, --alg and --use are for --to jwk: PEM holds only the key")
			}
			if *use != "" && *use != jose.UseSignature && *use != jose.UseEncryption {
				return usagef("--use %s: want sig or enc", *use)
			}
			k, err := loadKey(s, argOrStdin(args))
			if err != nil {
				return err
			}
			if *to == "pem" {
				out, err := keyPEM(k)
				if err != nil {
					return err
				}
				_, err = s.stdout.Write(out)
				return err
			}
			if *kid != "" {
				k.KeyID = *kid
			} else if k.KeyID == "" {
				t, err := k.Thumbprint(crypto.SHA256)
				if err != nil {
					return err
				}
				k.KeyID = jose.Base64URLEncode(t)
			}
			if *alg != "" {
				k.Algorithm = *alg
			}
			if *use != "" {
				k.Use = *use
			}
			if *alg != "" || *use != "" {
				if err := checkFit(k); err != nil {
					return err
				}
			}
			return writeValue(s.stdout, k)
		}
	},
}

// didYouMean is " (did you mean X?)" when X, one of known, differs from
// v only in case or punctuation ("ec", "p256", "hs256"), else "".
func didYouMean(v string, known []string) string {
	if k := closeTo(v, known); k != "" {
		return fmt.Sprintf(" (did you mean %s?)", k)
	}
	return ""
}

// closeTo is the one of known that differs from v only in case or
// punctuation, or "".
func closeTo(v string, known []string) string {
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(s))
	}
	for _, k := range known {
		if k != v && fold(k) == fold(v) {
			return k
		}
	}
	return ""
}

// keyPEM is the PEM form of k: its certificates when it is a public key
// with x5c (so that a certificate converts back to itself), else the key.
func keyPEM(k *jose.JWK) ([]byte, error) {
	if k.KeyType() == jose.KeyTypeOct {
		return nil, errorf("an oct (symmetric) key has no PEM form: keep it as a JWK")
	}
	if k.IsPrivate() || len(k.Certificates) == 0 {
		return k.MarshalPEM()
	}
	var out []byte
	for _, c := range k.Certificates {
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
	}
	return out, nil
}

// argOrStdin is the FILE argument, or "-" when there is none.
func argOrStdin(args []string) string {
	if len(args) == 0 {
		return "-"
	}
	return args[0]
}

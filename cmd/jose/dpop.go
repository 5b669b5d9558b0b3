package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/dpop"
	"github.com/josebench/josebench/jose/jwa"
)

var dpopCommand = &command{
	name:    "dpop",
	summary: "make DPoP proofs and print a key's jkt",
	usage: `Usage: jose dpop <command> [flags]

Make the DPoP proof of one HTTP request (RFC 9449 §4.2), for a request such
as curl -H "DPoP: $(jose dpop proof ...)", or print the thumbprint of a
key, the "jkt" access tokens are bound to (RFC 9449 §6.1), as package
jose/dpop does.
`,
	sub: []*command{dpopProofCommand, dpopThumbprintCommand},
}

var dpopProofCommand = &command{
	name:    "proof",
	summary: "print the DPoP proof of one request",
	usage: `Usage: jose dpop proof --key FILE --method METHOD --url URL [--alg ALG] [--access-token FILE] [--nonce NONCE]

Sign a DPoP proof (RFC 9449 §4.2) with the private key in FILE (a JWK or
PEM) and print it: header "typ": "dpop+jwt", "alg" and the public "jwk";
claims a random "jti", "htm" (METHOD, case-sensitive: a standard method
spelled in lower case, --method get, is refused), "htu" (URL without its
query and fragment) and "iat" (now), with "ath" (the hash of the access token read
from --access-token) and "nonce" (a server's DPoP-Nonce) when given. The
algorithm is the key's "alg", or ES256, ES384 or ES512 for an EC key of
P-256, P-384 or P-521, EdDSA for Ed25519; an RSA key needs --alg.
`,
	flags: func(fs *flag.FlagSet) action {
		keyFile := fs.String("key", "", "the private key `file`, JWK or PEM (required)")
		alg := fs.String("alg", "", "signature `algorithm` (default: from the key)")
		method := fs.String("method", "", "the request's HTTP `method`, as sent: case-sensitive, so GET, POST, ... in upper case (required)")
		url := fs.String("url", "", "the request's absolute `URL` (required)")
		tokenFile := fs.String("access-token", "", "a `file` holding the access token the request presents (\"-\": standard input)")
		nonce := fs.String("nonce", "", "the server's `nonce` (its DPoP-Nonce header)")
		return func(s *streams, _ []string) error {
			switch {
			case *keyFile == "":
				return usagef("--key is required")
			case *method == "":
				return usagef("--method is required")
			case *url == "":
				return usagef("--url is required")
			case standardMethod(*method) != "" && standardMethod(*method) != *method:
				return usagef("--method %q: HTTP methods are case-sensitive (RFC 9110 §9.1) and \"htm\" must be the request's: use %s", *method, standardMethod(*method))
			case isStdin(*keyFile) && *tokenFile == "-":
				return usagef("--key and --access-token cannot both be standard input")
			}
			k, err := loadKey(s, *keyFile)
			if err != nil {
				return err
			}
			switch {
			case k.KeyType() == jose.KeyTypeOct:
				return errorf("%s holds an oct (secret) key; a DPoP proof is signed with an asymmetric private key (EC, OKP or RSA)", displayName(*keyFile))
			case !k.IsPrivate():
				return errorf("%s holds a public key; a DPoP proof needs the private key", displayName(*keyFile))
			}
			a, err := dpopAlg(*alg, k, displayName(*keyFile))
			if err != nil {
				return err
			}
			if err := checkSigningKey(k, displayName(*keyFile), a); err != nil {
				return err
			}
			p, err := dpop.NewProver(a, k)
			if err != nil {
				return weakKey(err, "--key "+*keyFile)
			}
			opts := &dpop.ProofOptions{Nonce: *nonce, IssuedAt: s.now()}
			if *tokenFile != "" {
				// An access token may be opaque (RFC 9449 §4.2 hashes
				// whatever the client presents): read as it is, not as a
				// JWS or JWE.
				tok, err := readInput(s, *tokenFile, whatAccessToken, maxToken)
				if err != nil {
					return err
				}
				if tok = bytes.TrimSpace(tok); len(tok) == 0 {
					return errorf("%s: no access token", displayName(*tokenFile))
				}
				opts.AccessToken = string(tok)
			}
			if _, err := dpop.NormalizeURI(*url); err != nil {
				return errorf("--url: %v: give the request's whole URL, such as https://server.example/token", err)
			}
			proof, err := p.Proof(*method, *url, opts)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(s.stdout, proof)
			return err
		}
	},
}

// standardMethods are the methods of RFC 9110 §9.3 and PATCH (RFC 5789),
// all in upper case.
var standardMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

// standardMethod returns the standard method that m spells in any case,
// or "" for another method. A proof's "htm" is compared with the
// request's method exactly (RFC 9449 §4.3 check 8), and "get" is not GET
// (RFC 9110 §9.1): the proof of --method get would be refused by any
// server receiving GET, so the command refuses it with the right spelling.
func standardMethod(m string) string {
	for _, s := range standardMethods {
		if strings.EqualFold(m, s) {
			return s
		}
	}
	return ""
}

// dpopAlg is the algorithm of --alg, or the one the key (read from the
// file name) implies.
func dpopAlg(flagValue string, k *jose.JWK, name string) (jwa.SignatureAlgorithm, error) {
	if flagValue != "" {
		return parseAlg("alg", flagValue, signatureAlgs)
	}
	if k.Algorithm != "" && !slices.Contains(signatureAlgs, jwa.SignatureAlgorithm(k.Algorithm)) {
		return "", errorf("%s: the key is for %s, not for signatures: a DPoP proof needs a signing key", name, argName(k.Algorithm))
	}
	if k.Algorithm != "" {
		return jwa.SignatureAlgorithm(k.Algorithm), nil
	}
	switch key := k.Key.(type) {
	case *ecdsa.PrivateKey:
		switch key.Curve.Params().BitSize {
		case 256:
			return jwa.ES256, nil
		case 384:
			return jwa.ES384, nil
		case 521:
			return jwa.ES512, nil
		}
	case ed25519.PrivateKey:
		return jwa.EdDSA, nil
	}
	return "", usagef("--alg is required for %s (the key has no \"alg\")", describeKey(k))
}

var dpopThumbprintCommand = &command{
	name:    "thumbprint",
	summary: "print the jkt of a key",
	usage: `Usage: jose dpop thumbprint --key FILE

Print the JWK SHA-256 Thumbprint (RFC 7638) of the key in FILE, base64url:
the "jkt" of RFC 9449 §6.1, which an authorization server binds access
tokens to and a client sends as "dpop_jkt" (RFC 9449 §10). The thumbprint
of a private key is that of its public key. The key must be an asymmetric
signature key: a symmetric (oct) or key-agreement (X25519) key signs no
proof and is refused.
`,
	flags: func(fs *flag.FlagSet) action {
		keyFile := fs.String("key", "", "the key `file`, JWK or PEM (required; \"-\": standard input)")
		return func(s *streams, _ []string) error {
			if *keyFile == "" {
				return usagef("--key is required")
			}
			k, err := loadKey(s, *keyFile)
			if err != nil {
				return err
			}
			jkt, err := dpop.Thumbprint(k)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(s.stdout, jkt)
			return err
		}
	},
}

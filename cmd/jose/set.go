package main

import (
	"crypto"
	"crypto/rsa"
	"flag"
	"slices"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
)

var setCommand = &command{
	name:    "set",
	summary: "build, publish and rotate JWK Sets",
	usage: `Usage: jose set <command> [flags] [FILE]

Build a JWK Set (RFC 7517 §5), add and remove keys, print its public part
and rotate its keys. The set is read from FILE (or standard input) and the
new set is printed; the file itself is never changed.
`,
	sub: []*command{setGenerateCommand, setAddCommand, setRemoveCommand, setPublicCommand, setRotateCommand},
}

var setGenerateCommand = &command{
	name:    "generate",
	summary: "generate a JWK Set holding one new key",
	usage: `Usage: jose set generate --kty oct|RSA|EC|OKP|AKP [--size BITS] [--crv CRV] [--alg ALG] [--use sig|enc] [--kid KID]

Generate a key as "jose key generate" does and print a JWK Set holding it.
`,
	flags: func(fs *flag.FlagSet) action {
		var g genFlags
		g.register(fs)
		return func(s *streams, _ []string) error {
			k, err := g.generate()
			if err != nil {
				return err
			}
			return writeValue(s.stdout, &jose.Set{Keys: []*jose.JWK{k}})
		}
	},
}

var setAddCommand = &command{
	name:    "add",
	summary: "add a key to a JWK Set",
	usage: `Usage: jose set add --key FILE [--first] [SETFILE]

Add the key in FILE (a JWK or PEM; a key without kid gets its thumbprint) to
the set, last or with --first first. A key whose kid is already in the set
is refused.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		keyFile := fs.String("key", "", "the key `file` to add, JWK or PEM (required)")
		first := fs.Bool("first", false, "put the key first (where \"jose set rotate\" looks for the newest key)")
		return func(s *streams, args []string) error {
			setFile := argOrStdin(args)
			if *keyFile == "" {
				return usagef("--key is required")
			}
			if isStdin(*keyFile) && isStdin(setFile) {
				return usagef("the key and the set cannot both come from standard input")
			}
			set, err := loadSet(s, setFile)
			if err != nil {
				return err
			}
			k, err := loadKey(s, *keyFile)
			if err != nil {
				return err
			}
			if k.KeyID == "" {
				t, err := k.Thumbprint(crypto.SHA256)
				if err != nil {
					return err
				}
				k.KeyID = jose.Base64URLEncode(t)
			}
			if slices.ContainsFunc(set.Keys, func(o *jose.JWK) bool { return o.KeyID == k.KeyID }) {
				return errorf("kid %s is already in the set", untrusted.Quote(k.KeyID))
			}
			// A set is either published (public keys) or kept (private and
			// secret keys); verifiers refuse a set that mixes them.
			for _, o := range set.Keys {
				if !o.Supported() || o.IsPrivate() == k.IsPrivate() {
					continue
				}
				if k.IsPrivate() {
					return errorf("the set holds public keys and the key is private: add its public key (\"jose key public\"), or add the key to the private set")
				}
				return errorf("the set holds private or secret keys and the key is public: add the private key, and publish the set with \"jose set public\"")
			}
			if *first {
				set.Keys = slices.Insert(set.Keys, 0, k)
			} else {
				set.Keys = append(set.Keys, k)
			}
			return writeValue(s.stdout, set)
		}
	},
}

var setRemoveCommand = &command{
	name:    "remove",
	summary: "remove the keys of a kid from a JWK Set",
	usage: `Usage: jose set remove --kid KID [SETFILE]

Remove every key whose kid is KID from the set. It fails if there is none.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		kid := fs.String("kid", "", "the `kid` of the keys to remove (required)")
		return func(s *streams, args []string) error {
			if *kid == "" {
				return usagef("--kid is required")
			}
			set, err := loadSet(s, argOrStdin(args))
			if err != nil {
				return err
			}
			n := len(set.Keys)
			var kids []string
			for _, k := range set.Keys {
				kids = append(kids, k.KeyID)
			}
			set.Keys = slices.DeleteFunc(set.Keys, func(k *jose.JWK) bool { return k.KeyID == *kid })
			if len(set.Keys) == n {
				return errorf("%s has no key with kid %s (its kids: %s)", displayName(argOrStdin(args)), untrusted.Quote(*kid), listKids(kids))
			}
			return writeValue(s.stdout, set)
		}
	},
}

var setPublicCommand = &command{
	name:    "public",
	summary: "print the public keys of a JWK Set",
	usage: `Usage: jose set public [SETFILE]

Print the set of the public keys of the set, for publication (a jwks_uri
document): private keys become public ones; symmetric keys and entries this
module cannot read are left out.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		return func(s *streams, args []string) error {
			set, err := loadSet(s, argOrStdin(args))
			if err != nil {
				return err
			}
			return writeValue(s.stdout, set.Public())
		}
	},
}

var setRotateCommand = &command{
	name:    "rotate",
	summary: "put a new key first and drop the oldest",
	usage: `Usage: jose set rotate [--keep N] [SETFILE]

Generate a new key of the same kind as the newest (the first) key of the
set: same kty, size or curve, alg, use and key_ops, with its thumbprint as
kid. Print the set with the new key first, followed by the N keys that
preceded it; older keys are dropped.
`,
	maxArgs: 1,
	flags: func(fs *flag.FlagSet) action {
		keep := fs.Int("keep", 1, "the number of previous keys to keep")
		return func(s *streams, args []string) error {
			if *keep < 0 {
				return usagef("--keep must not be negative")
			}
			set, err := loadSet(s, argOrStdin(args))
			if err != nil {
				return err
			}
			if len(set.Keys) == 0 {
				return errorf("the set has no keys: start it with \"jose set generate\"")
			}
			p, err := likeKey(set.Keys[0])
			if err != nil {
				return err
			}
			k, err := jose.GenerateKey(p)
			if err != nil {
				return err
			}
			old := set.Keys[:min(*keep, len(set.Keys))]
			set.Keys = append([]*jose.JWK{k}, old...)
			return writeValue(s.stdout, set)
		}
	},
}

// likeKey describes a new key of the same kind as k.
func likeKey(k *jose.JWK) (jose.GenerateParams, error) {
	if err := k.Err(); err != nil {
		return jose.GenerateParams{}, errorf("the newest key (kid %s) is unusable: %v", untrusted.Quote(k.KeyID), err)
	}
	if !k.IsPrivate() {
		return jose.GenerateParams{}, errorf("the newest key (kid %s) is a public key: rotate the private set, then publish it with \"jose set public\"", untrusted.Quote(k.KeyID))
	}
	p := jose.GenerateParams{
		KeyType:   k.KeyType(),
		Curve:     k.Curve(),
		Use:       k.Use,
		KeyOps:    slices.Clone(k.KeyOps),
		Algorithm: k.Algorithm,
	}
	switch key := k.Key.(type) {
	case []byte:
		p.Bits = 8 * len(key)
	case *rsa.PrivateKey:
		p.Bits = key.N.BitLen()
	}
	return p, nil
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// keyFlags name the key of a command: --key FILE, or for HMAC a raw shared
// secret read from --secret-file or --secret-env. The secret itself is
// never a flag's value: the command line is seen by other users (ps) and
// kept in the shell's history.
type keyFlags struct {
	file, secretFile, secretEnv string
	// loaded is the key file newVerifier read, nil for a raw secret.
	loaded *keyFile
	// newline is set by secret when the secret ends with a line break, as
	// a file written by echo does: kept (the secret is its bytes as they
	// are), but named when verification fails.
	newline bool
	// crlf is set with newline when the line break is "\r\n", as a
	// Windows editor writes it.
	crlf bool
}

func (f *keyFlags) register(fs *flag.FlagSet, keyUsage string) {
	fs.StringVar(&f.file, "key", "", keyUsage)
	fs.StringVar(&f.secretFile, "secret-file", "", "for HMAC (HS256, HS384, HS512), instead of --key: the `file` of the raw shared secret, all its bytes (a final line break is part of the secret)")
	fs.StringVar(&f.secretEnv, "secret-env", "", "for HMAC, instead of --key: the `name` of the environment variable holding the raw shared secret")
}

// given is the flag that names the key, for messages.
func (f *keyFlags) given() string {
	switch {
	case f.secretFile != "":
		return "--secret-file " + flagFile(f.secretFile)
	case f.secretEnv != "":
		return "--secret-env " + argName(f.secretEnv)
	}
	return "--key " + flagFile(f.file)
}

// flagFile is the value of a file flag as messages show it: "-" as it
// is, a file name as displayName shows it.
func flagFile(name string) string {
	if name == "-" {
		return name
	}
	return displayName(name)
}

// check checks that exactly one of the flags is given and that the key and
// the input (when not empty) do not both come from standard input.
func (f *keyFlags) check(input string) error {
	n := 0
	for _, v := range []string{f.file, f.secretFile, f.secretEnv} {
		if v != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return usagef("--key is required (or, for HMAC, --secret-file or --secret-env)")
	case n > 1:
		return usagef("give one of --key, --secret-file and --secret-env")
	case input != "" && (f.file != "" && isStdin(f.file) || f.secretFile != "" && isStdin(f.secretFile)) && isStdin(input):
		return usagef("%s and the input cannot both come from standard input (name the input file)", f.given())
	}
	return nil
}

// fromStdin reports whether the key is read from standard input.
func (f *keyFlags) fromStdin() bool {
	return f.file != "" && isStdin(f.file) || f.secretFile != "" && isStdin(f.secretFile)
}

// secret returns the raw secret of --secret-file or --secret-env, checked
// against the HMAC algorithms algs: each must be HMAC, and the secret at
// least as long as its hash output (RFC 7518 §3.2), as the library
// requires. It returns nil when the key is --key.
func (f *keyFlags) secret(s *streams, algs []jwa.SignatureAlgorithm) ([]byte, error) {
	var secret []byte
	switch {
	case f.secretFile != "":
		data, err := readInput(s, f.secretFile, whatSecret, maxKeyFile)
		if err != nil {
			return nil, errorf("--secret-file %v", err)
		}
		secret = data
	case f.secretEnv != "":
		v, ok := os.LookupEnv(f.secretEnv)
		if !ok {
			return nil, usagef("--secret-env %s: the environment variable is not set", f.secretEnv)
		}
		secret = []byte(v)
	default:
		return nil, nil
	}
	if what := keyFileKind(secret); what != "" {
		return nil, usagef("%s holds %s, not a raw secret: give it with --key", f.given(), what)
	}
	f.newline = bytes.HasSuffix(secret, []byte("\n"))
	f.crlf = bytes.HasSuffix(secret, []byte("\r\n"))
	for _, a := range algs {
		if a.KeyType() != jose.KeyTypeOct {
			return nil, usagef("%s: a raw secret is for HMAC (HS256, HS384, HS512), not %s: give the key with --key", f.given(), a)
		}
		if n := a.Hash().Size(); len(secret) < n {
			return nil, errorf("%s: a secret of %d bytes is too short for %s, which needs at least %d (RFC 7518 §3.2)", f.given(), len(secret), a, n)
		}
	}
	return secret, nil
}

// weakKey names the key in the library's refusal of a key the command's
// checks let through because it is too weak for its algorithm
// (jose.ErrInvalidKey: "RS256 needs an RSA key of 2048 to 16384 bits, got
// 1024"): name is the flag and file ("--key rsa.pem"). The command's own
// errors are returned as they are.
func weakKey(err error, name string) error {
	switch err.(type) {
	case nil, *cmdError, *usageError:
		return err
	}
	if !errors.Is(err, jose.ErrInvalidKey) {
		return err
	}
	msg := strings.TrimSuffix(strings.TrimPrefix(userText(err), "key: "), ": "+jose.ErrInvalidKey.Error())
	return &cmdError{msg: name + ": " + msg, errs: []error{err}}
}

// keyFileKind says what a key file data is, "a JWK", "a JWK Set" or "a
// PEM key", when a raw secret was given that is one (a key file named
// with --secret-file): used as the HMAC secret, its text would sign a
// token no holder of the key verifies. It returns "" for anything else.
func keyFileKind(data []byte) string {
	t := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(t, []byte("-----BEGIN")):
		if _, err := jose.ParseKeyPEM(t); err == nil {
			return "a PEM key"
		}
	case len(t) > 0 && t[0] == '{':
		if isSet(t) {
			return "a JWK Set"
		}
		if _, err := jose.ParseKey(t); err == nil {
			return "a JWK"
		}
	}
	return ""
}

// rawSecretHint adds to the refusal of a --key file that is no key file
// (errNotKeyFile) that a raw HMAC secret is given with --secret-file, when
// every algorithm of algs is HMAC.
func (f *keyFlags) rawSecretHint(err error, algs []jwa.SignatureAlgorithm) error {
	if !errors.Is(err, errNotKeyFile) || slices.ContainsFunc(algs, func(a jwa.SignatureAlgorithm) bool { return a.KeyType() != jose.KeyTypeOct }) {
		return err
	}
	return errorf("%w; for a raw HMAC secret, give --secret-file %s instead of --key", err, f.file)
}

// newlineHint adds to a failed verification with a secret that ends
// with a line break that it does: the likeliest cause is a file written
// with echo, or a variable set from one, when the signer's secret has no
// line break. The secret itself is not changed (see secret).
func (f *keyFlags) newlineHint(err error) error {
	if err == nil || !f.newline || !errors.Is(err, jose.ErrVerificationFailed) {
		return err
	}
	brk, how := "a line break", "write the file with printf or echo -n"
	if f.crlf {
		// echo -n would not help: the file was written by an editor.
		brk, how = "a Windows line break (\\r\\n)", "remove it (tr -d '\\r\\n')"
	}
	if f.secretEnv != "" {
		how = "set the variable without it"
	}
	msg := strings.TrimSuffix(userText(err), notSignedWithKey)
	return &cmdError{
		msg:  fmt.Sprintf("%s: the token was not signed with this secret, or was changed; note that %s ends with %s, part of the secret as it is read: if the secret has none, %s", msg, f.given(), brk, how),
		errs: []error{err},
	}
}

// signingKey is the key to sign with alg: the raw secret, the key of the
// file, or the key of a JWK Set whose kid is kid (the set's only key when
// kid is empty). It checks the key as the user would: the private half,
// the type and curve alg needs, and the key's own alg and use.
func (f *keyFlags) signingKey(s *streams, alg jwa.SignatureAlgorithm, kid string) (*jose.JWK, error) {
	secret, err := f.secret(s, []jwa.SignatureAlgorithm{alg})
	if err != nil {
		return nil, err
	}
	if secret != nil {
		return &jose.JWK{Key: secret}, nil
	}
	kf, err := loadKeyFile(s, f.file)
	if err != nil {
		return nil, f.rawSecretHint(err, []jwa.SignatureAlgorithm{alg})
	}
	return kf.pick("--kid", kid, string(alg), sigKeyWanted(alg), alg.KeyType(), func(k *jose.JWK) bool {
		return alg.FitsKey(k.Key) && k.Permits(string(alg), jose.OpSign) == nil
	}, func(k *jose.JWK, where string) error {
		return checkSigningKey(k, where, alg)
	})
}

// checkSigningKey checks k, named where, as the key to sign with alg: the
// type and curve alg needs, the private half, the key's own alg and use,
// and for HMAC its length.
func checkSigningKey(k *jose.JWK, where string, alg jwa.SignatureAlgorithm) error {
	switch {
	case !alg.FitsKey(k.Key):
		return errorf("%s holds %s; %s needs %s", where, describeKey(k), alg, sigKeyWanted(alg))
	case !k.IsPrivate():
		return errorf("%s holds a public key; signing needs the private key", where)
	case k.Algorithm != "" && !slices.Contains(signatureAlgs, jwa.SignatureAlgorithm(k.Algorithm)):
		return errorf("%s: the key is for %s, not for signatures: give a signing key", where, argName(k.Algorithm))
	case k.Algorithm != "" && k.Algorithm != string(alg):
		return errorf("%s is for %s, not %s: give --alg %s, or a key for %s", where+": the key", argName(k.Algorithm), alg, argName(k.Algorithm), alg)
	case k.Use == jose.UseEncryption:
		return errorf("%s is for encryption (use \"enc\"): give a signing key", where+": the key")
	}
	if b, ok := k.Key.([]byte); ok && alg.KeyType() == jose.KeyTypeOct && len(b) < alg.Hash().Size() {
		return errorf("%s holds %s; %s needs at least %d bits (RFC 7518 §3.2)", where, describeKey(k), alg, hmacBits(alg))
	}
	return nil
}

// encryptionKey is the recipient's key for alg: the key of the file, or
// of a JWK Set whose kid is kid (the value of the flag kidFlag), checked
// as signingKey checks.
func encryptionKey(s *streams, file string, alg jwa.KeyAlgorithm, kidFlag, kid string) (*jose.JWK, error) {
	kf, err := loadKeyFile(s, file)
	if err != nil {
		return nil, err
	}
	return kf.pick(kidFlag, kid, string(alg), encKeyWanted(alg), alg.KeyType(), func(k *jose.JWK) bool {
		return alg.FitsKey(k.Key) && k.Permits(string(alg), encryptOp(alg)) == nil
	}, func(k *jose.JWK, where string) error {
		switch {
		case !alg.FitsKey(k.Key):
			return errorf("%s holds %s; %s needs %s", where, describeKey(k), alg, encKeyWanted(alg))
		case k.Algorithm != "" && !slices.Contains(keyAlgs, jwa.KeyAlgorithm(k.Algorithm)):
			return errorf("%s: the key is for %s, not for encryption: give an encryption key", where, argName(k.Algorithm))
		case k.Algorithm != "" && k.Algorithm != string(alg):
			return errorf("%s is for %s, not %s: give --alg %s, or a key for %s", where+": the key", argName(k.Algorithm), alg, argName(k.Algorithm), alg)
		case k.Use == jose.UseSignature:
			return errorf("%s is for signatures (use \"sig\"): give an encryption key", where+": the key")
		}
		return nil
	})
}

// encryptOp is the key operation (RFC 7517 §4.3) the encrypter asks of
// a key for alg: encrypt for dir and HPKE Integrated Encryption, deriveKey
// for the ECDH-ES family, wrapKey for the others.
func encryptOp(alg jwa.KeyAlgorithm) jose.KeyOp {
	switch {
	case alg == jwa.Direct || alg.IsHPKEIntegrated():
		return jose.OpEncrypt
	case alg.IsECDH():
		return jose.OpDeriveKey
	}
	return jose.OpWrapKey
}

// pick returns the one key of kf, or for a set the key whose kid is kid,
// the value of the flag kidFlag, once check (which names the key as
// where) finds it usable for alg. With a kid, the key is chosen as the
// library chooses a key for a token of that kid (jose.Select), so that
// the token made with the set is verified or decrypted with it: fits is
// the library's test of a candidate (the type and curve alg needs, and
// what the key's alg, use and key_ops permit), kty alg's key type ("" for
// several). Two candidates of that kid of which one at least is usable,
// or one and an entry of that kid and type this module cannot use, are
// ambiguous: refused, as a verifier refuses them. Otherwise the first key
// check accepts is returned (for the library to refuse in its words what
// check does not look at), or the error describes them all, up to
// maxDescribed, and says what alg needs (wanted: "an EC P-256 key").
func (kf *keyFile) pick(kidFlag, kid, alg, wanted, kty string, fits func(k *jose.JWK) bool, check func(k *jose.JWK, where string) error) (*jose.JWK, error) {
	if kf.set == nil {
		return kf.key, check(kf.key, kf.name)
	}
	var kids []string
	for _, k := range kf.set.Keys {
		if k.Supported() {
			kids = append(kids, k.KeyID)
		}
	}
	if kid == "" {
		if len(kids) == 1 {
			k := kf.set.Keys[slices.IndexFunc(kf.set.Keys, (*jose.JWK).Supported)]
			return k, check(k, kf.name)
		}
		return nil, usagef("%s is a JWK Set of %d keys: pick one with %s (%s)", kf.name, len(kids), kidFlag, listKids(kids))
	}
	ks := kf.set.LookupKeyID(kid)
	if len(ks) == 0 {
		return nil, usagef("%s has no key with kid %s (its kids: %s)", kf.name, untrusted.Quote(kid), listKids(kids))
	}
	where := fmt.Sprintf("%s (kid %s)", kf.name, untrusted.Quote(kid))
	var candidates []*jose.JWK
	for _, k := range ks {
		if fits(k) {
			candidates = append(candidates, k)
		}
	}
	switch len(candidates) {
	case 0:
	case 1:
		for _, k := range kf.set.Keys {
			if k != nil && k.KeyID == kid && !k.Supported() && (kty == "" || k.KeyType() == "" || k.KeyType() == kty) {
				return nil, errorf("%s has a key of kid %s for %s and an entry of that kid this module cannot use (%v): a verifier or decrypter given this set refuses the kid as ambiguous; give each key its own kid", kf.name, untrusted.Quote(kid), alg, k.Err())
			}
		}
		return candidates[0], check(candidates[0], where)
	default:
		if slices.ContainsFunc(candidates, func(k *jose.JWK) bool { return check(k, where) == nil }) {
			return nil, errorf("%s has %d keys of kid %s that fit %s: %s; a verifier or decrypter given this set refuses the kid as ambiguous: give each key its own kid", kf.name, len(candidates), untrusted.Quote(kid), alg, describeAll(candidates))
		}
	}
	var first error
	for _, k := range ks {
		err := check(k, where)
		if err == nil {
			return k, nil
		}
		if first == nil {
			first = err
		}
	}
	if len(ks) == 1 {
		return nil, first
	}
	return nil, errorf("%s has %d keys of kid %s, none usable for %s: %s; %s needs %s", kf.name, len(ks), untrusted.Quote(kid), alg, describeAll(ks), alg, wanted)
}

// describeAll is describeCandidate of each of ks, at most maxDescribed of
// them, joined.
func describeAll(ks []*jose.JWK) string {
	var desc []string
	for _, k := range ks[:min(len(ks), maxDescribed)] {
		desc = append(desc, describeCandidate(k))
	}
	if n := len(ks) - maxDescribed; n > 0 {
		desc = append(desc, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(desc, ", ")
}

// describeCandidate is describeKey with what else decides whether k may
// be used: "an oct key of 256 bits for HS256", "an EC P-256 public key
// for signatures".
func describeCandidate(k *jose.JWK) string {
	d := describeKey(k)
	if !k.IsPrivate() && k.KeyType() != "" && k.KeyType() != jose.KeyTypeOct {
		d = strings.TrimSuffix(d, " key") + " public key"
	}
	switch {
	case k.Algorithm != "":
		d += " for " + argName(k.Algorithm)
	case k.Use == jose.UseSignature:
		d += " for signatures"
	case k.Use == jose.UseEncryption:
		d += " for encryption"
	}
	return d
}

// maxDescribed is the number of keys a message describes, at most.
const maxDescribed = 5

// listKids is the kids of a message, quoted, at most maxKids of them.
func listKids(kids []string) string {
	const maxKids = 10
	if len(kids) <= maxKids {
		return strings.Join(quoteAll(kids), ", ")
	}
	return strings.Join(quoteAll(kids[:maxKids]), ", ") + fmt.Sprintf(" and %d more", len(kids)-maxKids)
}

func quoteAll(vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = untrusted.Quote(v)
	}
	return out
}

// describeKey says what k is: "an EC P-256 key", "an oct key of 128 bits".
func describeKey(k *jose.JWK) string {
	kty := k.KeyType()
	if kty == "" {
		return "a key this module cannot use"
	}
	if crv := k.Curve(); crv != "" {
		return "an " + kty + " " + crv + " key"
	}
	if b, ok := k.Key.([]byte); ok {
		return fmt.Sprintf("an oct key of %d bits", 8*len(b))
	}
	return "an " + kty + " key"
}

// sigKeyWanted says what key alg needs: "an EC P-256 key", "an oct key
// of at least 256 bits".
func sigKeyWanted(alg jwa.SignatureAlgorithm) string {
	kty := alg.KeyType()
	if crv := alg.Curve(); crv != "" {
		return "an " + kty + " " + crv + " key"
	}
	if kty == jose.KeyTypeAKP {
		return "an AKP key for " + string(alg)
	}
	if kty == jose.KeyTypeOct {
		return fmt.Sprintf("an oct key of at least %d bits", hmacBits(alg))
	}
	return "an " + kty + " key"
}

// encKeyWanted says what key alg needs: "an oct key of 128 bits", "an EC
// (P-256, P-384, P-521) or OKP X25519 key".
func encKeyWanted(alg jwa.KeyAlgorithm) string {
	switch kty := alg.KeyType(); {
	case kty == jose.KeyTypeOct && alg.KeyWrapSize() != 0 && !alg.IsPBES2():
		return fmt.Sprintf("an oct key of %d bits", 8*alg.KeyWrapSize())
	case kty == jose.KeyTypeOct:
		return "an oct key"
	case kty != "":
		return "an " + kty + " key"
	}
	return "an EC (P-256, P-384, P-521) or OKP X25519 key"
}

// checkVerifying checks the one key of kf (a set is the library's to
// search) against the algorithms of --alg, as the user would.
func (kf *keyFile) checkVerifying(allowed []jwa.SignatureAlgorithm) error {
	if kf.set != nil {
		return nil
	}
	k := kf.key
	if !slices.ContainsFunc(allowed, func(a jwa.SignatureAlgorithm) bool { return a.FitsKey(k.Key) }) {
		if len(allowed) == 1 {
			return errorf("%s holds %s; %s needs %s", kf.name, describeKey(k), allowed[0], sigKeyWanted(allowed[0]))
		}
		return errorf("%s holds %s, which none of --alg %s takes", kf.name, describeKey(k), joinAlgs(allowed))
	}
	if k.Algorithm != "" && !slices.Contains(signatureAlgs, jwa.SignatureAlgorithm(k.Algorithm)) {
		return errorf("%s: the key is for %s, not for signatures: give a signature key", kf.name, argName(k.Algorithm))
	}
	if k.Algorithm != "" && !slices.Contains(allowed, jwa.SignatureAlgorithm(k.Algorithm)) {
		return errorf("%s: the key is for %s only, which --alg %s does not allow: add it to --alg, or give a key for %s", kf.name, argName(k.Algorithm), joinAlgs(allowed), joinAlgs(allowed))
	}
	if k.Use == jose.UseEncryption {
		return errorf("%s: the key is for encryption (use \"enc\"): give a signature key", kf.name)
	}
	return nil
}

// checkDecrypting checks the one key of kf against the algorithms of
// --alg.
func (kf *keyFile) checkDecrypting(allowed []jwa.KeyAlgorithm) error {
	if kf.set != nil {
		switch {
		case kf.set.CheckMixed() != nil:
			return errorf("%s mixes private or secret keys with public ones: decrypt with a set of private (or secret) keys only", kf.name)
		case !slices.ContainsFunc(kf.set.Keys, func(k *jose.JWK) bool { return k.Supported() && k.IsPrivate() }):
			return errorf("%s holds only public keys; decrypting needs the private key", kf.name)
		}
		return nil
	}
	k := kf.key
	if !slices.ContainsFunc(allowed, func(a jwa.KeyAlgorithm) bool { return a.FitsKey(k.Key) }) {
		if len(allowed) == 1 {
			return errorf("%s holds %s; %s needs %s", kf.name, describeKey(k), allowed[0], encKeyWanted(allowed[0]))
		}
		return errorf("%s holds %s, which none of --alg %s takes", kf.name, describeKey(k), joinAlgs(allowed))
	}
	if !k.IsPrivate() {
		return errorf("%s holds a public key; decrypting needs the private key", kf.name)
	}
	if k.Algorithm != "" && !slices.Contains(keyAlgs, jwa.KeyAlgorithm(k.Algorithm)) {
		return errorf("%s: the key is for %s, not for encryption: give an encryption key", kf.name, argName(k.Algorithm))
	}
	if k.Algorithm != "" && !slices.Contains(allowed, jwa.KeyAlgorithm(k.Algorithm)) {
		return errorf("%s: the key is for %s only, which --alg %s does not allow: add it to --alg, or give a key for %s", kf.name, argName(k.Algorithm), joinAlgs(allowed), joinAlgs(allowed))
	}
	if k.Use == jose.UseSignature {
		return errorf("%s: the key is for signatures (use \"sig\"): give an encryption key", kf.name)
	}
	return nil
}

// keyNotFound names the key file in a refusal for want of a key: the set
// of the file holds none for the token ("set.json: no key of kid
// \"hs-1\"").
func keyNotFound(err error, file string) error {
	if !errors.Is(err, jose.ErrKeyNotFound) || file == "" {
		return err
	}
	msg := strings.TrimSuffix(strings.TrimPrefix(userText(err), "JWK Set: "), ": "+jose.ErrKeyNotFound.Error())
	return errorf("%s: %s for the token", displayName(file), msg)
}

// tokenAlgs returns the distinct "alg" values of the headers of the
// well-formed token tok (readToken checked it), in order.
func tokenAlgs(tok []byte) []string {
	var in *inspection
	var err error
	if isJSON(tok) {
		in, err = inspectJSON(tok)
	} else {
		in, err = inspectCompact(tok)
	}
	if err != nil {
		return nil
	}
	raws := []json.RawMessage{in.Header, in.Protected, in.Unprotected}
	for _, h := range append(in.Signatures, in.Recipients...) {
		raws = append(raws, h.Protected, h.Header)
	}
	var algs []string
	for _, raw := range raws {
		var h struct{ Alg string }
		if len(raw) > 0 && json.Unmarshal(raw, &h) == nil && h.Alg != "" && !slices.Contains(algs, h.Alg) {
			algs = append(algs, h.Alg)
		}
	}
	return algs
}

// checkTokenKey checks the one key of kf (a set is the library's to
// search) against the token's one algorithm, when --alg allows it, as
// checkVerifying checks it against --alg: the library would otherwise
// say it in its own terms. fits and wanted are the algorithm's
// (jwa.SignatureAlgorithm or jwa.KeyAlgorithm) FitsKey and what key it
// needs. A token of several algorithms is the library's to refuse,
// signature by signature.
func (kf *keyFile) checkTokenKey(tok []byte, allowed []string, fits func(alg string, key any) bool, wanted func(alg string) string) error {
	if kf == nil || kf.set != nil {
		return nil
	}
	algs := tokenAlgs(tok)
	if len(algs) != 1 || !slices.Contains(allowed, algs[0]) {
		return nil
	}
	a, k := algs[0], kf.key
	switch {
	case !fits(a, k.Key):
		return errorf("%s holds %s; the token's alg %s needs %s: give the key the token was made for", kf.name, describeKey(k), argName(a), wanted(a))
	case k.Algorithm != "" && k.Algorithm != a:
		return errorf("%s: the key is for %s, the token's alg is %s: give the key the token was made for", kf.name, argName(k.Algorithm), argName(a))
	}
	return nil
}

// checkSignedWith is checkTokenKey for a JWS and the algorithms allowed.
func (kf *keyFile) checkSignedWith(tok []byte, allowed []jwa.SignatureAlgorithm) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return kf.checkTokenKey(tok, names,
		func(a string, key any) bool { return sigFits(jwa.SignatureAlgorithm(a), key) },
		func(a string) string { return sigKeyWanted(jwa.SignatureAlgorithm(a)) })
}

// checkEncryptedWith is checkTokenKey for a JWE and the key management
// algorithms allowed.
func (kf *keyFile) checkEncryptedWith(tok []byte, allowed []jwa.KeyAlgorithm) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return kf.checkTokenKey(tok, names,
		func(a string, key any) bool { return jwa.KeyAlgorithm(a).FitsKey(key) },
		func(a string) string { return encKeyWanted(jwa.KeyAlgorithm(a)) })
}

// sigFits reports whether key fits alg (FitsKey) and, for HMAC, is at
// least as long as the hash (RFC 7518 §3.2), as the library requires.
func sigFits(alg jwa.SignatureAlgorithm, key any) bool {
	if b, ok := key.([]byte); ok && alg.KeyType() == jose.KeyTypeOct && len(b) < alg.Hash().Size() {
		return false
	}
	return alg.FitsKey(key)
}

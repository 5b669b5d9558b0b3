package jose

import (
	"crypto/rsa"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
)

// Severity grades a [Finding].
type Severity int

// Severities, from the least to the most serious.
const (
	// SeverityInfo is worth knowing but not a weakness in itself.
	SeverityInfo Severity = iota
	// SeverityWarning is a weakness that makes misuse easier.
	SeverityWarning
	// SeverityCritical makes the key unsafe or unusable as it is.
	SeverityCritical
)

// String returns "info", "warning" or "critical".
func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	case SeverityCritical:
		return "critical"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Finding is one weakness found by [AnalyzeKey] or [AnalyzeSet].
type Finding struct {
	Severity Severity
	// KeyIndex is the index of the key in the set, or -1 for a finding
	// about the set as a whole or from [AnalyzeKey].
	KeyIndex int
	KeyID    string // the key's kid, if any
	Message  string // what is wrong, in words
}

// String formats f as one line, such as
// `critical: key 1 (kid "k1"): RSA modulus of 1024 bits; use at least 2048`.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Severity.String())
	b.WriteString(": ")
	switch {
	case f.KeyIndex >= 0 && f.KeyID != "":
		fmt.Fprintf(&b, "key %d (kid %s): ", f.KeyIndex, untrusted.Quote(f.KeyID))
	case f.KeyIndex >= 0:
		fmt.Fprintf(&b, "key %d: ", f.KeyIndex)
	case f.KeyID != "":
		fmt.Fprintf(&b, "kid %s: ", untrusted.Quote(f.KeyID))
	}
	b.WriteString(f.Message)
	return b.String()
}

// AnalyzeKey reports the weaknesses of k, in the manner of web-token's key
// analyzers: an RSA modulus under 2048 bits (RFC 7518 §3.3) or with the ROCA
// fingerprint (CVE-2017-15361), a public exponent that is even or small, a symmetric key shorter than its alg needs
// (RFC 7518 §3.2, §4.4, §4.7, §5.2, §5.3), an alg that does not fit the key,
// a missing kid, use or alg, an unknown use, use and key_ops that disagree,
// an expired x5c leaf certificate, and an unusable key. A key without
// findings is not thereby proven safe.
func AnalyzeKey(k *JWK) []Finding {
	return analyzeKey(k, -1, time.Now())
}

// AnalyzeSet reports the weaknesses of each key of s (as [AnalyzeKey] does)
// and of the set: duplicate kids, symmetric keys mixed with asymmetric ones
// (a verifier selecting by kid could then use a public key as an HMAC
// secret) and, if public is true (a set meant for publication, such as a
// jwks_uri document), any private or symmetric key in it.
func AnalyzeSet(s *Set, public bool) []Finding {
	now := time.Now()
	var out []Finding
	if len(s.Keys) == 0 {
		out = append(out, Finding{SeverityInfo, -1, "", "the set has no keys"})
	}
	kids := map[string][]int{}
	var kidOrder []string
	var sym, asym int
	for i, k := range s.Keys {
		out = append(out, analyzeKey(k, i, now)...)
		if k.KeyID != "" {
			if kids[k.KeyID] == nil {
				kidOrder = append(kidOrder, k.KeyID)
			}
			kids[k.KeyID] = append(kids[k.KeyID], i)
		}
		secret := k.IsPrivate() || !k.Supported() && rawHasPrivateMembers(k)
		switch {
		case k.IsSymmetric() || !k.Supported() && k.KeyType() == KeyTypeOct:
			sym++
			if public {
				out = append(out, Finding{SeverityCritical, i, k.KeyID, "a symmetric key in a set meant to be public: anyone can forge tokens with it"})
			}
		case secret:
			asym++
			if public {
				out = append(out, Finding{SeverityCritical, i, k.KeyID, "a private key in a set meant to be public: publish its public key (JWK.Public) instead"})
			}
		case k.Supported():
			asym++
		}
	}
	for _, kid := range kidOrder {
		if idx := kids[kid]; len(idx) > 1 {
			out = append(out, Finding{SeverityWarning, -1, kid, fmt.Sprintf("kid is shared by keys %s: a token naming it does not identify one key", listKeys(idx))})
		}
	}
	if sym > 0 && asym > 0 {
		out = append(out, Finding{SeverityWarning, -1, "", "the set mixes symmetric and asymmetric keys: a verifier that selects keys by kid alone could be tricked into using a public key as an HMAC secret"})
	}
	return out
}

// maxListedKeys is the most key indexes a finding lists.
const maxListedKeys = 8

// listKeys lists the key indexes idx for a finding, at most
// maxListedKeys of them, the others counted: "0, 1, … (1000 keys)".
func listKeys(idx []int) string {
	if len(idx) <= maxListedKeys {
		return joinInts(idx)
	}
	return joinInts(idx[:maxListedKeys]) + ", … (" + strconv.Itoa(len(idx)) + " keys)"
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// rawHasPrivateMembers reports whether an unusable entry was read with a
// member that carries a secret.
func rawHasPrivateMembers(k *JWK) bool {
	if k == nil || k.ext.raw == nil {
		return false
	}
	members, err := jwkParseObject(k.ext.raw, Limits{}.WithDefaults())
	if err != nil {
		return false
	}
	for _, m := range members {
		if slices.Contains(privateMembers, m.name) {
			return true
		}
	}
	return false
}

// algRequirement says what key an alg needs.
type algRequirement struct {
	kty    string
	curves []string // EC or OKP curves; nil: any of kty
	octLen []int    // exact oct key sizes in bytes; nil: see minOct
	minOct int      // smallest oct key size in bytes
	use    string   // "sig" or "enc"
}

// algRequirements lists the algorithms of RFC 7518, RFC 8037, RFC 9864 and
// RFC 9964, and the HPKE Key Encryption algorithms of a draft.
var algRequirements = map[string]algRequirement{
	"HS256":              {kty: KeyTypeOct, minOct: 32, use: UseSignature},
	"HS384":              {kty: KeyTypeOct, minOct: 48, use: UseSignature},
	"HS512":              {kty: KeyTypeOct, minOct: 64, use: UseSignature},
	"RS256":              {kty: KeyTypeRSA, use: UseSignature},
	"RS384":              {kty: KeyTypeRSA, use: UseSignature},
	"RS512":              {kty: KeyTypeRSA, use: UseSignature},
	"PS256":              {kty: KeyTypeRSA, use: UseSignature},
	"PS384":              {kty: KeyTypeRSA, use: UseSignature},
	"PS512":              {kty: KeyTypeRSA, use: UseSignature},
	"ES256":              {kty: KeyTypeEC, curves: []string{CurveP256}, use: UseSignature},
	"ES384":              {kty: KeyTypeEC, curves: []string{CurveP384}, use: UseSignature},
	"ES512":              {kty: KeyTypeEC, curves: []string{CurveP521}, use: UseSignature},
	"ES256K":             {kty: KeyTypeEC, curves: []string{CurveSecp256k1}, use: UseSignature},
	"EdDSA":              {kty: KeyTypeOKP, curves: []string{CurveEd25519}, use: UseSignature},
	"Ed25519":            {kty: KeyTypeOKP, curves: []string{CurveEd25519}, use: UseSignature},
	"ML-DSA-44":          {kty: KeyTypeAKP, use: UseSignature},
	"ML-DSA-65":          {kty: KeyTypeAKP, use: UseSignature},
	"ML-DSA-87":          {kty: KeyTypeAKP, use: UseSignature},
	"RSA1_5":             {kty: KeyTypeRSA, use: UseEncryption},
	"RSA-OAEP":           {kty: KeyTypeRSA, use: UseEncryption},
	"RSA-OAEP-256":       {kty: KeyTypeRSA, use: UseEncryption},
	"RSA-OAEP-384":       {kty: KeyTypeRSA, use: UseEncryption},
	"RSA-OAEP-512":       {kty: KeyTypeRSA, use: UseEncryption},
	"A128KW":             {kty: KeyTypeOct, octLen: []int{16}, use: UseEncryption},
	"A192KW":             {kty: KeyTypeOct, octLen: []int{24}, use: UseEncryption},
	"A256KW":             {kty: KeyTypeOct, octLen: []int{32}, use: UseEncryption},
	"A128GCMKW":          {kty: KeyTypeOct, octLen: []int{16}, use: UseEncryption},
	"A192GCMKW":          {kty: KeyTypeOct, octLen: []int{24}, use: UseEncryption},
	"A256GCMKW":          {kty: KeyTypeOct, octLen: []int{32}, use: UseEncryption},
	"dir":                {kty: KeyTypeOct, octLen: []int{16, 24, 32, 48, 64}, use: UseEncryption},
	"A128GCM":            {kty: KeyTypeOct, octLen: []int{16}, use: UseEncryption},
	"A192GCM":            {kty: KeyTypeOct, octLen: []int{24}, use: UseEncryption},
	"A256GCM":            {kty: KeyTypeOct, octLen: []int{32}, use: UseEncryption},
	"A128CBC-HS256":      {kty: KeyTypeOct, octLen: []int{32}, use: UseEncryption},
	"A192CBC-HS384":      {kty: KeyTypeOct, octLen: []int{48}, use: UseEncryption},
	"A256CBC-HS512":      {kty: KeyTypeOct, octLen: []int{64}, use: UseEncryption},
	"PBES2-HS256+A128KW": {kty: KeyTypeOct, minOct: 1, use: UseEncryption},
	"PBES2-HS384+A192KW": {kty: KeyTypeOct, minOct: 1, use: UseEncryption},
	"PBES2-HS512+A256KW": {kty: KeyTypeOct, minOct: 1, use: UseEncryption},
	"ECDH-ES":            {kty: "EC|OKP", curves: []string{CurveP256, CurveP384, CurveP521, CurveX25519}, use: UseEncryption},
	"ECDH-ES+A128KW":     {kty: "EC|OKP", curves: []string{CurveP256, CurveP384, CurveP521, CurveX25519}, use: UseEncryption},
	"ECDH-ES+A192KW":     {kty: "EC|OKP", curves: []string{CurveP256, CurveP384, CurveP521, CurveX25519}, use: UseEncryption},
	"ECDH-ES+A256KW":     {kty: "EC|OKP", curves: []string{CurveP256, CurveP384, CurveP521, CurveX25519}, use: UseEncryption},
	// draft-ietf-jose-hpke-encrypt-20 §6.2 (a draft).
	"HPKE-0-KE": {kty: KeyTypeEC, curves: []string{CurveP256}, use: UseEncryption},
	"HPKE-1-KE": {kty: KeyTypeEC, curves: []string{CurveP384}, use: UseEncryption},
	"HPKE-2-KE": {kty: KeyTypeEC, curves: []string{CurveP521}, use: UseEncryption},
	"HPKE-3-KE": {kty: KeyTypeOKP, curves: []string{CurveX25519}, use: UseEncryption},
	"HPKE-4-KE": {kty: KeyTypeOKP, curves: []string{CurveX25519}, use: UseEncryption},
	"HPKE-7-KE": {kty: KeyTypeEC, curves: []string{CurveP256}, use: UseEncryption},
	"HPKE-0":    {kty: KeyTypeEC, curves: []string{CurveP256}, use: UseEncryption},
	"HPKE-1":    {kty: KeyTypeEC, curves: []string{CurveP384}, use: UseEncryption},
	"HPKE-2":    {kty: KeyTypeEC, curves: []string{CurveP521}, use: UseEncryption},
	"HPKE-3":    {kty: KeyTypeOKP, curves: []string{CurveX25519}, use: UseEncryption},
	"HPKE-4":    {kty: KeyTypeOKP, curves: []string{CurveX25519}, use: UseEncryption},
	"HPKE-7":    {kty: KeyTypeEC, curves: []string{CurveP256}, use: UseEncryption},
}

func analyzeKey(k *JWK, idx int, now time.Time) []Finding {
	var out []Finding
	add := func(s Severity, format string, args ...any) {
		out = append(out, Finding{s, idx, k.KeyID, fmt.Sprintf(format, args...)})
	}
	if k == nil {
		return []Finding{{SeverityCritical, idx, "", "nil key"}}
	}
	if err := k.Err(); err != nil {
		if errors.Is(err, ErrUnsupportedAlgorithm) {
			add(SeverityInfo, "unsupported key, never selected: %v", err)
		} else {
			add(SeverityCritical, "unusable key, never selected: %v", err)
		}
		return out
	}
	kty, crv := k.KeyType(), k.Curve()
	if k.KeyID == "" {
		add(SeverityWarning, "no kid: tokens cannot name this key")
	}
	switch k.Use {
	case "":
		if k.KeyOps == nil {
			add(SeverityWarning, "neither use nor key_ops: the key may be used both to sign and to encrypt")
		}
	case UseSignature, UseEncryption:
	default:
		add(SeverityWarning, "unknown use %s: this module refuses the key for every operation", untrusted.Quote(k.Use))
	}
	if k.Use == UseSignature || k.Use == UseEncryption {
		for _, op := range k.KeyOps {
			sig := op == OpSign || op == OpVerify
			if sig != (k.Use == UseSignature) {
				add(SeverityWarning, "key_ops %s contradicts use %q (RFC 7517 §4.3)", untrusted.Quote(op), k.Use)
			}
		}
	}
	if k.KeyOps != nil && len(k.KeyOps) == 0 {
		add(SeverityWarning, "empty key_ops: the key allows no operation")
	}
	if k.Algorithm == "" {
		add(SeverityWarning, "no alg: the key may be used with any algorithm that accepts %s %s key", article(kty), kty)
	} else if req, ok := algRequirements[k.Algorithm]; !ok {
		add(SeverityWarning, "alg %s is not an algorithm this module implements", untrusted.Quote(k.Algorithm))
	} else {
		if !slices.Contains(strings.Split(req.kty, "|"), kty) {
			add(SeverityCritical, "alg %q needs %s %s key, not %s", k.Algorithm, article(req.kty), strings.ReplaceAll(req.kty, "|", " or "), kty)
		} else if req.curves != nil && !slices.Contains(req.curves, crv) {
			add(SeverityCritical, "alg %q cannot be used with curve %s", k.Algorithm, crv)
		}
		if k.Use != "" && (k.Use == UseSignature || k.Use == UseEncryption) && k.Use != req.use {
			add(SeverityCritical, "alg %q is for use %q, but the key has use %q", k.Algorithm, req.use, k.Use)
		}
		if key, ok := k.Key.([]byte); ok && req.kty == KeyTypeOct {
			n := len(key)
			switch {
			case req.octLen != nil && !slices.Contains(req.octLen, n):
				add(SeverityCritical, "alg %q needs a key of %s bytes, not %d", k.Algorithm, joinInts(req.octLen), n)
			case n < req.minOct:
				add(SeverityCritical, "a %d-bit key is shorter than the %d bits %s needs (RFC 7518 §3.2)", 8*n, 8*req.minOct, k.Algorithm)
			}
		}
	}
	switch key := k.Key.(type) {
	case []byte:
		if len(key) < MinOctBits/8 {
			add(SeverityCritical, "a symmetric key of %d bits is too short; use at least %d", 8*len(key), MinOctBits)
		}
	case *rsa.PublicKey:
		analyzeRSA(key, add)
	case *rsa.PrivateKey:
		analyzeRSA(&key.PublicKey, add)
	}
	if a := akpAlgorithm(k.Key); a != "" && k.Algorithm != a {
		add(SeverityCritical, "an %s key must have alg %q (RFC 9964 §4), not %s", a, a, untrusted.Quote(k.Algorithm))
	}
	if len(k.Certificates) > 0 {
		leaf := k.Certificates[0]
		if now.After(leaf.NotAfter) {
			add(SeverityWarning, "the x5c leaf certificate expired on %s", leaf.NotAfter.UTC().Format(time.DateOnly))
		} else if now.Before(leaf.NotBefore) {
			add(SeverityWarning, "the x5c leaf certificate is not valid before %s", leaf.NotBefore.UTC().Format(time.DateOnly))
		}
	}
	return out
}

func analyzeRSA(key *rsa.PublicKey, add func(Severity, string, ...any)) {
	if bits := key.N.BitLen(); bits < MinRSABits {
		add(SeverityCritical, "RSA modulus of %d bits; use at least %d (RFC 7518 §3.3)", bits, MinRSABits)
	}
	if rocaVulnerable(key.N) {
		add(SeverityCritical, "RSA modulus has the ROCA fingerprint (CVE-2017-15361): it can be factored")
	}
	switch e := key.E; {
	case e < 3 || e%2 == 0:
		add(SeverityCritical, "RSA public exponent %d is not an odd integer of at least 3", e)
	case e < 65537:
		add(SeverityWarning, "RSA public exponent %d is small; 65537 is the usual choice", e)
	}
}

// article is the indefinite article of a key type's name as it is read
// aloud ("an oct key", "an RSA key", "a foo key").
func article(kty string) string {
	if kty == "" {
		return "a"
	}
	switch kty[0] {
	case 'a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U', 'R', 'F', 'H', 'L', 'M', 'N', 'S', 'X':
		return "an"
	}
	return "a"
}

package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/josebench/josebench/jose/jwa"
)

// Subject names, as the PHP suite documents them.
const (
	SubjectSignature    = "benchSignature"    // build and serialize a JWS (RFC 7515 §5.1)
	SubjectVerification = "benchVerification" // parse and verify a JWS (RFC 7515 §5.2)
	SubjectEncryption   = "benchEncryption"   // build and serialize a JWE (RFC 7516 §5.1)
	SubjectDecryption   = "benchDecryption"   // parse and decrypt a JWE (RFC 7516 §5.2)
	SubjectRoundTrip    = "benchRoundTrip"    // both, the headline figure
)

// Subjects lists every subject, in the order variants are run (the JWT
// group's benchIssue and benchValidate are in suite_jwt.go).
var Subjects = []string{SubjectSignature, SubjectVerification, SubjectEncryption, SubjectDecryption, SubjectIssue, SubjectValidate, SubjectRoundTrip}

// Payloads and serializations.
const (
	// PayloadRFC7520 names the RFC 7520 §4 text that the PHP suite signs
	// and encrypts (167 bytes of UTF-8).
	PayloadRFC7520 = "rfc7520"
	// SerializationCompact is the JWS and JWE Compact Serialization.
	SerializationCompact = "compact"
	// SerializationJSON is the flattened JSON Serialization; JWE tokens
	// carry the AAD "A,B,C,D", as the PHP decryption input does.
	SerializationJSON = "json"
)

// RFC7520Payload is the payload of RFC 7520 §4.
const RFC7520Payload = "It\u2019s a dangerous business, Frodo, going out your door. You step onto the road, and if you don't keep your feet, there\u2019s no knowing where you might be swept off to."

// JSONAAD is the additional authenticated data of JWE tokens in the JSON
// serialization (RFC 7516 §7.2.1 "aad"), as the PHP suite uses.
const JSONAAD = "A,B,C,D"

// Supported variant values.
var (
	RSABits        = []int{2048, 3072, 4096}
	Curves         = []string{"P-256", "P-384", "P-521", "X25519"}
	Serializations = []string{SerializationCompact, SerializationJSON}
)

// MaxPayloadSize bounds the configurable payload size.
const MaxPayloadSize = 1 << 20

// PayloadSize returns the size in bytes that a payload name stands for:
// 167 for "rfc7520", or the number n of a decimal size between 1 and
// [MaxPayloadSize], written without sign or leading zeros (the name is part
// of the variant's identity, which must be one for one size).
func PayloadSize(name string) (int, error) {
	if name == PayloadRFC7520 {
		return len(RFC7520Payload), nil
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 || n > MaxPayloadSize || strconv.Itoa(n) != name {
		return 0, fmt.Errorf("payload must be %q or a size in bytes from 1 to %d, not %q", PayloadRFC7520, MaxPayloadSize, name)
	}
	return n, nil
}

// Payload returns the payload a name stands for: the RFC 7520 §4 text, or
// that text repeated and cut to the size.
func Payload(name string) ([]byte, error) {
	n, err := PayloadSize(name)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if name == PayloadRFC7520 {
		return []byte(RFC7520Payload), nil
	}
	p := make([]byte, 0, n+len(RFC7520Payload))
	for len(p) < n {
		p = append(p, RFC7520Payload...)
	}
	return p[:n], nil
}

// Benchmark is one benchmark class of the suite: an algorithm and the groups
// it belongs to, named after the PHP classes (HS256Bench, RSAOAEP256Bench).
type Benchmark struct {
	Name   string   // class name, e.g. "ECDHESA128KWBench"
	Groups []string // groups, most general first, e.g. JWE, ECDHES, ECDHESKW, ECDHESA128KW
	Alg    string   // the JOSE "alg" value
	JWE    bool     // a key management algorithm (else a signature algorithm)
	JWT    bool     // a JWT benchmark (Alg signs; KeyAlg and Enc encrypt a nested one)
	KeyAlg string   // JWT: the "alg" of a nested JWT's JWE, or ""
	Enc    string   // JWT: the "enc" of a nested JWT's JWE, or ""
	Bearer bool     // a Bearer benchmark (suite_bearer.go)
	DPoP   bool     // a DPoP benchmark (suite_dpop.go)
}

// Family returns the benchmark's family group (hmac, RSASign, GCMKW, ...),
// the one reports chart by.
func (b Benchmark) Family() string { return b.Groups[1] }

func jwsBench(alg jwa.SignatureAlgorithm, family string) Benchmark {
	return Benchmark{Name: string(alg) + "Bench", Groups: []string{"JWS", family, string(alg)}, Alg: string(alg)}
}

func jweBench(name string, alg jwa.KeyAlgorithm, groups ...string) Benchmark {
	return Benchmark{Name: name, Groups: append([]string{"JWE"}, groups...), Alg: string(alg), JWE: true}
}

// Benchmarks lists the suite in the order it runs, with the PHP suite's
// groups (its label slips corrected) plus the dir benchmark it leaves out,
// then the JWT group, the Bearer group (jose/bearer), the DPoP group
// (jose/dpop), and two families the PHP suite does not have: HPKE
// (group HPKE, a draft) and, in builds with Go 1.27 or later, ML-DSA (group
// MLDSA, RFC 9964).
var Benchmarks = append([]Benchmark{
	jwsBench(jwa.HS256, "hmac"),
	jwsBench(jwa.HS384, "hmac"),
	jwsBench(jwa.HS512, "hmac"),
	jwsBench(jwa.ES256, "ECDSA"),
	jwsBench(jwa.ES384, "ECDSA"),
	jwsBench(jwa.ES512, "ECDSA"),
	jwsBench(jwa.ES256K, "ECDSA"),
	{Name: "EdDSABench", Groups: []string{"JWS", "EdDSA", "Ed25519"}, Alg: string(jwa.EdDSA)},
	jwsBench(jwa.RS256, "RSASign"),
	jwsBench(jwa.RS384, "RSASign"),
	jwsBench(jwa.RS512, "RSASign"),
	jwsBench(jwa.PS256, "RSASign"),
	jwsBench(jwa.PS384, "RSASign"),
	jwsBench(jwa.PS512, "RSASign"),
	jweBench("A128KWBench", jwa.A128KW, "JWEKW", "A128KW"),
	jweBench("A192KWBench", jwa.A192KW, "JWEKW", "A192KW"),
	jweBench("A256KWBench", jwa.A256KW, "JWEKW", "A256KW"),
	jweBench("A128GCMKWBench", jwa.A128GCMKW, "GCMKW", "A128GCMKW"),
	jweBench("A192GCMKWBench", jwa.A192GCMKW, "GCMKW", "A192GCMKW"),
	jweBench("A256GCMKWBench", jwa.A256GCMKW, "GCMKW", "A256GCMKW"),
	jweBench("ECDHESBench", jwa.ECDHES, "ECDHES", "ECDH-ES"),
	jweBench("ECDHESA128KWBench", jwa.ECDHESA128KW, "ECDHES", "ECDHESKW", "ECDHESA128KW", "ECDH-ES+A128KW"),
	jweBench("ECDHESA192KWBench", jwa.ECDHESA192KW, "ECDHES", "ECDHESKW", "ECDHESA192KW", "ECDH-ES+A192KW"),
	jweBench("ECDHESA256KWBench", jwa.ECDHESA256KW, "ECDHES", "ECDHESKW", "ECDHESA256KW", "ECDH-ES+A256KW"),
	jweBench("PBES2HS256A128KWBench", jwa.PBES2HS256A128KW, "PBES2", "PBES2HS256A128KW", "PBES2-HS256+A128KW"),
	jweBench("PBES2HS384A192KWBench", jwa.PBES2HS384A192KW, "PBES2", "PBES2HS384A192KW", "PBES2-HS384+A192KW"),
	jweBench("PBES2HS512A256KWBench", jwa.PBES2HS512A256KW, "PBES2", "PBES2HS512A256KW", "PBES2-HS512+A256KW"),
	jweBench("RSA1_5Bench", jwa.RSA1_5, "RSAEnc", "RSA1_5"),
	jweBench("RSAOAEPBench", jwa.RSAOAEP, "RSAEnc", "RSA-OAEP"),
	jweBench("RSAOAEP256Bench", jwa.RSAOAEP256, "RSAEnc", "RSA-OAEP-256"),
	jweBench("RSAOAEP384Bench", jwa.RSAOAEP384, "RSAEnc", "RSA-OAEP-384"),
	jweBench("RSAOAEP512Bench", jwa.RSAOAEP512, "RSAEnc", "RSA-OAEP-512"),
	jweBench("DirBench", jwa.Direct, "dir"),
}, slices.Concat(jwtBenchmarks, bearerBenchmarks, dpopBenchmarks, hpkeBenchmarks, mldsaBenchmarks)...)

// ContentEncryptions lists the six "enc" values every JWE benchmark pairs
// its key algorithm with, in the PHP suite's order.
var ContentEncryptions = []string{
	string(jwa.A128CBCHS256), string(jwa.A192CBCHS384), string(jwa.A256CBCHS512),
	string(jwa.A128GCM), string(jwa.A192GCM), string(jwa.A256GCM),
}

// groupAliases maps alias groups to the group they stand for.
var groupAliases = map[string]string{"KW": "JWEKW"}

// Groups returns every group name that --group accepts, in suite order.
func Groups() []string {
	var gs []string
	for _, b := range Benchmarks {
		for _, g := range b.Groups {
			if !slices.Contains(gs, g) {
				gs = append(gs, g)
				if g == "JWEKW" {
					gs = append(gs, "KW")
				}
			}
		}
	}
	return gs
}

// IsGroup reports whether g names a known group, case ignored (see
// [LookupGroup]).
func IsGroup(g string) bool {
	_, ok := LookupGroup(g)
	return ok
}

// InGroup reports whether benchmark b belongs to group g (aliases
// resolved).
func (b Benchmark) InGroup(g string) bool {
	if a, ok := groupAliases[g]; ok {
		g = a
	}
	return slices.Contains(b.Groups, g)
}

// Param is one parameter of a variant, e.g. enc=A128GCM.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Variant is one measured case: a benchmark, a subject and a parameter set.
type Variant struct {
	Benchmark string   `json:"benchmark"`
	Groups    []string `json:"groups"`
	Subject   string   `json:"subject"`
	Params    []Param  `json:"params"`

	// The inputs, for the code that prepares the operation.
	Alg           string `json:"-"` // JOSE "alg"
	JWE           bool   `json:"-"` // a JWE benchmark
	JWT           bool   `json:"-"` // a JWT benchmark
	KeyAlg        string `json:"-"` // JWT: the nested JWT's JWE "alg", or ""
	Bearer        bool   `json:"-"` // a Bearer benchmark
	DPoP          bool   `json:"-"` // a DPoP benchmark
	Enc           string `json:"-"` // JWE "enc"
	RSABits       int    `json:"-"` // RSA key size, 0 if not RSA
	Curve         string `json:"-"` // ECDH-ES curve, "" if not ECDH-ES
	P2C           int    `json:"-"` // PBES2 count, 0 if not PBES2
	Payload       string `json:"-"` // payload name, see [Payload]
	Serialization string `json:"-"` // compact or json
}

// Set returns the parameter set as "alg=HS256,enc=A128GCM".
func (v *Variant) Set() string {
	parts := make([]string, len(v.Params))
	for i, p := range v.Params {
		parts[i] = p.Name + "=" + p.Value
	}
	return strings.Join(parts, ",")
}

// ID returns the variant's identity, "HS256Bench/benchSignature/alg=HS256",
// under which runs are compared.
func (v *Variant) ID() string {
	parts := []string{v.Benchmark, v.Subject}
	for _, p := range v.Params {
		parts = append(parts, p.Name+"="+p.Value)
	}
	return strings.Join(parts, "/")
}

// Param returns the value of the named parameter, or "".
func (v *Variant) Param(name string) string {
	for _, p := range v.Params {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// Select returns the variants that groups select with the inputs of m, in
// suite order: benchmark, then subject, then parameters (enc, key size or
// curve, payload, serialization). A variant selected by several groups
// appears once. Group names are matched as [ResolveGroups] does; an
// unknown group is an *UnknownGroupError.
func Select(m MeasureConfig, groups []string) ([]Variant, error) {
	groups, err := ResolveGroups(groups)
	if err != nil {
		return nil, err
	}
	var vs []Variant
	for _, b := range Benchmarks {
		if !slices.ContainsFunc(groups, b.InGroup) {
			continue
		}
		for _, subj := range Subjects {
			if !slices.Contains(m.Subjects, subj) || !subjectApplies(b, subj) {
				continue
			}
			if b.JWT {
				vs = append(vs, jwtVariants(b, subj, m)...)
				continue
			}
			if b.Bearer {
				vs = append(vs, bearerVariants(b, subj)...)
				continue
			}
			if b.DPoP {
				vs = append(vs, dpopVariants(b, subj, m)...)
				continue
			}
			vs = append(vs, variants(b, subj, m)...)
		}
	}
	return vs, nil
}

func subjectApplies(b Benchmark, subj string) bool {
	if b.JWT {
		return jwtSubject(subj)
	}
	if b.Bearer {
		return subj == SubjectValidate
	}
	if b.DPoP {
		return dpopSubject(subj)
	}
	switch subj {
	case SubjectSignature, SubjectVerification:
		return !b.JWE
	case SubjectEncryption, SubjectDecryption:
		return b.JWE
	}
	return subj == SubjectRoundTrip
}

// variants expands one benchmark subject over its parameters.
func variants(b Benchmark, subj string, m MeasureConfig) []Variant {
	type keyVar struct {
		bits  int
		curve string
	}
	keys := []keyVar{{}}
	alg := b.Alg
	switch {
	case !b.JWE && (strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS")):
		keys = nil
		for _, n := range m.RSASignBits {
			keys = append(keys, keyVar{bits: n})
		}
	case b.JWE && strings.HasPrefix(alg, "RSA"):
		keys = nil
		for _, n := range m.RSAEncBits {
			keys = append(keys, keyVar{bits: n})
		}
	case strings.HasPrefix(alg, "ECDH-ES"):
		keys = nil
		for _, c := range m.Curves {
			keys = append(keys, keyVar{curve: c})
		}
	}
	encs := []string{""}
	if b.JWE && !jwa.KeyAlgorithm(alg).IsHPKEIntegrated() { // HPKE Integrated Encryption has no enc
		encs = ContentEncryptions
	}
	p2c := 0
	if strings.HasPrefix(alg, "PBES2") {
		p2c = m.P2C
	}
	var vs []Variant
	for _, enc := range encs {
		for _, k := range keys {
			for _, payload := range m.Payloads {
				for _, ser := range m.Serializations {
					v := Variant{
						Benchmark: b.Name, Groups: b.Groups, Subject: subj,
						Alg: alg, JWE: b.JWE, Enc: enc, RSABits: k.bits, Curve: k.curve,
						P2C: p2c, Payload: payload, Serialization: ser,
					}
					v.Params = append(v.Params, Param{"alg", alg})
					if enc != "" {
						v.Params = append(v.Params, Param{"enc", enc})
					}
					if k.bits != 0 {
						v.Params = append(v.Params, Param{"bits", strconv.Itoa(k.bits)})
					}
					if k.curve != "" {
						v.Params = append(v.Params, Param{"crv", k.curve})
					}
					if p2c != 0 {
						v.Params = append(v.Params, Param{"p2c", strconv.Itoa(p2c)})
					}
					if payload != PayloadRFC7520 {
						v.Params = append(v.Params, Param{"payload", payload})
					}
					if ser != SerializationCompact {
						v.Params = append(v.Params, Param{"ser", ser})
					}
					vs = append(vs, v)
				}
			}
		}
	}
	return vs
}

package jose

import (
	"crypto/rsa"
	"math/big"
	"strings"
	"testing"
	"time"
)

// jwkTFindings formats findings one per line.
func jwkTFindings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestAnalyzeKey checks that each weakness is reported in words, and that
// a well-described key has no finding.
func TestAnalyzeKey(t *testing.T) {
	rsa1024, err := ParseKeyPEM(jwkTRead(t, "../testdata/keys/rsa1024.pem"))
	if err != nil {
		t.Fatal(err)
	}
	rsa1024.KeyID, rsa1024.Use, rsa1024.Algorithm = "r", "sig", "RS256"
	rsa2048, _ := ParseKeyPEM(jwkTRead(t, "../testdata/keys/rsa2048.pem"))
	smallE := &JWK{Key: jwkTRSAWithE(rsa2048, 3), KeyID: "e3", Use: "sig", Algorithm: "RS256"}
	evenE := &JWK{Key: jwkTRSAWithE(rsa2048, 65536), KeyID: "e", Use: "sig", Algorithm: "RS256"}
	cert, _ := ParseKey(jwkTRead(t, "../testdata/latchset/rfc7517_B.jwk"))
	cert.Algorithm = "RS256"
	key32 := []byte("0123456789abcdef0123456789abcdef")
	tests := []struct {
		name string
		k    *JWK
		want []string // each in one finding, in order
	}{
		{"good HMAC key", &JWK{Key: key32, KeyID: "k", Use: "sig", Algorithm: "HS256"}, nil},
		{"good key_ops", &JWK{Key: key32, KeyID: "k", KeyOps: []KeyOp{OpSign, OpVerify}, Algorithm: "HS256"}, nil},
		{"short HMAC key", &JWK{Key: key32[:31], KeyID: "k", Use: "sig", Algorithm: "HS256"}, []string{"critical: kid \"k\": a 248-bit key is shorter than the 256 bits HS256 needs"}},
		{"short HS512 key", &JWK{Key: key32, KeyID: "k", Use: "sig", Algorithm: "HS512"}, []string{"critical", "shorter than the 512 bits HS512 needs"}},
		{"AES key size", &JWK{Key: key32[:24], KeyID: "k", Use: "enc", Algorithm: "A128KW"}, []string{"critical", `alg "A128KW" needs a key of 16 bytes, not 24`}},
		{"tiny symmetric key", &JWK{Key: key32[:8], KeyID: "k", Use: "enc"}, []string{"warning", "no alg", "critical", "symmetric key of 64 bits is too short"}},
		{"nothing declared", &JWK{Key: key32}, []string{"warning", "no kid", "neither use nor key_ops", "no alg"}},
		{"unknown use", &JWK{Key: key32, KeyID: "k", Use: "both", Algorithm: "HS256"}, []string{`unknown use "both"`}},
		{"use and key_ops disagree", &JWK{Key: key32, KeyID: "k", Use: "enc", KeyOps: []KeyOp{OpSign}, Algorithm: "A256KW"}, []string{`key_ops "sign" contradicts use "enc"`}},
		{"empty key_ops", &JWK{Key: key32, KeyID: "k", KeyOps: []KeyOp{}, Algorithm: "HS256"}, []string{"empty key_ops"}},
		{"unknown alg", &JWK{Key: key32, KeyID: "k", Use: "sig", Algorithm: "HS1"}, []string{`alg "HS1" is not an algorithm this module implements`}},
		{"alg of another kty", &JWK{Key: key32, KeyID: "k", Use: "sig", Algorithm: "RS256"}, []string{"critical", `alg "RS256" needs an RSA key, not oct`}},
		{"alg of another use", &JWK{Key: key32, KeyID: "k", Use: "enc", Algorithm: "HS256"}, []string{"critical", `alg "HS256" is for use "sig", but the key has use "enc"`}},
		{"RSA 1024", rsa1024, []string{"critical: kid \"r\": RSA modulus of 1024 bits; use at least 2048"}},
		{"RSA e=3", smallE, []string{"warning", "RSA public exponent 3 is small"}},
		{"RSA e even", evenE, []string{"critical", "RSA public exponent 65536 is not an odd integer"}},
		{"ROCA", &JWK{Key: &rsa.PublicKey{N: jwkTROCAModulus(t), E: 65537}, KeyID: "k", Use: "sig", Algorithm: "RS256"}, []string{"critical", "ROCA fingerprint"}},
		{"expired certificate", cert, []string{"warning", "the x5c leaf certificate expired on 2018-08-14"}},
		{"unsupported Go key", &JWK{Key: "x"}, []string{"info", "unsupported key, never selected"}},
		{"nil", nil, []string{"critical", "nil key"}},
	}
	for _, tt := range tests {
		got := jwkTFindings(AnalyzeKey(tt.k))
		if tt.want == nil && got != "" {
			t.Errorf("%s: unexpected findings:\n%s", tt.name, got)
		}
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: %q not in\n%s", tt.name, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
	}
	// ES256 on a P-256 key is right; on P-384 it is not.
	ec, _ := ParseKey([]byte(jwkTECPriv))
	ec.Use, ec.Algorithm = "sig", "ES256"
	if got := AnalyzeKey(ec); len(got) != 0 {
		t.Errorf("P-256 ES256: %v", got)
	}
	ec.Algorithm = "ES512"
	if got := jwkTFindings(AnalyzeKey(ec)); !strings.Contains(got, `critical: kid "1": alg "ES512" cannot be used with curve P-256`) {
		t.Errorf("P-256 ES512: %s", got)
	}
	// A not yet valid certificate.
	if got := jwkTFindings(analyzeKey(cert, -1, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))); !strings.Contains(got, "not valid before 2013-02-21") {
		t.Errorf("not yet valid: %s", got)
	}
}

// jwkTRSAWithE returns the public key of k with exponent e.
func jwkTRSAWithE(k *JWK, e int) any {
	p := k.Public()
	rk := *p.Key.(*rsa.PublicKey)
	rk.E = e
	return &rk
}

// TestAnalyzeSet checks the set-level findings: duplicate kids, mixed
// symmetric and asymmetric keys, secrets in a public set.
func TestAnalyzeSet(t *testing.T) {
	in := `{"keys":[` +
		`{"kty":"oct","k":"-ebuDNsVZ2iJtoZ-akfXTSCt4UO2cruLCsbWlBinggE","kid":"kid-aes-sign","alg":"HS256","use":"sig"},` +
		jwkTECPriv + `,` +
		`{"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4","y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM","kid":"1","use":"enc","alg":"ECDH-ES"},` +
		`{"kty":"OKP","crv":"X448","x":"AAAA","d":"AAAA","kid":"x448"},` +
		`{"kty":"oct","k":"","kid":"empty"}` +
		`]}`
	s, err := ParseSet([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got := jwkTFindings(AnalyzeSet(s, true))
	for _, w := range []string{
		`critical: key 0 (kid "kid-aes-sign"): a symmetric key in a set meant to be public`,
		`warning: key 1 (kid "1"): no alg`,
		`critical: key 1 (kid "1"): a private key in a set meant to be public`,
		`info: key 3 (kid "x448"): unsupported key, never selected`,
		`critical: key 3 (kid "x448"): a private key in a set meant to be public`,
		`critical: key 4 (kid "empty"): unusable key, never selected: jose: jwk: member "k": empty key`,
		`critical: key 4 (kid "empty"): a symmetric key in a set meant to be public`,
		`warning: kid "1": kid is shared by keys 1, 2`,
		`warning: the set mixes symmetric and asymmetric keys`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("%q not in\n%s", w, got)
		}
	}
	if strings.Contains(got, "key 2 (kid \"1\"): a private key") {
		t.Errorf("public key reported as private:\n%s", got)
	}
	// Not meant to be public: private keys are fine.
	if got := jwkTFindings(AnalyzeSet(s, false)); strings.Contains(got, "meant to be public") {
		t.Errorf("private set:\n%s", got)
	}
	// The public form of a good set has no finding.
	good, _ := ParseSet([]byte(`{"keys":[` + jwkTMutate(t, jwkTRSAPriv, func(m map[string]any) { m["use"] = "sig" }) + `]}`))
	if got := AnalyzeSet(good.Public(), true); len(got) != 0 {
		t.Errorf("good public set: %v", got)
	}
	if got := jwkTFindings(AnalyzeSet(&Set{}, true)); got != "info: the set has no keys\n" {
		t.Errorf("empty set: %s", got)
	}
	if SeverityInfo.String() != "info" || Severity(9).String() != "Severity(9)" {
		t.Error("Severity.String")
	}
	if f := (Finding{SeverityWarning, 2, "", "m"}).String(); f != "warning: key 2: m" {
		t.Errorf("Finding.String: %s", f)
	}
}

// jwkTROCAModulus returns the modulus of the Wycheproof ROCA key.
func jwkTROCAModulus(t *testing.T) *big.Int {
	b, err := Base64URLDecode("AanFpofbj7KjD4Lf-N2hVMKR7yewSyXhhbirIMTGpfYEhZ_lnt5UoK98DnKIgArXGTu3MaW_HhFw16HGaTDUHqPrId7fe4r11CqRw09yBFuW79V8sYIwHdzCaWflUI6auImYbVfoN9_nD5n8N8SY9DwXw7mwZM9wREPXoDPgOoIWl6q_MPsp7n0zs3Z5ZaiQWOOzl1S9OhwAfSiiOwz6efnXEaxuTEtPd7BjSx7NaFka8Dx9U7YqXy2RFj1O9PjyaDGuRh7YXsX3iMUSP_wSyHQg_c_qHRtKUsNSGCT7OZg0hzm2KphtjnayKJvC64vAbROBR4Ubg6Bxg9IQVZ-QYyE")
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).SetBytes(b)
}

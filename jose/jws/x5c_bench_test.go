package jws_test

import (
	"crypto/x509"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// BenchmarkX5C measures verification with NewX5CKeyFunc, with its CPU
// time (cpu-ns/op, which a shared machine moves less than ns/op): a
// legitimate ES256 token whose x5c holds leaf and intermediate, beside the
// same token verified with its key given directly; four valid certificates
// parsed and a chain built that ends at an untrusted root; and the hostile
// chains below, the most costly.
func BenchmarkX5C(b *testing.B) {
	t := b
	root := x5cIssue(t, nil, true, nil)
	inter := x5cIssue(t, root, true, nil)
	leaf := x5cIssue(t, inter, false, nil)
	roots := x509.NewCertPool()
	roots.AddCert(root.cert)
	otherRoot := x5cIssue(t, nil, true, nil)
	ca := x5cIssue(t, otherRoot, true, nil)
	chain := []*x5cCA{ca}
	for range 2 {
		ca = x5cIssue(t, ca, true, nil)
		chain = append([]*x5cCA{ca}, chain...)
	}
	deep := x5cIssue(t, ca, false, nil)
	kf, err := jws.NewX5CKeyFunc(jws.X5COptions{Verify: x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}})
	if err != nil {
		b.Fatal(err)
	}
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	vx, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
	vk, _ := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, Key: &leaf.key.PublicKey})
	good := x5cToken(t, leaf.key, x5cChain(leaf, inter))
	worst := x5cToken(t, deep.key, x5cChain(append([]*x5cCA{deep}, chain...)...))
	for _, c := range []struct {
		name    string
		v       *jws.Verifier
		tok     []byte
		wantErr bool
	}{
		{"legit-key-given", vk, good, false},
		{"legit-x5c-leaf-intermediate", vx, good, false},
		{"worst-x5c-4-certificates-untrusted-root", vx, worst, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := c.v.VerifyCompact(c.tok); (err != nil) != c.wantErr {
				b.Fatalf("error %v, want error %v", err, c.wantErr)
			}
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				c.v.VerifyCompact(c.tok)
			}
		})
	}

	// The hostile chains of issue 18 finding 2 (x5c_hostile_test.go),
	// each in one compact token (one chain) and in a general JSON token of
	// 16 signatures, which costs at most Limits.MaxKeyLookups (4) chains.
	// A chain costs one public RSA operation per link checked, with the
	// issuer's key, which the token chooses:
	//   - issue18: the issue's token (a leaf with a fake signature and one
	//     16,384-bit intermediate, e = 65537), with X5COptions.MaxRSABits
	//     raised to let it through, and with the defaults, which refuse it
	//     before the chain;
	//   - worst: the worst the defaults let through: three intermediates
	//     of distinct names (x5c intermediates of one subject are refused,
	//     TestX5CSameSubject), the default MaxCertificates with the leaf,
	//     each link valid, so that all three are checked, with a 4,096-bit
	//     key (MaxRSABits) of exponent 2^31-1, the largest crypto/rsa
	//     takes (testdata/keys);
	//   - 8192: the same with MaxRSABits 8192, the bound of crypto/tls
	//     (two intermediates: three do not fit the default MaxHeaderSize);
	//   - rsa2048: one 2,048-bit intermediate, e = 65537, for scale.
	type hostile struct {
		name             string
		compact, general []byte
		opts             jws.X5COptions
		roots            *x509.CertPool
	}
	var hs []hostile
	for _, h := range []struct {
		name           string
		bits, e, inter int
		maxRSA         int
	}{
		{"issue18-16384-bit-MaxRSABits-16384", 16384, 65537, 1, 16384},
		{"issue18-16384-bit-defaults", 16384, 65537, 1, 0},
		{"rsa2048-defaults", 2048, 65537, 1, 0},
	} {
		hc := newHostileChain(b, h.bits, h.e, h.inter)
		signers := hc.signers(b, 16)
		general, err := jws.SignGeneral([]byte(`{"sub":"x5c"}`), signers...)
		if err != nil {
			b.Fatal(err)
		}
		compact, _ := signers[0].Compact([]byte(`{"sub":"x5c"}`))
		hs = append(hs, hostile{h.name, compact, general, jws.X5COptions{MaxRSABits: h.maxRSA}, hc.roots})
	}
	for _, h := range []struct {
		name   string
		bits   int
		maxRSA int
		names  []string
	}{
		{"worst-line-3x4096-bit-e2^31-1-defaults", 4096, 0, []string{"josebench line a", "josebench line b", "josebench line c"}},
		// Three certificates signed with 8,192-bit keys do not fit the
		// default MaxHeaderSize (8 KiB) beside the leaf: two do.
		{"line-2x8192-bit-e2^31-1-MaxRSABits-8192", 8192, 8192, []string{"josebench line a", "josebench line b"}},
	} {
		x5c, key := x5cLineChain(b, vectortest.RSAKeyLargeExponent(b, h.bits), h.names...)
		s, err := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Extra: map[string]any{"x5c": x5c}})
		if err != nil {
			b.Fatal(err)
		}
		signers := make([]*jws.Signer, 16)
		for i := range signers {
			signers[i] = s
		}
		general, err := jws.SignGeneral([]byte(`{"sub":"x5c"}`), signers...)
		if err != nil {
			b.Fatal(err)
		}
		compact, _ := s.Compact([]byte(`{"sub":"x5c"}`))
		hs = append(hs, hostile{h.name, compact, general, jws.X5COptions{MaxRSABits: h.maxRSA}, roots})
	}
	for _, h := range hs {
		o := h.opts
		o.Verify = x509.VerifyOptions{Roots: h.roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
		kf, err := jws.NewX5CKeyFunc(o)
		if err != nil {
			b.Fatal(err)
		}
		v, err := jws.NewVerifier(jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.VerifyCompact(h.compact); h.roots == roots && (err == nil || !strings.Contains(err.Error(), "unknown authority")) {
			b.Fatalf("%s: %v, want a chain verified up to its untrusted end", h.name, err)
		}
		b.Run("hostile-compact-"+h.name, func(b *testing.B) {
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, err := v.VerifyCompact(h.compact); err == nil {
					b.Fatal("verified")
				}
			}
		})
		b.Run("hostile-general-16-signatures-"+h.name, func(b *testing.B) {
			b.ReportAllocs()
			defer vectortest.MeasureCPU(b)()
			for b.Loop() {
				if _, _, err := v.VerifyEach(h.general); err == nil {
					b.Fatal("verified")
				}
			}
		})
	}
}

package jws_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jws"
)

// The hostile x5c chains of issue 18 finding 2, built at test time from
// fixed data, without generating an RSA key: an intermediate whose public
// key is a "big RSA key", a random odd modulus of modBits bits (no one
// knows its factors; parsing and using it as a public key needs none),
// issued by a trusted root, and leaves naming it as their issuer, each with
// a fake signature of the modulus's size, so that crypto/x509 runs the RSA
// public operation with the big key before it finds the signature wrong.
// Nothing is ever valid: the chain verification fails, having cost one
// big RSA operation per leaf.

// hostileChain is a root to trust, and an x5c builder.
type hostileChain struct {
	root   *x5cCA
	roots  *x509.CertPool
	inters []*x509.Certificate // of one name and key identifier, each with its own big key
	inter  *x509.Certificate   // inters[0]
	mod    *big.Int            // inters[0]'s modulus; the others have its size
	rsa    *rsa.PrivateKey     // a fixed testdata key, which signs the leaves' TBS (the signature is then replaced)
}

// bigModulus is a random odd number of exactly bits bits, the same for a
// seed: the modulus of vectortest.PublicRSAJWK.
func bigModulus(t testing.TB, bits int, seed uint64) *big.Int {
	t.Helper()
	k, err := jose.ParseKey([]byte(vectortest.PublicRSAJWK(bits, seed)))
	if err != nil {
		t.Fatal(err)
	}
	return k.Key.(*rsa.PublicKey).N
}

// newHostileChain makes the root and n intermediates, all of one name,
// each with a modBits-bit RSA public key and exponent e (65537, or up to
// 2^31-1, the largest crypto/rsa takes). With more than one, NewX5CKeyFunc
// refuses the x5c before the chain (intermediates of one subject,
// TestX5CSameSubject); crypto/x509 would try every one as the leaf's
// issuer.
func newHostileChain(t testing.TB, modBits, e, n int) *hostileChain {
	t.Helper()
	root := x5cIssue(t, nil, true, nil)
	hc := &hostileChain{root: root, roots: x509.NewCertPool(), rsa: vectortest.RSAKey(t, 2048)}
	hc.roots.AddCert(root.cert)
	now := time.Now()
	for i := range n {
		mod := bigModulus(t, modBits, uint64(modBits+i))
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(int64(18_000 + i)),
			Subject:               pkix.Name{CommonName: "josebench hostile intermediate"},
			SubjectKeyId:          []byte("hostile-intermediate"),
			NotBefore:             now.Add(-time.Hour),
			NotAfter:              now.Add(time.Hour),
			BasicConstraintsValid: true,
			IsCA:                  true,
			KeyUsage:              x509.KeyUsageCertSign,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, root.cert, &rsa.PublicKey{N: mod, E: e}, root.key)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		hc.inters = append(hc.inters, c)
		if i == 0 {
			hc.inter, hc.mod = c, mod
		}
	}
	return hc
}

// leaf returns a leaf certificate for a new P-256 key, issued in name by
// the intermediate, with a signature of the modulus's size that is not one,
// and that key.
func (hc *hostileChain) leaf(t testing.TB, serial int64) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: "josebench hostile leaf"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	// The issuer's name and key identifier are the intermediate's; the
	// template parent has no public key, so CreateCertificate signs with
	// the RSA-2048 key, and the signature is replaced below.
	parent := &x509.Certificate{Subject: hc.inter.Subject, SubjectKeyId: hc.inter.SubjectKeyId}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, hc.rsa)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		TBS asn1.RawValue
		Alg asn1.RawValue
		Sig asn1.BitString
	}
	if _, err := asn1.Unmarshal(der, &c); err != nil {
		t.Fatal(err)
	}
	sig := new(big.Int).Rsh(hc.mod, 1).Bytes() // below every modulus (their top bit is set), of their size
	sig = append(make([]byte, (hc.mod.BitLen()+7)/8-len(sig)), sig...)
	c.Sig = asn1.BitString{Bytes: sig, BitLength: 8 * len(sig)}
	if der, err = asn1.Marshal(c); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// x5c returns the x5c of a leaf and the intermediates.
func (hc *hostileChain) x5c(leaf *x509.Certificate) []string {
	out := []string{base64.StdEncoding.EncodeToString(leaf.Raw)}
	for _, c := range hc.inters {
		out = append(out, base64.StdEncoding.EncodeToString(c.Raw))
	}
	return out
}

// signers returns n ES256 signers, each with its own leaf, whose protected
// headers carry the leaf's x5c.
func (hc *hostileChain) signers(t testing.TB, n int) []*jws.Signer {
	t.Helper()
	out := make([]*jws.Signer, n)
	for i := range out {
		leaf, key := hc.leaf(t, int64(18_100+i))
		s, err := jws.NewSigner(jwa.ES256, key, &jws.SignerOptions{Extra: map[string]any{"x5c": hc.x5c(leaf)}})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = s
	}
	return out
}

// keyFunc returns the x5c key function of the chain's root with the
// bounds of o, for code signing leaves, and a pointer to the count of its
// calls.
func (hc *hostileChain) keyFunc(t testing.TB, o jws.X5COptions) (func(*jose.Header) (any, error), *int) {
	t.Helper()
	o.Verify = x509.VerifyOptions{Roots: hc.roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
	kf, err := jws.NewX5CKeyFunc(o)
	if err != nil {
		t.Fatal(err)
	}
	calls := new(int)
	return func(h *jose.Header) (any, error) { *calls++; return kf(h) }, calls
}

// TestX5CMaxRSABits: a certificate of x5c with an RSA key larger than
// X5COptions.MaxRSABits (4096 bits by default) is refused with
// ErrLimitExceeded once parsed, before the chain is verified; one of the
// bound is verified (and fails here, the chain being hostile).
func TestX5CMaxRSABits(t *testing.T) {
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	for _, c := range []struct {
		bits int
		opts jws.X5COptions
		want error
	}{
		{4096, jws.X5COptions{}, jose.ErrKeyNotFound},
		{4104, jws.X5COptions{}, jose.ErrLimitExceeded},
		{16384, jws.X5COptions{}, jose.ErrLimitExceeded},
		{8192, jws.X5COptions{MaxRSABits: 8192}, jose.ErrKeyNotFound},
		{16384, jws.X5COptions{MaxRSABits: 16384}, jose.ErrKeyNotFound},
	} {
		hc := newHostileChain(t, c.bits, 65537, 1)
		kf, calls := hc.keyFunc(t, c.opts)
		v := rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
		tok, err := hc.signers(t, 1)[0].Compact([]byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.VerifyCompact(tok)
		if !errors.Is(err, c.want) || *calls != 1 {
			t.Errorf("%d-bit intermediate, MaxRSABits %d: %v (%d calls), want %v", c.bits, c.opts.MaxRSABits, err, *calls, c.want)
		}
		if c.want == jose.ErrLimitExceeded && !strings.Contains(err.Error(), "certificate 1 has a") {
			t.Errorf("%d bits: %v does not name the certificate", c.bits, err)
		}
	}
}

// x5cLine returns a compact token whose x5c is a leaf and one intermediate
// per name of names, each named so, with its own subjectAltName, the
// public key of k, and a valid signature by k under the next one's name
// (the last under its own): a chain whose every link verifies, each with a
// public operation of k's, and that leads to no trusted root. With one
// name repeated the intermediates are of one subject and one key, which
// crypto/x509 does not take for duplicates (their subjectAltNames differ):
// it then tries every order of them, 3 + 6 + 6 signature checks for three.
func x5cLine(t testing.TB, k *rsa.PrivateKey, names ...string) []byte {
	t.Helper()
	x5c, key := x5cLineChain(t, k, names...)
	return x5cToken(t, key, x5c)
}

// x5cLineChain is x5cLine's x5c and the leaf's key.
func x5cLineChain(t testing.TB, k *rsa.PrivateKey, names ...string) ([]string, *ecdsa.PrivateKey) {
	t.Helper()
	now := time.Now()
	x5c := make([]string, len(names)+1)
	for i, n := range names {
		issuer := n
		if i+1 < len(names) {
			issuer = names[i+1]
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(int64(18_200 + i)),
			Subject:               pkix.Name{CommonName: n},
			NotBefore:             now.Add(-time.Hour),
			NotAfter:              now.Add(time.Hour),
			BasicConstraintsValid: true,
			IsCA:                  true,
			KeyUsage:              x509.KeyUsageCertSign,
			DNSNames:              []string{"x5c-line-" + strconv.Itoa(i) + ".example"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, &x509.Certificate{Subject: pkix.Name{CommonName: issuer}}, &k.PublicKey, k)
		if err != nil {
			t.Fatal(err)
		}
		x5c[i+1] = base64.StdEncoding.EncodeToString(der)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(18_299),
		Subject:      pkix.Name{CommonName: "josebench x5c line leaf"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, &x509.Certificate{Subject: pkix.Name{CommonName: names[0]}}, &key.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	x5c[0] = base64.StdEncoding.EncodeToString(der)
	return x5c, key
}

// TestX5CSameSubject (review finding): intermediates of one subject make
// crypto/x509 try every order of them, each try a signature check with a
// key of the token's choice: three cost 15 checks, where SECURITY.md took
// three (a chain of three, or three candidate issuers of a leaf with a
// fake signature) for the worst. An x5c whose certificates after the leaf
// share a subject is refused once parsed, before the chain is verified,
// with ErrKeyNotFound: it costs less than a chain of three intermediates of
// distinct names whose links all verify (allocations, which grow with the
// RSA operations; it cost 5 times as many before).
func TestX5CSameSubject(t *testing.T) {
	algs := []jwa.SignatureAlgorithm{jwa.ES256}
	k := vectortest.RSAKey(t, 2048)
	kf, calls := newHostileChain(t, 2048, 65537, 1).keyFunc(t, jws.X5COptions{})
	v := rtVerifier(t, jws.VerifyOptions{Algorithms: algs, KeyFunc: kf})
	line := x5cLine(t, k, "a", "b", "c")
	if _, err := v.VerifyCompact(line); !errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), "unknown authority") {
		t.Fatalf("line of three: %v, want a chain that leads to no trusted root", err)
	}
	*calls = 0
	fan := x5cLine(t, k, "s", "s", "s")
	for _, tok := range [][]byte{fan, x5cLine(t, k, "s", "s"), x5cLine(t, k, "a", "s", "s")} {
		if _, err := v.VerifyCompact(tok); !errors.Is(err, jose.ErrKeyNotFound) || !strings.Contains(err.Error(), "same subject") {
			t.Errorf("intermediates of one subject: %v, want ErrKeyNotFound", err)
		}
	}
	if *calls != 3 {
		t.Errorf("%d calls", *calls)
	}
	if vectortest.RaceEnabled {
		return
	}
	fanAllocs := testing.AllocsPerRun(3, func() { v.VerifyCompact(fan) })
	lineAllocs := testing.AllocsPerRun(3, func() { v.VerifyCompact(line) })
	t.Logf("three intermediates of one subject: %v allocations; of three names: %v", fanAllocs, lineAllocs)
	if fanAllocs > lineAllocs {
		t.Errorf("three intermediates of one subject cost %v allocations, more than a chain of three (%v)", fanAllocs, lineAllocs)
	}
}

package jwa

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"
)

// Test data: ../../testdata/wycheproof/rsa_oaep_2048_sha384_mgf1sha384_test.json,
// rsa_oaep_2048_sha512_mgf1sha512_test.json and
// rsa_oaep_3072_sha512_mgf1sha512_test.json, byte-exact copies from
// C2SP/wycheproof @ dac1dd47 testvectors_v1/ (Apache-2.0, wycheproof/LICENSE):
// RSAES-OAEP decryption with SHA-384 and SHA-512, MGF1 with the same hash,
// the primitives of RSA-OAEP-384 and RSA-OAEP-512.

type oaepVectors struct {
	TestGroups []struct {
		PrivateKeyPkcs8 string `json:"privateKeyPkcs8"`
		Sha             string `json:"sha"`
		MgfSha          string `json:"mgfSha"`
		Tests           []struct {
			TcID   int    `json:"tcId"`
			Msg    string `json:"msg"`
			Ct     string `json:"ct"`
			Label  string `json:"label"`
			Result string `json:"result"`
		} `json:"tests"`
	} `json:"testGroups"`
}

// oaepEncFor returns a content encryption whose CEK is n bytes, or "".
func oaepEncFor(n int) ContentEncryption {
	for _, enc := range []ContentEncryption{A128GCM, A192GCM, A256GCM, A192CBCHS384, A256CBCHS512} {
		if enc.KeySize() == n {
			return enc
		}
	}
	return ""
}

// TestRSAOAEPWycheproof runs the Wycheproof RSA-OAEP SHA-384 and SHA-512
// vectors. Every vector is decrypted with the hash this package picks for
// RSA-OAEP-384 and RSA-OAEP-512, both on a local key and behind a
// crypto.Decrypter, with the vector's label: the valid ones give their
// message, the invalid ones fail. Then through DecryptKey, which JWE uses
// (empty label, a CEK of enc's size): a valid vector with an empty label and
// a message of a CEK's size gives that message; every other vector is the
// opaque ErrDecryption.
func TestRSAOAEPWycheproof(t *testing.T) {
	files := map[string]KeyAlgorithm{
		"rsa_oaep_2048_sha384_mgf1sha384_test.json": RSAOAEP384,
		"rsa_oaep_2048_sha512_mgf1sha512_test.json": RSAOAEP512,
		"rsa_oaep_3072_sha512_mgf1sha512_test.json": RSAOAEP512,
	}
	var valid, invalid, jose int
	for name, alg := range files {
		var v oaepVectors
		if err := json.Unmarshal(sigReadFile(t, filepath.Join("wycheproof", name)), &v); err != nil {
			t.Fatal(err)
		}
		for _, g := range v.TestGroups {
			if want := map[KeyAlgorithm]string{RSAOAEP384: "SHA-384", RSAOAEP512: "SHA-512"}[alg]; g.Sha != want || g.MgfSha != want {
				t.Fatalf("%s: group of %s/%s, want %s", name, g.Sha, g.MgfSha, want)
			}
			der, _ := hex.DecodeString(g.PrivateKeyPkcs8)
			k, err := x509.ParsePKCS8PrivateKey(der)
			if err != nil {
				t.Fatal(err)
			}
			key := k.(*rsa.PrivateKey)
			h := rsaOAEPCryptoHash(alg)
			local, err := NewKeyDecrypter(alg, key)
			if err != nil {
				t.Fatal(err)
			}
			opaque, err := NewKeyDecrypter(alg, &kmsRSA{key: key})
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range g.Tests {
				msg, _ := hex.DecodeString(tc.Msg)
				ct, _ := hex.DecodeString(tc.Ct)
				label, _ := hex.DecodeString(tc.Label)
				ok := tc.Result == "valid"
				if ok {
					valid++
				} else {
					invalid++
				}
				got, err := rsa.DecryptOAEP(rsaOAEPHash(alg), nil, key, ct, label)
				if ok != (err == nil && bytes.Equal(got, msg)) {
					t.Errorf("%s tcId %d (%s): hash of %s: %x, %v", name, tc.TcID, tc.Result, alg, got, err)
				}
				got, err = (&kmsRSA{key: key}).Decrypt(nil, ct, &rsa.OAEPOptions{Hash: h, MGFHash: h, Label: label})
				if ok != (err == nil && bytes.Equal(got, msg)) {
					t.Errorf("%s tcId %d (%s): OAEPOptions of %s: %x, %v", name, tc.TcID, tc.Result, alg, got, err)
				}
				enc := oaepEncFor(len(msg))
				jwe := ok && len(label) == 0 && enc != ""
				if enc == "" {
					enc = A128GCM
				}
				for _, d := range []KeyDecrypter{local, opaque} {
					got, err := d.DecryptKey(ct, enc, nil)
					switch {
					case jwe && (err != nil || !bytes.Equal(got, msg)):
						t.Errorf("%s tcId %d: DecryptKey(%s) = %x, %v; want %x", name, tc.TcID, enc, got, err, msg)
					case !jwe && (err != ErrDecryption || got != nil):
						t.Errorf("%s tcId %d: DecryptKey(%s) = %x, %v; want ErrDecryption", name, tc.TcID, enc, got, err)
					}
				}
				if jwe {
					jose++
				}
			}
		}
	}
	if valid < 40 || invalid < 50 || jose == 0 {
		t.Errorf("ran %d valid, %d invalid vectors (%d through DecryptKey)", valid, invalid, jose)
	}
	t.Logf("%d valid, %d invalid, %d valid through DecryptKey", valid, invalid, jose)
}

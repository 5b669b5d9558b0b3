package jwe_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/internal/vectortest"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// FuzzDecryptHPKE feeds compact and flattened JWE tokens to a Decrypter that
// accepts every HPKE algorithm (draft-ietf-jose-hpke-encrypt-20, Key
// Encryption and Integrated Encryption) with the draft's example keys,
// seeded with the draft's example tokens: any input is refused with a jose
// sentinel error or decrypts, never panics.
func FuzzDecryptHPKE(f *testing.F) {
	var vectors []struct {
		Alg       string
		JWK       json.RawMessage
		Flattened json.RawMessage
		Compact   string
	}
	if err := json.Unmarshal(vectortest.ReadFile(f, "hpke", "jose-vectors.json"), &vectors); err != nil {
		f.Fatal(err)
	}
	set := &jose.Set{}
	for _, v := range vectors {
		if a := jwa.KeyAlgorithm(v.Alg); !a.IsHPKE() && !a.IsHPKEIntegrated() {
			continue // X448
		}
		k, err := jose.ParseKey(v.JWK)
		if err != nil {
			f.Fatal(err)
		}
		set.Keys = append(set.Keys, k)
		f.Add([]byte(strings.TrimSpace(v.Compact)))
		f.Add([]byte(v.Flattened))
	}
	// Long attacker text, which errors must quote cut (issue 18).
	for _, h := range append(fzLongHeaders, `{"alg":"HPKE-3","kid":"`+fzLong+`"}`, `{"alg":"HPKE-0-KE","enc":"A128GCM","kid":"`+fzLong+`","ek":"AA"}`) {
		f.Add([]byte(jose.Base64URLEncode([]byte(h)) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA"))
	}
	d, err := jwe.NewDecrypter(jwe.DecryptOptions{
		KeyAlgorithms:      append(jwa.HPKEKeyAlgorithms(), jwa.HPKEIntegratedAlgorithms()...),
		ContentEncryptions: jwa.ContentEncryptions(),
		Keys:               set,
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		if len(data) > 0 && data[0] == '{' {
			_, err = d.DecryptJSON(data)
		} else {
			_, err = d.DecryptCompact(data)
		}
		if err != nil && !vectortest.WrapsAny(err, jose.ErrMalformed, jose.ErrUnsupportedAlgorithm, jose.ErrAlgorithmNotAllowed,
			jose.ErrLimitExceeded, jose.ErrKeyNotFound, jose.ErrDecryptionFailed, jose.ErrInvalidKey, jose.ErrUnsupportedCritical) {
			t.Fatalf("error %q wraps no jose sentinel error", err)
		}
		vectortest.CheckErrorText(t, err)
	})
}

//go:build go1.27

package keys

import (
	"crypto/mldsa"
	"encoding/json"
	"fmt"
)

// MLDSA returns the fixed ML-DSA private key of alg: "ML-DSA-44",
// "ML-DSA-65" or "ML-DSA-87" (the AKP JWKs of RFC 9964 §4 in
// mldsa44.json, mldsa65.json and mldsa87.json, whose "priv" is the seed).
// It needs Go 1.27 (crypto/mldsa).
func MLDSA(alg string) (*mldsa.PrivateKey, error) { return loadMLDSA(alg, "") }

// OtherMLDSA returns the other ML-DSA private key of alg
// (other-mldsa44.json, ...), never measured: a token must be refused under
// it.
func OtherMLDSA(alg string) (*mldsa.PrivateKey, error) { return loadMLDSA(alg, "other-") }

func loadMLDSA(alg, prefix string) (*mldsa.PrivateKey, error) {
	params, name, ok := mldsaFile(alg)
	if !ok {
		return nil, fmt.Errorf("keys: no ML-DSA key for %q", alg)
	}
	name = prefix + name
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var k struct{ Kty, Alg, Pub, Priv string }
	if err := json.Unmarshal(data, &k); err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	if k.Kty != "AKP" || k.Alg != alg {
		return nil, fmt.Errorf("keys: %s: kty %q, alg %q", name, k.Kty, k.Alg)
	}
	seed, err := b64(name, "priv", k.Priv)
	if err != nil {
		return nil, err
	}
	pub, err := b64(name, "pub", k.Pub)
	if err != nil {
		return nil, err
	}
	key, err := mldsa.NewPrivateKey(params, seed)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", name, err)
	}
	if string(key.PublicKey().Bytes()) != string(pub) {
		return nil, fmt.Errorf("keys: %s: public key does not match priv", name)
	}
	return key, nil
}

func mldsaFile(alg string) (mldsa.Parameters, string, bool) {
	switch alg {
	case "ML-DSA-44":
		return mldsa.MLDSA44(), "mldsa44.json", true
	case "ML-DSA-65":
		return mldsa.MLDSA65(), "mldsa65.json", true
	case "ML-DSA-87":
		return mldsa.MLDSA87(), "mldsa87.json", true
	}
	return mldsa.Parameters{}, "", false
}

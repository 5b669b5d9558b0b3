package keytext

import "testing"

// TestRefusal: one clause per need, in the order of its first algorithm,
// the algorithms that share it joined with "and" under "need".
func TestRefusal(t *testing.T) {
	got := Refusal("a 32-byte secret",
		[]string{"A128KW", "A192KW", "A128GCMKW", "A256KW"},
		[]string{"a 16-byte secret", "a 24-byte secret", "a 16-byte secret", "a 32-byte secret"})
	want := "the key is a 32-byte secret; A128KW and A128GCMKW need a 16-byte secret; A192KW needs a 24-byte secret; A256KW needs a 32-byte secret"
	if got != want {
		t.Errorf("Refusal:\n got %s\nwant %s", got, want)
	}
	if got, want := One("a P-256 ECDSA public key", "ES256", PrivateKeyNeeded("sign")), "the key is a P-256 ECDSA public key; ES256 needs the private key to sign"; got != want {
		t.Errorf("One: %s, want %s", got, want)
	}
}

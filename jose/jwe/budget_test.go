package jwe_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
	"github.com/josebench/josebench/jose/jwe"
)

// TestKeyLookupBudget is issue 18 finding 2 for jwe: a failing key
// function was called once per recipient (16 in a general JWE JSON
// Serialization), spending none of MaxKeyAttempts. Every call now counts
// against Limits.MaxKeyLookups (4 by default), failing or not, in every
// serialization; a raised limit is honoured.
func TestKeyLookupBudget(t *testing.T) {
	kek := bytes.Repeat([]byte{1}, 16)
	wrong := bytes.Repeat([]byte{2}, 16)
	var rs []jwe.Recipient
	for range 16 {
		rs = append(rs, jwe.Recipient{Algorithm: jwa.A128KW, Key: kek})
	}
	general, err := jwe.EncryptGeneral(jwa.A128GCM, []byte("plaintext"), nil, nil, rs...)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := jwe.NewEncrypter(jwa.A128KW, jwa.A128GCM, kek, nil)
	flat, _ := e.Flattened([]byte("plaintext"), nil)
	compact, _ := e.Compact([]byte("plaintext"))
	errSource := errors.New("KMS down")
	for _, c := range []struct {
		name      string
		key       []byte // nil: the key function fails
		lim       jose.Limits
		wantCalls int
		want      error
	}{
		{"failing", nil, jose.Limits{}, 4, jose.ErrLimitExceeded},
		{"failing, MaxKeyLookups 16", nil, jose.Limits{MaxKeyLookups: 16}, 16, errSource},
		// A key that is wrong: each call finds one, and MaxKeyLookups ends
		// the token before MaxKeyAttempts does.
		{"wrong key", wrong, jose.Limits{MaxKeyAttempts: 16}, 4, jose.ErrLimitExceeded},
		{"wrong key, both limits 16", wrong, jose.Limits{MaxKeyAttempts: 16, MaxKeyLookups: 16}, 16, jose.ErrDecryptionFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			d, err := jwe.NewDecrypter(jwe.DecryptOptions{
				KeyAlgorithms:      []jwa.KeyAlgorithm{jwa.A128KW},
				ContentEncryptions: []jwa.ContentEncryption{jwa.A128GCM},
				Limits:             c.lim,
				KeyFunc: func(*jose.Header) (any, error) {
					calls++
					if c.key == nil {
						return nil, errSource
					}
					return c.key, nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.DecryptJSON(general)
			if calls != c.wantCalls || !errors.Is(err, c.want) {
				t.Errorf("general, 16 recipients: %d calls, %v; want %d, %v", calls, err, c.wantCalls, c.want)
			}
			for name, tok := range map[string][]byte{"flattened": flat, "compact": compact} {
				calls = 0
				if name == "flattened" {
					_, err = d.DecryptJSON(tok)
				} else {
					_, err = d.DecryptCompact(tok)
				}
				if calls != 1 || err == nil {
					t.Errorf("%s: %d calls, %v", name, calls, err)
				}
			}
		})
	}
}

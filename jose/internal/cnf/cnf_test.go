package cnf

import (
	"errors"
	"testing"

	"github.com/josebench/josebench/jose"
)

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		claims string
		want   Claim
		bad    bool
	}{
		{`{"sub":"a"}`, Claim{}, false},
		{`{"sub":"cnf","x":{"cnf":1}}`, Claim{}, false}, // not the top-level claim
		{`{"cnf":{"jkt":"abc"}}`, Claim{Present: true, JKT: "abc"}, false},
		{`{"\u0063nf":{"j\u006bt":"abc"}}`, Claim{Present: true, JKT: "abc"}, false},
		{`{"cnf":{"x5t#S256":"h"}}`, Claim{Present: true, Other: `member "x5t#S256"`}, false},
		{`{"cnf":{"jkt":"abc","zzz\n":1}}`, Claim{Present: true, JKT: "abc", Other: "a member"}, false},
		{`{"cnf":{}}`, Claim{}, true},
		{`{"cnf":null}`, Claim{}, true},
		{`{"cnf":"abc"}`, Claim{}, true},
		{`{"cnf":{"jkt":""}}`, Claim{}, true},
		{`{"cnf":{"jkt":1}}`, Claim{}, true},
		{`{"cnf":{"jkt":"a"},"cnf":{"jkt":"b"}}`, Claim{}, true}, // duplicate
	} {
		got, err := Read([]byte(tt.claims))
		if tt.bad {
			if !errors.Is(err, jose.ErrMalformed) {
				t.Errorf("%s: err = %v, want ErrMalformed", tt.claims, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v; want %+v", tt.claims, got, err, tt.want)
		}
	}
}

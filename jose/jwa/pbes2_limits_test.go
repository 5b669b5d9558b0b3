package jwa_test

import (
	"testing"

	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// TestPBES2DefaultsMirrorJoseLimits: the jwa defaults and jose.Limits'
// defaults must not drift apart.
func TestPBES2DefaultsMirrorJoseLimits(t *testing.T) {
	if jwa.DefaultPBES2MinCount != jose.DefaultPBES2MinCount || jwa.DefaultPBES2MaxCount != jose.DefaultPBES2MaxCount {
		t.Fatalf("jwa [%d, %d], jose [%d, %d]", jwa.DefaultPBES2MinCount, jwa.DefaultPBES2MaxCount, jose.DefaultPBES2MinCount, jose.DefaultPBES2MaxCount)
	}
}

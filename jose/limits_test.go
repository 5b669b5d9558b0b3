package jose

import (
	"reflect"
	"testing"
)

// ltDefaults is every Limits field with its documented default.
var ltDefaults = Limits{
	MaxTokenSize:        DefaultMaxTokenSize,
	MaxHeaderSize:       DefaultMaxHeaderSize,
	MaxHeaderMembers:    DefaultMaxHeaderMembers,
	MaxJSONDepth:        DefaultMaxJSONDepth,
	MaxSignatures:       DefaultMaxSignatures,
	MaxRecipients:       DefaultMaxRecipients,
	MaxDecompressedSize: DefaultMaxDecompressedSize,
	MaxCompressedSize:   DefaultMaxCompressedSize,
	PBES2MinCount:       DefaultPBES2MinCount,
	PBES2MaxCount:       DefaultPBES2MaxCount,
	MaxSetKeys:          DefaultMaxSetKeys,
	MaxKeyAttempts:      DefaultMaxKeyAttempts,
	MaxKeyLookups:       DefaultMaxKeyLookups,
	MaxKeySize:          DefaultMaxKeySize,
	MaxSetSize:          DefaultMaxSetSize,
}

// TestLimitsWithDefaults: a zero or negative field is its default, a
// positive one is kept, field by field (so a field added without a default
// fails here).
func TestLimitsWithDefaults(t *testing.T) {
	if got := (Limits{}).WithDefaults(); got != ltDefaults {
		t.Fatalf("Limits{}.WithDefaults() = %+v, want %+v", got, ltDefaults)
	}
	dv := reflect.ValueOf(ltDefaults)
	for i := range dv.NumField() {
		name := dv.Type().Field(i).Name
		if dv.Field(i).Int() <= 0 {
			t.Errorf("%s: default %d is not positive", name, dv.Field(i).Int())
		}
		for _, v := range []int64{-1, -1 << 40, 7} {
			var l Limits
			reflect.ValueOf(&l).Elem().Field(i).SetInt(v)
			want := ltDefaults
			if v > 0 {
				reflect.ValueOf(&want).Elem().Field(i).SetInt(v)
			}
			if got := l.WithDefaults(); got != want {
				t.Errorf("%s = %d: WithDefaults() = %+v, want %+v", name, v, got, want)
			}
		}
	}
}

// TestLimitsValues pins the defaults that SECURITY.md and README document
// (and that the issues ask for): loosening one must be a visible change.
func TestLimitsValues(t *testing.T) {
	want := Limits{
		MaxTokenSize:        1 << 20,
		MaxHeaderSize:       8 << 10,
		MaxHeaderMembers:    64,
		MaxJSONDepth:        16,
		MaxSignatures:       16,
		MaxRecipients:       16,
		MaxDecompressedSize: 1 << 20,
		MaxCompressedSize:   16 << 10,
		PBES2MinCount:       1000,
		PBES2MaxCount:       10000,
		MaxSetKeys:          1000,
		MaxKeyAttempts:      4,
		MaxKeyLookups:       4,
		MaxKeySize:          128 << 10,
		MaxSetSize:          1 << 20,
	}
	if ltDefaults != want {
		t.Errorf("defaults %+v, documented %+v", ltDefaults, want)
	}
	if MaxRSAModulusBits != 16384 || MaxCertificates != 32 || MinRSABits != 2048 {
		t.Errorf("MaxRSAModulusBits %d, MaxCertificates %d, MinRSABits %d; documented 16384, 32, 2048", MaxRSAModulusBits, MaxCertificates, MinRSABits)
	}
}

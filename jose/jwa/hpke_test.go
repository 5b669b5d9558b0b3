package jwa

import (
	"testing"
)

// TestHPKEMaxEncapsulatedSize: the bound jose puts on "ek" is the size of
// the largest encapsulated secret among the algorithms implemented, and
// every one of them has its size in hpkeEncSize.
func TestHPKEMaxEncapsulatedSize(t *testing.T) {
	largest := 0
	for _, a := range append(HPKEKeyAlgorithms(), HPKEIntegratedAlgorithms()...) {
		n := hpkeEncSize(hpkeCurve(a))
		if n == 0 {
			t.Errorf("%s: no encapsulated secret size", a)
		}
		largest = max(largest, n)
	}
	if largest != HPKEMaxEncapsulatedSize {
		t.Errorf("HPKEMaxEncapsulatedSize = %d, the largest encapsulated secret is %d bytes", HPKEMaxEncapsulatedSize, largest)
	}
}

// TestHPKEInfo: the Recipient_structure of every content encryption is
// "JOSE-HPKE rcpt" 0xFF enc 0xFF, the precomputed ones included, and is
// had without allocating for the registered ones.
func TestHPKEInfo(t *testing.T) {
	for _, enc := range append(ContentEncryptions(), "X-other") {
		want := "JOSE-HPKE rcpt\xff" + string(enc) + "\xff"
		if got := string(hpkeInfo(enc)); got != want {
			t.Errorf("hpkeInfo(%s) = %q, want %q", enc, got, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { _ = hpkeInfo(A128GCM) }); n != 0 {
		t.Errorf("hpkeInfo(A128GCM): %v allocations", n)
	}
}

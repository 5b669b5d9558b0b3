package subjects

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/josebench/josebench/bench"
)

// Both Bearer variants prepare and run; the pre-timing checks of the
// middleware fail, naming the check, when an answer differs.
func TestBearerVariants(t *testing.T) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"Bearer"})
	if err != nil || len(vs) != 2 {
		t.Fatal(len(vs), err)
	}
	for i := range vs {
		op, err := Prepare(&vs[i])
		if err != nil {
			t.Fatalf("%s: %v", vs[i].ID(), err)
		}
		for range 3 {
			if err := op(); err != nil {
				t.Fatalf("%s: %v", vs[i].ID(), err)
			}
		}
	}
	v := vs[0]
	v.Params = []bench.Param{{Name: "alg", Value: "HS256"}, {Name: "via", Value: "nothing"}}
	if _, err := Prepare(&v); err == nil {
		t.Error("a Bearer variant via nothing prepared")
	}
	v.Subject = bench.SubjectRoundTrip
	if _, err := Prepare(&v); err == nil {
		t.Error("a Bearer variant of another subject prepared")
	}

	p, err := jwtFuncs(&vs[0])
	if err != nil {
		t.Fatal(err)
	}
	// A middleware that accepts everything fails the first check.
	accept := func(tok []byte) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		rec.WriteHeader(http.StatusOK)
		return rec
	}
	var ce *CheckError
	if err := p.checkBearer(accept); !errors.As(err, &ce) || ce.Check != CheckBearerNoToken {
		t.Errorf("accepting middleware: %v", err)
	}
}

// TestBearerParallel: the op of each Bearer variant runs on several
// goroutines at once (Runner.Parallel) without sharing its state: under
// -race, the via=middleware op shared one ResponseRecorder, request and
// claims pointer. Each call still checks that the handler got claims.
func TestBearerParallel(t *testing.T) {
	vs, err := bench.Select(bench.DefaultConfig().Measure, []string{"Bearer"})
	if err != nil || len(vs) != 2 {
		t.Fatal(len(vs), err)
	}
	for i := range vs {
		runParallel(t, &vs[i], 8, 50)
	}
}

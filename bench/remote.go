package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// WorkerProtocol names the machine format in which one josebench drives
// another for an A/B comparison (josebench run --against PATH). The
// driver starts "PATH worker" and talks to it over its standard input and
// output in JSON, one object per line; the worker's standard error is
// passed through. The exchange is:
//
//  1. The driver sends a hello:
//     {"protocol":"josebench-worker/1","runner":{...},"measure":{...},"variants":["HS256Bench/benchSignature/alg=HS256",...]}
//     where runner and measure are the [RunnerConfig] and [MeasureConfig]
//     of bench.yaml (measure.groups as selected), and variants are the
//     identities ([Variant.ID]) to measure.
//  2. The worker selects those variants from measure, prepares and checks
//     each (as a run does), and answers {"env":{...}} with its
//     [Environment], or {"error":"..."} and exits.
//  3. Then, for as long as the driver wants, it sends
//     {"variant":I,"revs":R,"iterations":N} (I indexes the hello's
//     variants) and the worker answers {"iterations":[...]} with N
//     [Iteration] objects of R revolutions each (after runner.warmup
//     untimed revolutions, as a run), or {"error":"..."}.
//  4. The driver closes the worker's standard input; the worker exits 0.
//
// The worker knows nothing of rounds or statistics: the driver decides
// the order and pairs the results, so the two builds only need to agree on
// this format and on the variant identities.
//
// A worker that does not answer in time is killed (see [Remote]).
const WorkerProtocol = "josebench-worker/1"

type workerHello struct {
	Protocol string        `json:"protocol"`
	Runner   RunnerConfig  `json:"runner"`
	Measure  MeasureConfig `json:"measure"`
	Variants []string      `json:"variants"`
}

type workerRequest struct {
	Variant    int `json:"variant"`
	Revs       int `json:"revs"`
	Iterations int `json:"iterations"`
}

type workerReply struct {
	Error      string       `json:"error,omitempty"`
	Env        *Environment `json:"env,omitempty"`
	Iterations []Iteration  `json:"iterations,omitempty"`
}

// maxWorkerIterations bounds the iterations of one request.
const maxWorkerIterations = 1000

// Serve is the worker side of [WorkerProtocol]: it reads the requests from
// in, measures the variants made by prepare, and writes the replies to
// out. It returns nil when in ends after the hello.
func Serve(in io.Reader, out io.Writer, prepare Preparer) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dec := json.NewDecoder(bufio.NewReader(in))
	enc := json.NewEncoder(out)
	fail := func(err error) error {
		enc.Encode(workerReply{Error: err.Error()})
		return err
	}
	var hello workerHello
	if err := dec.Decode(&hello); err != nil {
		return fail(fmt.Errorf("bench: worker: reading the hello: %w", err))
	}
	if hello.Protocol != WorkerProtocol {
		return fail(fmt.Errorf("bench: worker: protocol %q, want %q", hello.Protocol, WorkerProtocol))
	}
	vs, err := Select(hello.Measure, hello.Measure.Groups)
	if err != nil {
		return fail(fmt.Errorf("bench: worker: %w", err))
	}
	byID := make(map[string]*Variant, len(vs))
	for i := range vs {
		byID[vs[i].ID()] = &vs[i]
	}
	ops := make([]Op, len(hello.Variants))
	for i, id := range hello.Variants {
		v, ok := byID[id]
		if !ok {
			return fail(fmt.Errorf("bench: worker: this build has no variant %s", id))
		}
		if ops[i], err = prepare(v); err != nil {
			return fail(fmt.Errorf("bench: worker: %s: %w", id, err))
		}
	}
	env := CurrentEnvironment()
	if err := enc.Encode(workerReply{Env: &env}); err != nil {
		return fmt.Errorf("bench: worker: %w", err)
	}
	r := &Runner{Config: hello.Runner}
	for {
		var req workerRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fail(fmt.Errorf("bench: worker: reading a request: %w", err))
		}
		if req.Variant < 0 || req.Variant >= len(ops) || req.Revs < 1 || req.Revs > maxRevs || req.Iterations < 1 || req.Iterations > maxWorkerIterations {
			return fail(fmt.Errorf("bench: worker: bad request %+v", req))
		}
		its := make([]Iteration, req.Iterations)
		for k := range its {
			if its[k], err = r.iteration(ops[req.Variant], req.Revs); err != nil {
				return fail(fmt.Errorf("bench: worker: %s: %w", hello.Variants[req.Variant], err))
			}
		}
		if err := enc.Encode(workerReply{Iterations: its}); err != nil {
			return fmt.Errorf("bench: worker: %w", err)
		}
	}
}

// Remote is the driver side of [WorkerProtocol]: another josebench binary
// measuring the same variants. It is a [Measurer].
//
// Every exchange has a deadline, after which the worker is killed and the
// exchange fails with an error naming it, so that a worker that hangs
// cannot make the driver wait forever. The deadlines are generous: 20
// times the work asked for, with a floor of 10 s. The work of a request is
// its iterations times its revolutions (warmup included) times the longest
// time per revolution of the variant: the one this worker reported so far
// or, with revs: auto, runner.time over the revolutions asked, whichever
// is longer. The hello, which has the worker prepare and check every
// variant, has the floor plus 2 s per variant.
type Remote struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out io.ReadCloser
	enc *json.Encoder
	dec *json.Decoder
	env Environment
	n   int
	cfg RunnerConfig

	perRev []float64 // the longest ns per revolution reported, per variant

	stderr io.Writer    // where the worker's standard error goes
	errBuf bytes.Buffer // the worker's standard error, when stderr is not a file

	killOnce sync.Once
	timedOut atomic.Int64 // the deadline (ns) that killed the worker, 0 if none

	waited  bool  // cmd.Wait was called
	waitErr error // and returned this
}

// workerDeadlineFloor is the shortest deadline of an exchange with a
// worker (lowered in tests); the other delays are fractions of it.
var workerDeadlineFloor = 10 * time.Second

// workerDeadlineSlack is the factor by which a deadline exceeds the work
// asked for, and workerDeadlineMax the longest deadline.
const (
	workerDeadlineSlack = 20
	workerDeadlineMax   = 24 * time.Hour
)

// workerHelloPerVariant is the time a worker is given to prepare and
// check each variant of the hello (2 s).
func workerHelloPerVariant() time.Duration { return workerDeadlineFloor / 5 }

// workerExitDelay is how long a worker may take to exit once its input is
// closed, and how long its output may stay open after it exited (held by
// a child), before it is killed or they are closed (2 s).
func workerExitDelay() time.Duration { return workerDeadlineFloor / 5 }

// StartRemote starts "path worker" and has it prepare variants with the
// configuration cfg (cfg.Measure.Groups as selected). The worker's
// standard error goes to stderr; ctx ending kills it.
func StartRemote(ctx context.Context, path string, cfg Config, variants []Variant, stderr io.Writer) (*Remote, error) {
	cmd := exec.CommandContext(ctx, path, "worker")
	r := &Remote{cmd: cmd, n: len(variants), cfg: cfg.Runner, perRev: make([]float64, len(variants)), stderr: stderr}
	// An interrupt kills the worker and closes its pipes, so that a read
	// from a worker that hangs (or from a child holding its output) ends.
	cmd.Cancel = func() error { r.kill(); return nil }
	cmd.WaitDelay = workerExitDelay()
	if f, ok := stderr.(*os.File); ok {
		cmd.Stderr = f
	} else {
		// Not a file: exec would copy into it from another goroutine,
		// racing with the caller's own writes. Collect it, and pass it
		// on when the worker has ended.
		cmd.Stderr = &r.errBuf
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	r.in, r.out = in, outp // before Start: cmd.Cancel may close them from then on
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: starting worker %s: %w", path, err)
	}
	r.enc, r.dec = json.NewEncoder(in), json.NewDecoder(bufio.NewReader(outp))
	hello := workerHello{Protocol: WorkerProtocol, Runner: cfg.Runner, Measure: cfg.Measure}
	for i := range variants {
		hello.Variants = append(hello.Variants, variants[i].ID())
	}
	var reply workerReply
	deadline := min(workerDeadlineFloor+time.Duration(len(variants))*workerHelloPerVariant(), workerDeadlineMax)
	if err := r.exchange(hello, &reply, deadline); err != nil {
		r.Close()
		if errors.Is(err, errWorkerEnded) {
			err = fmt.Errorf("bench: worker %s does not speak %s: %w", path, WorkerProtocol, err)
		}
		return nil, err
	}
	if reply.Env == nil {
		r.Close()
		return nil, fmt.Errorf("bench: worker %s sent no environment", path)
	}
	r.env = *reply.Env
	return r, nil
}

// errWorkerEnded is the cause of an exchange with a worker that has
// ended.
var errWorkerEnded = errors.New("it ended")

// exchange sends req and reads the reply, killing the worker if the
// reply has not come within deadline.
func (r *Remote) exchange(req any, reply *workerReply, deadline time.Duration) error {
	t := time.AfterFunc(deadline, func() {
		r.timedOut.CompareAndSwap(0, int64(deadline))
		r.kill()
	})
	defer t.Stop()
	if err := r.enc.Encode(req); err != nil {
		return r.failed(err)
	}
	if err := r.dec.Decode(reply); err != nil {
		return r.failed(err)
	}
	if reply.Error != "" {
		return fmt.Errorf("bench: worker %s: %s", r.cmd.Path, reply.Error)
	}
	return nil
}

// failed describes a failed exchange: a worker that ended (its output or
// input closed) with its exit status, anything else as not speaking the
// protocol.
func (r *Remote) failed(err error) error {
	if d := r.timedOut.Load(); d != 0 {
		r.wait()
		return fmt.Errorf("bench: worker %s did not answer within %v: killed", r.cmd.Path, time.Duration(d).Round(time.Millisecond))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		werr := r.wait()
		if werr == nil {
			werr = errors.New("exit status 0")
		}
		return fmt.Errorf("bench: worker %s: %w (%v)", r.cmd.Path, errWorkerEnded, werr)
	}
	return fmt.Errorf("bench: worker %s does not speak %s: %w", r.cmd.Path, WorkerProtocol, err)
}

// kill kills the worker and closes its pipes, which ends a read or write
// blocked on them. It may be called from any goroutine, more than once.
func (r *Remote) kill() {
	r.killOnce.Do(func() {
		if r.cmd.Process != nil {
			r.cmd.Process.Kill()
		}
		if r.in != nil {
			r.in.Close()
		}
		if r.out != nil {
			r.out.Close()
		}
	})
}

// wait waits for the worker once, killing it if it has not exited
// workerExitDelay after its input was closed, and passes on its standard
// error.
func (r *Remote) wait() error {
	if !r.waited {
		r.waited = true
		r.in.Close()
		t := time.AfterFunc(workerExitDelay(), r.kill)
		r.waitErr = r.cmd.Wait()
		t.Stop()
	}
	if r.errBuf.Len() > 0 {
		r.stderr.Write(r.errBuf.Bytes())
		r.errBuf.Reset()
	}
	return r.waitErr
}

// validIteration reports whether it can be a measurement: a positive
// finite time per revolution, a CPU time neither negative nor infinite,
// counts not negative.
func validIteration(it Iteration) bool {
	return it.Time > 0 && !math.IsInf(it.Time, 0) && it.CPU >= 0 && !math.IsInf(it.CPU, 0) && it.Bytes >= 0 && it.Allocs >= 0
}

// Env returns the environment the worker reported.
func (r *Remote) Env() Environment { return r.env }

// Measure has the worker run iterations iterations of revs
// revolutions of variant i.
func (r *Remote) Measure(i, revs, iterations int) ([]Iteration, error) {
	var reply workerReply
	if err := r.exchange(workerRequest{Variant: i, Revs: revs, Iterations: iterations}, &reply, r.deadline(i, revs, iterations)); err != nil {
		return nil, err
	}
	if len(reply.Iterations) != iterations {
		return nil, fmt.Errorf("bench: worker %s sent %d iterations, want %d", r.cmd.Path, len(reply.Iterations), iterations)
	}
	for _, it := range reply.Iterations {
		if !validIteration(it) {
			return nil, fmt.Errorf("bench: worker %s sent an iteration that cannot be a measurement: %+v", r.cmd.Path, it)
		}
		r.perRev[i] = max(r.perRev[i], it.Time)
	}
	return reply.Iterations, nil
}

// deadline returns the deadline of a request for iterations iterations of
// revs revolutions of variant i (see [Remote]).
func (r *Remote) deadline(i, revs, iterations int) time.Duration {
	per := r.perRev[i]
	if r.cfg.Revs == Auto {
		per = max(per, float64(r.cfg.Time)/float64(revs))
	}
	work := float64(iterations) * float64(revs+max(r.cfg.Warmup, 0)) * per
	return time.Duration(min(max(workerDeadlineSlack*work, float64(workerDeadlineFloor)), float64(workerDeadlineMax)))
}

// Close ends the worker, waits for it, and passes on what it wrote to its
// standard error.
func (r *Remote) Close() error { return r.wait() }

package main

import (
	"flag"
	"io"
	"os"
	"os/signal"

	"github.com/josebench/josebench/bench"
	"github.com/josebench/josebench/bench/subjects"
)

// stdin is the worker's request stream, replaced in tests.
var stdin io.Reader = os.Stdin

var workerCommand = &command{
	name:    "worker",
	summary: "measure for another josebench (run --against); a machine format on stdin and stdout",
	usage: `Usage: josebench worker

Measures variants on request of another josebench, which runs this binary
as "josebench worker" for "josebench run --against PATH". Requests come on
standard input and results go to standard output, as JSON lines in the
format josebench-worker/1: a hello with the configuration and the variant
identities, answered with this build's environment once every variant is
prepared and checked; then requests {"variant":I,"revs":R,"iterations":N},
each answered with N iterations {"round","time","cpu","bytes","allocs"}
(ns and counts per revolution); any failure is {"error":"..."} and exit 1.
Not meant to be run by hand.
`,
	flags: func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error {
		return func(stdout, stderr io.Writer) error {
			// Ctrl-C reaches the whole process group: the driver decides
			// what an interrupt ends (it keeps the rounds completed and
			// stops this worker), so that the worker does not die first
			// and look like a failure.
			signal.Ignore(os.Interrupt)
			return bench.Serve(stdin, stdout, subjects.Prepare)
		}
	},
}

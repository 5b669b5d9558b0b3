// Command josebench runs the JOSE benchmark suite and reports on stored
// runs: the Go counterpart of the PHP web-token/jwt-framework suite run with
// phpbench.
//
// Usage:
//
//	josebench run [--config bench.yaml] [--group G]... [--store] [--tag NAME] [--ref ID|TAG] [--against PATH] [--fail-slower PCT] [--parallel N]
//	josebench report [--uuid ID|latest|TAG] [--report NAME] [--output FORMAT] [--file PATH] [--ref ID|TAG]
//	josebench log [--storage DIR]
//	josebench list [--group G]...
//	josebench worker
//	josebench help [command]
//
// Results go to standard output; progress and messages, prefixed
// "josebench:", go to standard error. The exit status is 2 for a usage
// error (a bad command, flag, argument or value, or a configuration file
// that cannot be read or is invalid), 1 for any other failure (a variant
// failing its checks, an interrupt, --fail-slower), 0 otherwise.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Stdout, os.Stderr, os.Args[1:]))
}

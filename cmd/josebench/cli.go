package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/josebench/josebench/internal/version"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError is a mistake in the command line or the configuration file:
// exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string // the synopsis and description, without the flags
	flags   func(fs *flag.FlagSet) func(stdout, stderr io.Writer) error
}

var commands []*command

func init() {
	commands = []*command{runCommand, reportCommand, logCommand, listCommand, workerCommand, versionCommand}
}

// versionCommand is "josebench version", also run by "josebench
// --version": the line of internal/version, as "jose version" prints it.
var versionCommand = &command{
	name:    "version",
	summary: "print the version of this build",
	usage: `Usage: josebench version (or josebench --version)

Print one line: the module version, what the build knows of its VCS
revision that the version does not already say (the revision, its time,
"modified"), and the Go release that built it.
`,
	flags: func(*flag.FlagSet) func(stdout, stderr io.Writer) error {
		return func(stdout, _ io.Writer) error {
			_, err := fmt.Fprintln(stdout, version.Line("josebench"))
			return err
		}
	},
}

const mainUsage = `josebench runs the JOSE benchmark suite (the Go counterpart of the PHP
web-token/jwt-framework phpbench suite) and reports on stored runs.

Usage:

	josebench <command> [flags]

Commands:

%s
Run "josebench help <command>" or "josebench <command> -h" for its flags.
Results go to standard output, progress and messages to standard error.
Exit status: 0 success, 1 failure, 2 usage error (an unknown command, flag,
argument or value, or a configuration file that cannot be read or is
invalid).
`

func writeMainUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&b, "	%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, "	%-8s %s\n", "help", "show help for a command")
	fmt.Fprintf(w, mainUsage, b.String())
}

// run is the whole program: it returns the exit status.
func run(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		writeMainUsage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "--version", "-version":
		name = versionCommand.name
	case "help", "-h", "-help", "--help":
		if name == "help" && len(rest) > 0 {
			c := lookup(rest[0])
			if c == nil {
				fmt.Fprintf(stderr, "josebench: unknown command %q (run \"josebench help\")\n", rest[0])
				return exitUsage
			}
			fs, _ := c.flagSet(stdout)
			fs.Usage()
			return exitOK
		}
		writeMainUsage(stdout)
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "josebench: unknown command %q (run \"josebench help\")\n", name)
		return exitUsage
	}
	fs, action := c.flagSet(stderr)
	// The flag package prints the usage on -h, which goes to stdout; a
	// parse error is reported in one line instead of the whole usage.
	fs.SetOutput(io.Discard)
	var usage strings.Builder
	printUsage := fs.Usage
	fs.Usage = func() {
		out := fs.Output()
		fs.SetOutput(&usage)
		printUsage()
		fs.SetOutput(out)
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, usage.String())
			return exitOK
		}
		fmt.Fprintf(stderr, "josebench: %s: %v (run \"josebench %s -h\" for usage)\n", c.name, err, c.name)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "josebench: %s: unexpected argument %q\n", c.name, fs.Arg(0))
		return exitUsage
	}
	if err := action(stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "josebench: %s\n", message(err))
		var ue *usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFailure
	}
	return exitOK
}

// message is err's text without the package prefixes of the library.
func message(err error) string {
	s := err.Error()
	for _, p := range []string{"bench: ", "report: "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flagSet returns the command's flags, with usage written to w, and the
// action to run once they are parsed.
func (c *command) flagSet(w io.Writer) (*flag.FlagSet, func(stdout, stderr io.Writer) error) {
	fs := flag.NewFlagSet("josebench "+c.name, flag.ContinueOnError)
	fs.SetOutput(w)
	action := c.flags(fs)
	fs.Usage = func() {
		out := fs.Output()
		io.WriteString(out, c.usage)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			io.WriteString(out, "\nFlags:\n\n")
			fs.PrintDefaults()
		}
	}
	return fs, action
}

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated values of s. A value of nothing but commas
// and spaces is an error: --group "$GROUP" with GROUP unset would
// otherwise run every group.
func (l *listFlag) Set(s string) error {
	n := len(*l)
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	if len(*l) == n {
		return errors.New("empty")
	}
	return nil
}

// terminalWidth returns the columns of the terminal w is: the size the
// terminal reports, else $COLUMNS, else 80.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if n := ttyColumns(f); n > 0 {
			return n
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/josebench/josebench/internal/untrusted"
	"github.com/josebench/josebench/internal/version"
	"github.com/josebench/josebench/jose"
	"github.com/josebench/josebench/jose/jwa"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // bad input, a token that does not verify, a weakness found
	exitUsage   = 2 // a mistake in the command line
)

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef is errorf for a usage error.
func usagef(format string, args ...any) error {
	return &usageError{errorf(format, args...).Error()}
}

// streams are the standard streams of one run, and its clock.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// now is the current time, for the claims "jwt issue" writes and the
	// times "jwt validate" checks: time.Now, or a test's fixed clock.
	now func() time.Time
	// terminal reports whether v, stdin or stdout, is a terminal:
	// isTerminal, or a test's; nil says none is.
	terminal func(v any) bool
	// stdinArg is set when the command's argument (TOKEN, FILE) may be
	// given and is not: reading standard input is reading it.
	stdinArg bool
}

// action runs a command once its flags are parsed; args are the remaining
// (positional) arguments, at most the command's maxArgs of them.
type action func(s *streams, args []string) error

// command is a leaf command (flags set) or a group of subcommands (sub set),
// such as "key" or "set".
type command struct {
	name    string
	summary string
	// usage is the synopsis and description, without the flags.
	usage string
	// maxArgs is the number of positional arguments (FILE) accepted.
	maxArgs int
	// tokenArg is set when the argument is a TOKEN: a file, "-", or the
	// token itself.
	tokenArg bool
	// flags registers the command's flags on fs and returns its action.
	flags func(fs *flag.FlagSet) action
	// sub are the subcommands of a group.
	sub []*command
}

// commands is the command table, in the order "jose help" lists it. Each
// top-level command (or group, such as "key") lives in its own file and is
// added here with one line.
var commands []*command

func init() {
	commands = []*command{
		keyCommand,
		setCommand,
		signCommand,
		verifyCommand,
		encryptCommand,
		decryptCommand,
		inspectCommand,
		jwtCommand,
		dpopCommand,
		versionCommand,
	}
}

// versionCommand is "jose version", also run by "jose --version".
var versionCommand = &command{
	name:    "version",
	summary: "print the version of this build",
	usage: `Usage: jose version (or jose --version)

Print one line: the module version, what the build knows of its VCS
revision that the version does not already say (the revision, its time,
"modified"), and the Go release that built it.
`,
	flags: func(*flag.FlagSet) action {
		return func(s *streams, _ []string) error {
			_, err := fmt.Fprintln(s.stdout, version.Line("jose"))
			return err
		}
	},
}

const mainUsage = `jose makes keys and tokens from the shell: JWK and JWK Sets (RFC 7517),
JWS (RFC 7515), JWE (RFC 7516) and JWT (RFC 7519).

Usage:

	jose <command> [flags] [FILE]

Commands:

%s
Run "jose help <command>" or "jose <command> -h" for its flags, which
come before FILE.
Keys are JWK or JWK Set files (or PEM where a command says so); "-" or no
FILE means standard input; a TOKEN may also be the token itself, pasted.
Data goes to standard output, messages to standard error. Exit status: 0
success, 1 failure, 2 usage error.
`

func writeMainUsage(w io.Writer) {
	fmt.Fprintf(w, mainUsage, listCommands(commands, "help"))
}

// listCommands is the indented table of names and summaries of cs, with
// extra (such as "help") last.
func listCommands(cs []*command, extra ...string) string {
	width := 0
	for _, c := range cs {
		width = max(width, len(c.name))
	}
	for _, e := range extra {
		width = max(width, len(e))
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, c.name, c.summary)
	}
	for _, e := range extra {
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, e, "show help for a command")
	}
	return b.String()
}

// writeGroupUsage writes the usage of the group c, named path.
func writeGroupUsage(w io.Writer, path string, c *command) {
	fmt.Fprintf(w, "%s\nCommands:\n\n%s\nRun \"jose help %s <command>\" or \"jose %s <command> -h\" for its flags.\n",
		c.usage, listCommands(c.sub), path, path)
}

// run is the whole program: it returns the exit status.
func run(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	return runWith(&streams{stdin: stdin, stdout: stdout, stderr: stderr, now: time.Now, terminal: isTerminal}, args)
}

// runWith is run with the streams and clock of s.
func runWith(s *streams, args []string) int {
	stdout, stderr := s.stdout, s.stderr
	if len(args) == 0 {
		writeMainUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help":
		return help(stdout, stderr, args[1:])
	case "-h", "-help", "--help":
		return help(stdout, stderr, nil)
	case "--version", "-version":
		args = append([]string{versionCommand.name}, args[1:]...)
	}
	c, path, rest, err := resolve(args)
	if err != nil {
		fmt.Fprintf(stderr, "jose: %s\n", safeLine(err.Error()))
		return exitUsage
	}
	if c.sub != nil {
		if len(rest) > 0 && isHelpFlag(rest[0]) {
			writeGroupUsage(stdout, path, c)
			return exitOK
		}
		fmt.Fprintf(stderr, "jose: %s: missing command (run \"jose help %s\")\n", path, path)
		return exitUsage
	}
	fs, act := c.flagSet(path, stderr)
	// The flag package prints the usage on -h; it goes to stdout. A parse
	// error is reported in one line instead of the whole usage.
	fs.SetOutput(io.Discard)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.writeUsage(stdout, fs)
			return exitOK
		}
		fmt.Fprintf(stderr, "jose: %s: %s (run \"jose %s -h\" for usage)\n", path, safeLine(flagError(fs, err)), path)
		return exitUsage
	}
	if fs.NArg() > c.maxArgs {
		// The flag package stops at the first argument: a flag after it
		// is a common slip ("jose key thumbprint key.jwk --uri").
		if extra := fs.Arg(c.maxArgs); c.maxArgs > 0 && len(extra) > 1 && extra[0] == '-' {
			fmt.Fprintf(stderr, "jose: %s: %s after the argument %s: flags go before the argument, with their values\n",
				path, argName(extra), argName(fs.Arg(0)))
			return exitUsage
		}
		hint := ""
		if c.maxArgs == 0 {
			hint = " (the command takes no argument"
			switch arg := fs.Arg(0); {
			case fs.Lookup("key") != nil && isKeyFile(arg):
				hint += ": give the key file with --key"
			case fs.Lookup("claims") != nil:
				hint += ": give more claims with --claims"
			}
			hint += ")"
		}
		fmt.Fprintf(stderr, "jose: %s: unexpected argument %s%s\n", path, untrusted.Quote(fs.Arg(c.maxArgs)), hint)
		return exitUsage
	}
	if msg := emptyInput(c, fs); msg != "" {
		fmt.Fprintf(stderr, "jose: %s: %s\n", path, safeLine(msg))
		return exitUsage
	}
	s.stdinArg = c.maxArgs > 0 && fs.NArg() == 0
	if err := act(s, fs.Args()); err != nil {
		fmt.Fprintf(stderr, "jose: %s: %s\n", path, safeLine(userText(err)))
		var ue *usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFailure
	}
	return exitOK
}

// flagError is the flag package's refusal err in the user's words: the
// flag named as --name, and for a value that does not parse what the
// flag wants ("--size x: want a whole number"), instead of "invalid value
// \"x\" for flag -size: parse error".
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		if reason := msg[len(m[0]):]; reason != "parse error" && reason != "value out of range" {
			return "--" + m[2] + ": " + reason // a flag of the command's own type said it
		}
		want := "a valid value"
		if f := fs.Lookup(m[2]); f != nil {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case time.Duration:
					want = "a duration such as 30s, 5m or 1h"
				case int, int64, uint, uint64:
					want = "a whole number"
				case bool:
					want = "true or false (--" + m[2] + " alone is true)"
				}
			}
		}
		v, uerr := strconv.Unquote(`"` + m[1] + `"`) // the flag package quoted it with %q
		if uerr != nil {
			v = m[1]
		}
		return fmt.Sprintf("--%s %s: want %s", m[2], untrusted.Quote(v), want)
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimPrefix(name, "-")
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + strings.TrimPrefix(name, "-") + " needs a value"
	}
	return msg
}

// badFlagValue is the flag package's refusal of a value that does not
// parse.
var badFlagValue = regexp.MustCompile(`^invalid (?:boolean )?value "((?:[^"\\]|\\.)*)" for (?:flag )?-(\S+): `)

// isKeyFile reports whether the file name holds a JWK, a JWK Set or a PEM
// key, read up to maxKeyFile bytes.
func isKeyFile(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile))
	return err == nil && keyFileKind(data) != ""
}

// cmdError is an error the command made, in the user's words: its text is
// printed as it is, never cleaned as the library's texts are, so that the
// file names, kids and values it quotes or names are kept whole. errs are
// the errors it was made from, for errors.Is and errors.As.
type cmdError struct {
	msg  string
	errs []error
}

func (e *cmdError) Error() string   { return e.msg }
func (e *cmdError) Unwrap() []error { return e.errs }

// errorf is fmt.Errorf for the command's own errors: each error among args
// is written in the user's words (userText), and %w wraps as %v does, the
// errors kept for errors.Is and errors.As.
func errorf(format string, args ...any) error {
	var errs []error
	text := make([]any, len(args))
	for i, a := range args {
		text[i] = a
		if e, ok := a.(error); ok && e != nil {
			errs = append(errs, e)
			text[i] = userText(e)
		}
	}
	return &cmdError{msg: fmt.Sprintf(strings.ReplaceAll(format, "%w", "%v"), text...), errs: errs}
}

// userText is what the command prints of err: its text when the command
// made it (errorf, usagef), else the library's text cleaned by message and
// worded by refusal.
func userText(err error) string {
	switch err.(type) {
	case *cmdError, *usageError:
		return err.Error()
	}
	return refusal(message(err))
}

// fileFlags are the flags that name a file, "-" for standard input.
var fileFlags = []string{"key", "secret-file", "enc-key", "payload", "access-token"}

// emptyInput refuses an empty argument and an empty file flag, as an
// empty "$(cat missing)" or "$TOKEN" gives them: only "-" (or no argument)
// means standard input, so that a missing token is not silently read
// from the terminal or a pipe. It returns the message, or "".
func emptyInput(c *command, fs *flag.FlagSet) string {
	for _, a := range fs.Args() {
		if a == "" {
			if c.tokenArg {
				return "the TOKEN argument is empty: give a file, - for standard input, or the token itself"
			}
			return "the FILE argument is empty: give a file, or - for standard input"
		}
	}
	var msg string
	fs.Visit(func(f *flag.Flag) {
		switch {
		case msg != "" || f.Value.String() != "":
		case slices.Contains(fileFlags, f.Name):
			msg = fmt.Sprintf("--%s is empty: give a file, or - for standard input", f.Name)
		case f.Name == "secret-env":
			msg = "--secret-env is empty: give the name of an environment variable"
		}
	})
	return msg
}

// message is the library's error text err in the user's words: the
// library's chains name the packages and option types an error passed
// through ("jws: SignerOptions: jose: header member ..."), which mean
// nothing to a user of the command. It drops the parts (split at ": "
// outside double quotes) that are one of those package names, an API name
// of the library right after a package name, the label "key" after a
// package name when the next words begin with "key" or "the key", a sentinel's text
// said a second time, and a final "malformed input" after the words that say
// what is malformed. Nothing else is dropped: the library quotes what came
// from its input (untrusted.Quote), and a quoted part is never one of
// these names. The command's own errors (errorf) are not passed here.
func message(err error) string {
	raw := splitParts(err.Error())
	var out []string
	for i, p := range raw {
		switch {
		case pkgNames[p]:
			continue
		case apiNames[p] && i > 0 && pkgNames[raw[i-1]]:
			continue
		case p == "key" && i > 0 && pkgNames[raw[i-1]] && i+1 < len(raw) && nextSaysKey(raw[i+1:]):
			continue // "jws: key: jose: key \"ec-1\" is ...": the label the next words repeat
		case sentinels[p] && slices.Contains(out, p):
			continue
		}
		out = append(out, p)
	}
	if n := len(out); n > 1 && out[n-1] == jose.ErrMalformed.Error() {
		out = out[:n-1]
	}
	return strings.Join(out, ": ")
}

// refusal words the library's refusals of a token as the command's user
// gives them: an alg or enc outside --alg or --enc, a signature that does
// not verify.
func refusal(msg string) string {
	if m := notAllowed.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%sthe token's %s %s is not allowed by --%s", m[1], m[2], m[3], m[2])
	}
	if msg == jose.ErrVerificationFailed.Error() {
		return msg + notSignedWithKey
	}
	if m := cannotVerify.FindStringSubmatchIndex(msg); m != nil {
		alg := jwa.SignatureAlgorithm(msg[m[2]:m[3]])
		return msg[:m[0]] + fmt.Sprintf("the key cannot verify %s, which needs %s", alg, sigKeyWanted(alg))
	}
	return msg
}

// notSignedWithKey is what refusal adds to a signature that does not
// verify.
const notSignedWithKey = ": the token was not signed with this key, or was changed"

// cannotVerify is the library's refusal of a key of the wrong type for a
// signature's alg, which describes the Go key ("the key is a P-256 ECDSA
// public key; EdDSA needs an Ed25519 key"): a token of several signatures
// with one key. The command says it in the words of JWK files.
var cannotVerify = regexp.MustCompile(`the key is .+; ([A-Za-z0-9-]+) needs [^;:]+: algorithm not allowed$`)

// notAllowed is the library's refusal of a token's alg or enc outside
// the allow-list, its value quoted by untrusted.Quote: escaped quotes
// and backslashes inside, and a length after it when cut.
var notAllowed = regexp.MustCompile(`^((?:signature \d+ of \d+|none of \d+ signatures verified): )?(alg|enc) ("(?:[^"\\]|\\.)*"(?: \(\d+ bytes\))?)(?: is not allowed)?: algorithm not allowed$`)

// splitParts splits an error's text at each ": " outside double quotes,
// so that quoted input (a kid of "a: jose: b") is kept whole. A quote
// character named in single quotes, as the JSON parser names the byte it
// refuses ("invalid character '\"' after an object member"), opens no
// quoted text.
func splitParts(msg string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(msg); i++ {
		switch {
		case msg[i] == '\\' && quoted:
			i++
		case !quoted && strings.HasPrefix(msg[i:], `'"'`):
			i += 2
		case msg[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(msg[i:], ": "):
			parts = append(parts, msg[start:i])
			start = i + 2
			i++
		}
	}
	return append(parts, msg[start:])
}

// nextSaysKey reports whether the first part of rest that is not a
// package name begins with "key " or "the key ".
func nextSaysKey(rest []string) bool {
	for _, p := range rest {
		if !pkgNames[p] {
			return strings.HasPrefix(p, "key ") || strings.HasPrefix(p, "the key ")
		}
	}
	return false
}

// pkgNames are the packages whose names prefix the library's errors, and
// "jwk", the prefix of its JWK parser's.
var pkgNames = map[string]bool{
	"jose": true, "jws": true, "jwe": true, "jwt": true, "jwa": true, "jwk": true, "jwks": true,
	"jsonx": true, "dpop": true,
}

// apiNames are the library's functions and option types that label a
// part of its errors after the package name ("jws: SignerOptions: ...").
var apiNames = map[string]bool{
	"NewSigner": true, "NewVerifier": true, "NewEncrypter": true, "NewDecrypter": true,
	"NewNestedEncrypter": true, "NewValidator": true, "NewSet": true,
	"SignerOptions": true, "VerifyOptions": true, "EncrypterOptions": true, "DecryptOptions": true,
	"ValidatorOptions": true, "KeyFunc": true,
}

// sentinels are the texts of the library's sentinel errors, which a chain
// may say more than once.
var sentinels = map[string]bool{}

func init() {
	for _, e := range []error{
		jose.ErrMalformed, jose.ErrVerificationFailed, jose.ErrDecryptionFailed, jose.ErrKeyNotFound,
		jose.ErrAlgorithmNotAllowed, jose.ErrUnsupportedAlgorithm, jose.ErrInvalidKey, jose.ErrLimitExceeded,
		jose.ErrKeyDevice, jose.ErrUnsupportedCritical,
	} {
		sentinels[e.Error()] = true
	}
}

func isHelpFlag(s string) bool {
	return s == "-h" || s == "-help" || s == "--help"
}

// help implements "jose help [command [subcommand]]".
func help(stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 {
		writeMainUsage(stdout)
		return exitOK
	}
	c, path, rest, err := resolve(args)
	if err != nil {
		fmt.Fprintf(stderr, "jose: %v\n", err)
		return exitUsage
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "jose: help: unexpected argument %q\n", rest[0])
		return exitUsage
	}
	if c.sub != nil {
		writeGroupUsage(stdout, path, c)
		return exitOK
	}
	fs, _ := c.flagSet(path, io.Discard)
	c.writeUsage(stdout, fs)
	return exitOK
}

// resolve finds the command args name: a top-level command, and for a group
// its subcommand when args has one. It returns the command, its path ("key
// generate") and the arguments after its name.
func resolve(args []string) (c *command, path string, rest []string, err error) {
	c = lookup(commands, args[0])
	if c == nil {
		return nil, "", nil, errorf("unknown command %q (run \"jose help\")", args[0])
	}
	path, rest = c.name, args[1:]
	if c.sub != nil && len(rest) > 0 && !isHelpFlag(rest[0]) {
		s := lookup(c.sub, rest[0])
		if s == nil {
			return nil, "", nil, errorf("unknown command %q (run \"jose help %s\")", path+" "+rest[0], path)
		}
		c, path, rest = s, path+" "+s.name, rest[1:]
	}
	return c, path, rest, nil
}

func lookup(cs []*command, name string) *command {
	for _, c := range cs {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flagSet returns the flags of the leaf command c, named path, and the
// action to run once they are parsed.
func (c *command) flagSet(path string, w io.Writer) (*flag.FlagSet, action) {
	fs := flag.NewFlagSet("jose "+path, flag.ContinueOnError)
	fs.SetOutput(w)
	return fs, c.flags(fs)
}

func (c *command) writeUsage(w io.Writer, fs *flag.FlagSet) {
	io.WriteString(w, c.usage)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	io.WriteString(w, "\nFlags:\n\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// listFlag is a flag whose values may be repeated or comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// Command vouch is a terminal review console for AI-agent packages: it shows what a
// package contains and can do, and records explicit, byte-bound approvals.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/review"
	"vouch/trust"
	"vouch/ui/display"
)

// exitError carries an exit code out of a command; the message is already printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// app holds what every command shares: the streams, the global --home flag and the
// error sink's JSON switch. A command's own flags live in its options struct (one per
// command: validateOptions, decideOptions, ...), bound by its newXxxCommand constructor
// and read by its runXxx function, so no flag of one command can change another's.
type app struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	home           string // --home
	jsonErrors     bool   // set by commands running under --json
	lastErrKind    string // the kind of the error printError printed last
	// loadBase is what sources are loaded with before flags apply: the zero value (every
	// default) except in tests, which lower the search bounds.
	loadBase review.Options
	// clientNotes say which client release the support answers are for (--claude,
	// --codex); every report of the run carries them.
	clientNotes []model.Diagnostic

	configFile string            // --config
	noConfig   bool              // --no-config
	cfg        *loadedConfig     // the config file, once read (a.config)
	exclude    func(string) bool // --exclude or the config file's exclude, once applied
	quiet      bool              // --quiet: no progress line
	noPager    bool              // --no-pager
	// machine is set by a command printing a machine format (JSON, SARIF, annotations):
	// no progress line then, whatever stderr is.
	machine bool
	// progressDelay is how long a run goes before its progress line appears, and
	// progressEvery how often the line is redrawn; zero means the defaults.
	progressDelay, progressEvery time.Duration
	pager                        *pager // the pager text output goes through, once started
}

func main() {
	a := &app{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}
	os.Exit(a.run(os.Args[1:]))
}

// run executes the command line and returns the exit code. It is the one place a
// failure is printed: commands return a *cliError (a.fail) or an exitError (data already
// printed, only the code is left), and Cobra's own argument errors become usage errors
// followed by that subcommand's usage.
func (a *app) run(args []string) int {
	out := a.checkStdout()
	code := a.runCommand(args)
	a.stopPager()
	if out != nil && out.err != nil && code != 2 && a.lastErrKind != "write" {
		a.printError(&cliError{code: 1, kind: "write", msg: "cannot write to " + out.name + ": " + out.err.Error()})
		if code == 0 {
			code = 1
		}
	}
	return code
}

// runCommand is run without the check of standard output.
func (a *app) runCommand(args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var ce *cliError
	if errors.As(err, &ce) {
		a.printError(ce)
		return ce.code
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Cobra's own usage errors (unknown flag, bad arg count).
	a.printError(&cliError{code: 2, kind: "usage", msg: err.Error() + " (see vouch " + strings.TrimPrefix(cmd.CommandPath()+" ", "vouch ") + "--help)"})
	if !a.jsonErrors && cmd != nil {
		fmt.Fprint(a.stderr, "\n"+cmd.UsageString())
	}
	return 2
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "vouch",
		Short: "Review AI-agent packages before they run, and approve them piece by piece",
		Long: wrapText("vouch is a review console for AI-agent packages: "+review.FormatNames()+". It shows what a package contains and can do: skills, standing instructions, local tools, hooks and MCP servers.", helpWidth) + `
Each piece gets three separate answers:
  valid       does it follow its format?
  supported   can a named client run it as declared?
  authorized  has a person approved exactly these bytes and this contract?
Validating or selecting a package never authorizes anything; only "vouch approve" (or the
console) records an approval, bound to the digest of the component's contract.

Nothing in vouch ever runs package code. Exit status: 0 success, 1 invalid, changed, refused
or nothing found, 2 usage error or missing path; "vouch help exit-codes" has the details.

A project can keep its SOURCEs, excludes, team ledger and output format in
.vouch/config.toml ("vouch help config"); flags win over it. On a terminal, text reports go
through $VOUCH_PAGER, $PAGER or less -FRX (--no-pager to print directly), and a long run
shows a progress line on stderr (--quiet for none).`,
		Example: `  vouch review examples                       # the console
  vouch status --require-approved plugins/     # the CI gate
  vouch approve ./my-plugin 'my-plugin#hook:format'
  vouch status --exclude node_modules --no-pager .   # no pager, node_modules left out`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Version = currentVersion().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.PersistentFlags().StringVar(&a.home, "home", "", "vouch home directory (default $VOUCH_HOME, else $XDG_DATA_HOME/vouch, else ~/.local/share/vouch)")
	root.PersistentFlags().StringVar(&a.configFile, "config", "", "read this config file instead of "+configPath+" from the working directory up to the repository's top")
	root.PersistentFlags().BoolVar(&a.noConfig, "no-config", false, "read no config file")
	root.PersistentFlags().BoolVarP(&a.quiet, "quiet", "q", false, "no progress line on stderr during a long run")
	root.PersistentFlags().BoolVar(&a.noPager, "no-pager", false, "print text output directly, not through $VOUCH_PAGER, $PAGER or less")
	root.AddCommand(newValidateCommand(a), newStatusCommand(a), newVersionCommand(a),
		newDecideCommand(a, trust.ActionApprove), newDecideCommand(a, trust.ActionRevoke),
		newDiffCommand(a), newCheckCommand(a), newStageCommand(a), newLedgerCommand(a),
		newReviewCommand(a), newInstructionsCommand(a), newEnforceCommand(a), newHookCommand(a))
	// The pager's wrapper first, so the config's wrapper runs before it: a format set in
	// the config file decides whether text is paged.
	a.usePager(root)
	a.useConfig(root)
	a.addCompletion(root)
	root.AddCommand(exitCodesTopic(), configTopic())
	return root
}

// fail returns a command's failure, for run to print: code is the exit status, errCode
// the stable kind JSON errors carry, msg one sentence a person can act on.
func (a *app) fail(code int, errCode, msg string) error {
	return &cliError{code: code, kind: errCode, msg: msg}
}

// cliError is a command's failure: an exit code, a stable kind (usage, path-not-found,
// refused, ledger, …: the "code" of a JSON error) and one sentence. run prints it.
type cliError struct {
	code int
	kind string
	msg  string
}

func (e *cliError) Error() string { return e.msg }

// printError is the error sink: one sentence on stderr, JSON under --json. Messages often
// carry package text (refs, file names inside wrapped errors), so it escapes them;
// escaping is idempotent, so already-escaped parts stay as they are.
func (a *app) printError(e *cliError) {
	a.lastErrKind = e.kind
	if a.jsonErrors {
		writeJSON(a.stderr, map[string]any{"error": map[string]string{"code": e.kind, "message": e.msg}})
		return
	}
	fmt.Fprintln(a.stderr, "vouch: "+display.String(e.msg))
}

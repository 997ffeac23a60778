// Command vouch is a terminal review console for AI-agent packages: it shows what a
// package contains and can do, and records explicit, byte-bound approvals.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"vouch/ui/display"
)

// exitError carries an exit code out of a command; the message is already printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// app holds what every command shares: streams and global flags.
type app struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	home           string // --home
	jsonErrors     bool   // set by commands running under --json
	sourceID       string // --source-id of approve, revoke, diff and check (Dalo references)
}

func main() {
	a := &app{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}
	os.Exit(a.run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func (a *app) run(args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Cobra's own usage errors (unknown flag, bad arg count).
	a.fail(2, "usage", err.Error()+" (see vouch --help)")
	return 2
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "vouch",
		Short: "Review AI-agent packages before they run, and approve them piece by piece",
		Long: `vouch is a review console for AI-agent packages (Agent Plugins 1.0.0, Portable Agent
Packages 0.1 "Dalo", Splice v1). It shows what a package contains and can do: skills, standing
instructions, local tools, hooks and MCP servers. Each piece gets three separate answers:
  valid       does it follow its format?
  supported   can a named client run it as declared?
  authorized  has a person approved exactly these bytes and this contract?
Validating or selecting a package never authorizes anything; only "vouch approve" (or the
console) records an approval, bound to the digest of the component's contract.

Nothing in vouch ever runs package code.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Version = currentVersion().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.PersistentFlags().StringVar(&a.home, "home", "", "vouch home directory (default $VOUCH_HOME, else $XDG_DATA_HOME/vouch, else ~/.local/share/vouch)")
	root.AddCommand(a.validateCommand(), a.statusCommand(), a.versionCommand())
	a.addTrustCommands(root)
	a.addReviewCommand(root)
	a.addInstructionsCommands(root)
	a.addCompletion(root)
	return root
}

// fail prints one sentence to stderr (JSON under --json) and returns the exit error.
// Messages often carry package text (refs, file names inside wrapped errors), so the
// sink escapes them; escaping is idempotent, so already-escaped parts stay as they are.
func (a *app) fail(code int, errCode, msg string) error {
	if a.jsonErrors {
		writeJSON(a.stderr, map[string]any{"error": map[string]string{"code": errCode, "message": msg}})
	} else {
		fmt.Fprintln(a.stderr, "vouch: "+display.String(msg))
	}
	return exitError{code}
}

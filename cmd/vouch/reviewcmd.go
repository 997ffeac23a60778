package main

import (
	"os"

	"vouch/trust"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// reviewOptions are review's flags and arguments.
type reviewOptions struct {
	app     *app
	sources []string // SOURCE... (default: the current directory)
	claude  bool     // --claude
}

func newReviewCommand(a *app) *cobra.Command {
	opts := &reviewOptions{app: a}
	cmd := &cobra.Command{
		Use:   "review [SOURCE...]",
		Short: "Open the review console: read every component, then approve or revoke it",
		Long: `Review opens an interactive console on each SOURCE (default: the current directory).

Left, the source tree: every package and its components, each with its three answers
(valid, supported, authorized) as a glyph and a word. Right, tabs for the selection:
  1 Overview      manifest fields, identity, version, where it is, the digest
  2 Capabilities  what it can do, in plain words; hooks first, with their effects
  3 Content       a skill's or instruction's text, rendered (r: raw), and what a
                  markdown view would hide from you (comments, tags, invisible characters)
  4 Changes       for a changed component: contract and file differences since approval
  5 Diagnostics   findings with their spec references

Keys:
  j/k, ↑/↓       move            tab, shift+tab, 1-5   switch tabs
  n / N          next / previous component that needs review
  /              filter by name, kind or status (esc clears)
  pgdn/pgup      scroll the right pane (the mouse wheel scrolls the pane under it)
  a / x          approve / revoke: a confirmation lists exactly what is granted or
                 withdrawn; only y confirms (n or esc cancels, enter does nothing)
  i              activate an instruction: choose codex, claude or a file, read the diff, y writes
  x              on an instruction active in a file: choose the file, read the diff of the
                 removal, y removes the block and records the revocation
  o              a block edited by hand since vouch wrote it shows three versions (last
                 written, now in the file, new); o, then y, overwrites those edits
  R              read the sources from disk again (a file edited since loading shows as changed)
  ?              all keys         q              quit

Package text is shown with every control character, escape sequence and invisible
character made visible; nothing in a package runs. NO_COLOR (any value) turns colour off.
Without a terminal on stdout, review prints the status report instead and exits as status
does: 1 when a SOURCE holds no package or was not searched completely.`,
		Example: `  vouch review examples
  vouch review ./my-plugin ./other-package
  vouch review --home /tmp/vouch-home examples`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.sources = args
			return runReview(opts)
		},
	}
	addClaudeFlag(cmd, &opts.claude)
	return cmd
}

func runReview(opts *reviewOptions) error {
	a := opts.app
	args := opts.sources
	if len(args) == 0 && !opts.claude {
		args = []string{"."}
	}
	args, err := a.sourcesWithInstalled(args, opts.claude)
	if err != nil {
		return err
	}
	for _, p := range args {
		if _, err := os.Lstat(p); err != nil {
			return a.fail(2, "path-not-found", p+" does not exist; give "+sourceForms()+".")
		}
	}
	if !a.stdoutIsTerminal() {
		// The status report with status's defaults: what the console would have shown.
		rep, _, err := statusData(&statusOptions{app: a, reportFlags: reportFlags{sourceID: "validation", format: "text", claude: opts.claude}}, args)
		if err != nil {
			return err
		}
		if sourceIncomplete(rep) { // nothing found, as status says it
			return exitError{1}
		}
		return nil
	}
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return a.fail(2, "home", err.Error())
	}
	return a.runConsole(args, home)
}

// stdoutIsTerminal reports whether the console can draw: stdout must be a terminal.
func (a *app) stdoutIsTerminal() bool {
	f, ok := a.stdout.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

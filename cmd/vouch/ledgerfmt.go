package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"vouch/trust"
	"vouch/ui/display"
)

// ledgerFmtOptions are ledger fmt's flags and arguments.
type ledgerFmtOptions struct {
	app      *app
	files    []string // FILE...
	check    bool     // --check
	personal bool     // --personal
}

func newLedgerFmtCommand(a *app) *cobra.Command {
	opts := &ledgerFmtOptions{app: a}
	cmd := &cobra.Command{
		Use:   "fmt [--check] [--personal] [FILE...]",
		Short: "Rewrite ledgers in vouch's canonical layout, so merges of team ledgers stay reviewable",
		Long: `Rewrites each ledger in the layout vouch writes: its header, then one [[decision]] table per
decision in a fixed key order, decisions in order of their recorded time. The decisions
themselves never change. File order is kept when time order would decide differently (in a
personal ledger the last decision for a digest wins; a skewed clock can put a revoke "before"
the approval it follows). A ledger that only vouch wrote is already formatted, so formatting
matters after a hand edit or a merge: two branches that each appended decisions format to the
same bytes whichever way they were merged.

Without FILE it formats the team ledger (.vouch/ledger.toml) above the working directory;
--personal formats this home's own ledger. When this home trusts a team ledger with every
decision of it confirmed, the trust moves to the new bytes; other people who trust it run
"vouch ledger trust FILE" once (vouch tells them the file was rewritten). --check writes
nothing and exits 1 when a ledger is not formatted: run it in CI beside the gate.`,
		Example: `  vouch ledger fmt                      # format .vouch/ledger.toml above this folder
  vouch ledger fmt --check .vouch/ledger.toml   # in CI: exit 1 if it is not formatted`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			return runLedgerFmt(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.check, "check", false, "write nothing; exit 1 when a ledger is not formatted")
	cmd.Flags().BoolVar(&opts.personal, "personal", false, "format this vouch home's own ledger")
	return cmd
}

func runLedgerFmt(opts *ledgerFmtOptions) error {
	a := opts.app
	t, err := a.openTrust("", true)
	if err != nil {
		return err
	}
	files := opts.files
	if opts.personal {
		files = append(files, t.PersonalLedger())
	}
	if len(files) == 0 {
		wd, _ := os.Getwd()
		found := trust.FindTeamLedger(wd)
		if found == "" {
			return a.fail(2, "usage", "No team ledger (.vouch/ledger.toml) was found above the working directory; name the ledger FILE, or give --personal for this home's own.")
		}
		files = []string{found}
	}
	unformatted := 0
	for _, f := range files {
		r, err := trust.FormatLedger(f)
		if err != nil {
			return a.fail(1, "ledger", errSentence(err.Error()))
		}
		name := display.Line(f)
		switch {
		case !r.Changed:
			fmt.Fprintf(a.stdout, "%s is formatted (%d decisions).\n", name, r.Decisions)
			continue
		case opts.check:
			unformatted++
			fmt.Fprintf(a.stdout, "%s is not formatted; run \"vouch ledger fmt %s\".\n", name, name)
			continue
		}
		repinned, err := t.WriteFormattedLedger(r)
		if err != nil {
			return a.fail(1, "ledger", errSentence(err.Error()))
		}
		fmt.Fprintf(a.stdout, "Formatted %s (%d decisions", name, r.Decisions)
		if r.Reordered {
			fmt.Fprint(a.stdout, ", put in time order")
		}
		if r.KeptOrder {
			fmt.Fprint(a.stdout, ", file order kept: time order would decide differently")
		}
		fmt.Fprintln(a.stdout, ").")
		switch {
		case repinned:
			fmt.Fprintln(a.stdout, "  This home's trust of it moved to the new bytes (the same decisions).")
		case t.IsTrustedTeamLedger(f):
			fmt.Fprintf(a.stdout, "  It had decisions this home has not confirmed, so its trust was not moved: run \"vouch ledger trust %s\" to review it again.\n", name)
		}
	}
	if unformatted > 0 {
		return a.fail(1, "ledger-not-formatted", fmt.Sprintf("%d of %d ledgers are not formatted.", unformatted, len(files)))
	}
	return nil
}

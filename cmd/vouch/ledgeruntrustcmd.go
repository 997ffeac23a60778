package main

import (
	"fmt"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// ledgerUntrustOptions are ledger untrust's flags and argument.
type ledgerUntrustOptions struct {
	app  *app
	file string // FILE
	json bool   // --json
}

func newLedgerUntrustCommand(a *app) *cobra.Command {
	opts := &ledgerUntrustOptions{app: a}
	cmd := &cobra.Command{
		Use:     "untrust [--json] FILE",
		Example: `  vouch ledger untrust .vouch/ledger.toml`,
		Short:   "Stop honouring a team ledger found next to reviewed sources",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runLedgerUntrust(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the outcome as JSON")
	return cmd
}

func runLedgerUntrust(opts *ledgerUntrustOptions) error {
	a, jsonOut := opts.app, opts.json
	if jsonOut {
		a.jsonErrors = true
	}
	t, err := a.openTrust("", true)
	if err != nil {
		return err
	}
	real, was, err := t.UntrustTeamLedger(opts.file)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	if jsonOut {
		writeJSON(a.stdout, ledgerUntrustDoc{docHead: head("ledger untrust"), Path: real, WasTrusted: was})
		return nil
	}
	if !was {
		fmt.Fprintf(a.stdout, "The team ledger %s was not trusted by this vouch home; nothing changed.\n", display.Line(real))
		return nil
	}
	fmt.Fprintf(a.stdout, "Decisions in the team ledger %s no longer count for this vouch home.\n", display.Line(real))
	return nil
}

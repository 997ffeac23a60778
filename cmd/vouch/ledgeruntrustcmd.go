package main

import (
	"fmt"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

func newLedgerUntrustCommand(a *app) *cobra.Command {
	opts := &teamLedgerOptions{app: a}
	return teamLedgerCommand(&cobra.Command{
		Use:     "untrust [--json] FILE",
		Example: `  vouch ledger untrust .vouch/ledger.toml`,
		Short:   "Stop honouring a team ledger found next to reviewed sources",
	}, opts, "print the outcome as JSON", func() error { return runLedgerUntrust(opts) })
}

func runLedgerUntrust(opts *teamLedgerOptions) error {
	a, jsonOut := opts.app, opts.json
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

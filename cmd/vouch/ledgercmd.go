package main

import (
	"fmt"
	"vouch/model"
	"vouch/trust"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// ledgerOptions are ledger's flags.
type ledgerOptions struct {
	app    *app
	ledger string // --ledger
	json   bool   // --json
}

func newLedgerCommand(a *app) *cobra.Command {
	opts := &ledgerOptions{app: a}
	cmd := &cobra.Command{
		Use: "ledger [--json] [--ledger FILE]",
		Example: `  vouch ledger
  vouch ledger --ledger .vouch/ledger.toml --json | jq '.[0]'`,
		Short: "List recorded decisions, newest first, with the ledger each came from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLedger(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the decisions as a JSON array")
	cmd.Flags().StringVar(&opts.ledger, "ledger", "", "team ledger file (default: .vouch/ledger.toml above the working directory)")
	cmd.AddCommand(newLedgerTrustCommand(a), newLedgerUntrustCommand(a), newLedgerFmtCommand(a))
	return cmd
}

func runLedger(opts *ledgerOptions) error {
	a, jsonOut, ledger := opts.app, opts.json, opts.ledger
	if jsonOut {
		a.jsonErrors = true
	}
	t, err := a.openTrust(ledger, true)
	if err != nil {
		return err
	}
	ds, err := t.Decisions()
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	if jsonOut {
		writeJSON(a.stdout, jsonList(ds))
		return nil
	}
	if len(ds) == 0 {
		fmt.Fprintf(a.stdout, "No decisions recorded yet (personal ledger: %s).\n", t.PersonalLedger())
		return nil
	}
	for _, d := range ds {
		digest := d.Digest
		if len(digest) > 19 {
			digest = digest[:19] + "…"
		}
		fmt.Fprintf(a.stdout, "%s  %-7s  %s  %s  %s (%s)  %s ledger", d.At.UTC().Format("2006-01-02T15:04:05Z"), d.Action,
			display.Line(model.QualifyRef(model.Format(d.Format), d.Component)), digestOrNone(display.Line(digest)), display.Line(d.Reviewer), display.Line(d.ReviewerKind), ledgerLabel(d.Ledger))
		if d.Target != "" {
			fmt.Fprintf(a.stdout, "  target %s", display.Line(d.Target))
		}
		if d.Action == trust.ActionRevoke && d.Target == "" {
			if d.Scope == trust.ScopeDigest {
				fmt.Fprint(a.stdout, "  this digest only")
			} else {
				fmt.Fprint(a.stdout, "  every digest")
			}
		}
		if d.Note != "" {
			fmt.Fprintf(a.stdout, "  note: %s", display.Line(d.Note))
		}
		fmt.Fprintln(a.stdout)
	}
	return nil
}

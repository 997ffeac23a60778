package main

import (
	"fmt"
	"vouch/model"
	"vouch/trust"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// teamLedgerOptions are what ledger trust and ledger untrust both take: the team ledger
// FILE and --json.
type teamLedgerOptions struct {
	app  *app
	file string // FILE
	json bool   // --json
}

// teamLedgerCommand completes ledger trust or untrust (cmd holds its texts) with FILE and
// --json (described by jsonHelp). With --json, every failure of run is printed as JSON too.
func teamLedgerCommand(cmd *cobra.Command, opts *teamLedgerOptions, jsonHelp string, run func() error) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts.file = args[0]
		if opts.json {
			opts.app.jsonErrors = true
		}
		return run()
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, jsonHelp)
	return cmd
}

// ledgerTrustOptions are ledger trust's flags and argument.
type ledgerTrustOptions struct {
	teamLedgerOptions
	yes bool // --yes
}

func newLedgerTrustCommand(a *app) *cobra.Command {
	opts := &ledgerTrustOptions{teamLedgerOptions: teamLedgerOptions{app: a}}
	cmd := teamLedgerCommand(&cobra.Command{
		Use:     "trust [--yes] [--json] FILE",
		Example: `  vouch ledger trust .vouch/ledger.toml`,
		Short:   "Show what a team ledger approves and, once confirmed, honour exactly that",
		Long: `A team ledger (.vouch/ledger.toml in a repository) arrives with the code it approves, so a
hostile repository could ship one approving its own tools. vouch therefore ignores a discovered
team ledger until you have seen what it approves and confirmed it with this command: it shows
the approvals per package, the reviewers and the newest decisions, asks for "y" (--yes without
a terminal), and pins the trust to the bytes shown (their length and SHA-256). Decisions added
to the file later are pending: they count only after this command shows them and you confirm
again ("vouch status" says how many are waiting). A ledger named with --ledger FILE is used
because you named it. With --json (which needs --yes) the summary and whether the ledger is
now trusted are one JSON document on stdout (schemas/vouch/commands-v1.schema.json).`,
	}, &opts.teamLedgerOptions, "print the summary and the outcome as JSON (needs --yes)", func() error { return runLedgerTrust(opts) })
	cmd.Flags().BoolVar(&opts.yes, "yes", false, "do not ask; required without a terminal")
	return cmd
}

func runLedgerTrust(opts *ledgerTrustOptions) error {
	a, jsonOut, yes := opts.app, opts.json, opts.yes
	if jsonOut && !yes {
		return a.fail(2, "needs-yes", "--json prints what was trusted for a program to read, so vouch does not ask; add --yes after reading the text summary of the same command.")
	}
	t, err := a.openTrust("", true)
	if err != nil {
		return err
	}
	s, err := t.ReviewTeamLedger(opts.file)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	doc := newLedgerTrustDoc(s)
	if !jsonOut {
		a.printLedgerSummary(s)
	}
	if s.Trusted == s.Total && !s.Rewritten && t.IsTrustedTeamLedger(s.Path) {
		if jsonOut {
			doc.NothingNew, doc.Trusted = true, true
			writeJSON(a.stdout, doc)
			return nil
		}
		fmt.Fprintf(a.stdout, "Nothing new: every decision in %s already counts for this vouch home.\n", display.Line(s.Path))
		return nil
	}
	if !yes {
		if !a.stdinIsTerminal() {
			return a.fail(2, "needs-yes", "stdin is not a terminal, so vouch cannot ask; add --yes to trust the ledger as shown above.")
		}
		if !a.ask(fmt.Sprintf("Honour the %d decisions shown above for this vouch home? Type y to confirm: ", s.Total)) {
			return a.fail(1, "declined", "Nothing was trusted.")
		}
	}
	real, err := t.TrustTeamLedger(s)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	if jsonOut {
		doc.Path, doc.Trusted = real, true
		writeJSON(a.stdout, doc)
		return nil
	}
	fmt.Fprintf(a.stdout, "The %d decisions shown in the team ledger %s now count for this vouch home; decisions added later wait until you run this command again.\n", s.Total, display.Line(real))
	return nil
}

// printLedgerSummary shows what trusting a team ledger would honour. Ledger text is
// package-controlled, so every string is escaped.
func (a *app) printLedgerSummary(s *trust.LedgerSummary) {
	w := a.stdout
	fmt.Fprintf(w, "team ledger %s\n", display.Line(s.Path))
	switch {
	case s.Rewritten:
		fmt.Fprintf(w, "  it no longer starts with the content you trusted (rewritten or reordered): all %d decisions are shown again\n", s.Total)
	case s.Trusted > 0:
		fmt.Fprintf(w, "  %d decisions, %d already trusted, %d new\n", s.Total, s.Trusted, len(s.New))
	default:
		fmt.Fprintf(w, "  %d decisions, none trusted yet\n", s.Total)
	}
	fmt.Fprintf(w, "  once trusted it approves %d (component, digest) pairs\n", s.Approved)
	if len(s.Packages) > 0 {
		fmt.Fprintln(w, "  per package:")
		for _, p := range s.Packages {
			fmt.Fprintf(w, "    %s  %d component(s) approved, %d approval(s), %d revoke(s)\n", display.Line(p.Package), p.Components, p.Approvals, p.Revokes)
		}
	}
	if len(s.Reviewers) > 0 {
		fmt.Fprintln(w, "  reviewers:")
		for _, r := range s.Reviewers {
			fmt.Fprintf(w, "    %s (%s)  %d decision(s)\n", display.Line(r.Reviewer), display.Line(r.Kind), r.Decisions)
		}
	}
	const newest = 10
	if len(s.New) > 0 {
		label := "new decisions"
		if s.Trusted == 0 {
			label = "decisions"
		}
		shown := s.New
		if len(shown) > newest {
			fmt.Fprintf(w, "  newest %d of %d %s:\n", newest, len(shown), label)
			shown = shown[len(shown)-newest:]
		} else {
			fmt.Fprintf(w, "  %s:\n", label)
		}
		for i := len(shown) - 1; i >= 0; i-- {
			d := shown[i]
			fmt.Fprintf(w, "    %s  %-7s  %s  %s  by %s (%s)\n", d.At.UTC().Format("2006-01-02T15:04:05Z"), d.Action,
				display.Line(model.QualifyRef(model.Format(d.Format), d.Component)), digestOrNone(display.Line(shortDigest(d.Digest))), display.Line(d.Reviewer), display.Line(d.ReviewerKind))
		}
	}
	fmt.Fprintln(w)
}

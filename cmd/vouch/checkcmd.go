package main

import (
	"fmt"
	"vouch/model"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// checkOptions are check's flags and arguments.
type checkOptions struct {
	refOptions
	// trustLedger is --trust-ledger: count every decision of --ledger FILE, not only
	// what this home trusted of it.
	trustLedger bool
}

func newCheckCommand(a *app) *cobra.Command {
	opts := &checkOptions{refOptions: refOptions{app: a}}
	cmd := &cobra.Command{
		Use: "check [--json] [--ledger FILE] SOURCE REF",
		Example: `  vouch check examples/dalo/design-review 'design-review#hook:review-context' && node context.mjs
  vouch check --json ./plugins/lint 'lint#mcp-server:lint'`,
		Short: "Dispatch-time gate: exit 0 only when the component is approved as it is on disk now",
		Long: `Loads SOURCE, recomputes REF's digest from the bytes on disk at this moment and exits 0
only when the decision in force approves exactly that digest (for a hook, its tool must be
approved too). Otherwise exit 1 with the reason on stderr. Harnesses call this before they
dispatch a tool or hook. A team ledger, found in the source's repository or named with
--ledger FILE, counts as far as "vouch ledger trust" confirmed it (its revokes at once);
--trust-ledger counts all of FILE. With --json the verdict, with what the approval does not cover, is
one JSON document on stdout (schemas/vouch/commands-v1.schema.json); the exit status is the same.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref = args[0], args[1]
			return runCheck(opts)
		},
	}
	bindRefFlags(cmd, &opts.refOptions, "print the verdict as JSON")
	addTrustLedgerFlag(cmd, &opts.trustLedger)
	return cmd
}

func runCheck(opts *checkOptions) error {
	a, jsonOut := opts.app, opts.json
	// The gate is a short process whose heap is one package: a collection before the
	// bound is work thrown away when it exits.
	batchCollector()
	t, tg, err := opts.locate(opts.trustLedger)
	if err != nil {
		return err
	}
	st, err := t.Check(tg.pkg, tg.ref)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	name := display.Line(tg.shown)
	// What the approval cannot bind is said whatever the answer: a harness log
	// shows it next to the dispatch it gated. stdout stays the one-line verdict.
	if !jsonOut {
		printNotCovered(a.stderr, "", tg.comp.NotCovered)
		if st.Authorization != model.Approved {
			// Why a ledger's approval did not count (not trusted, pending, rewritten).
			for _, d := range t.LedgerNotices(tg.pkg) {
				fmt.Fprintf(a.stderr, "note: %s\n", display.Line(d.Message))
			}
		}
	}
	reason := ""
	if st.Authorization != model.Approved {
		reason = st.Reason
		if reason == "" {
			reason = map[model.Authorization]string{
				model.Unreviewed: "No decision was recorded for it.",
				model.Revoked:    "Its approval was revoked.",
			}[st.Authorization]
		}
	}
	if jsonOut {
		writeJSON(a.stdout, checkDoc{docHead: head("check"), Ref: tg.ref, Approved: st.Authorization == model.Approved,
			Authorization: string(st.Authorization), Digest: st.Digest, Reason: reason, Decision: st.Decision,
			Needs: jsonList(st.Needs), NotCovered: jsonList(tg.comp.NotCovered)})
	}
	if st.Authorization != model.Approved {
		return a.fail(1, string(st.Authorization), fmt.Sprintf("%s is %s: %s", name, st.Authorization, display.Line(midSentence(reason))))
	}
	if !jsonOut {
		fmt.Fprintf(a.stdout, "approved %s %s\n", name, st.Digest)
	}
	return nil
}

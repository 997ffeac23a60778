package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"vouch/model"
	"vouch/trust"
	"vouch/ui/display"

	"github.com/spf13/cobra"
)

// decideOptions are the flags and arguments of approve or revoke: one command each, one
// value each, the same fields because the two run the same code with another action.
type decideOptions struct {
	app      *app
	action   trust.Action // approve or revoke: which command this is
	source   string       // SOURCE
	refs     []string     // REF...
	note     string       // --note
	ledger   string       // --ledger: record in this team ledger
	digest   string       // --digest (revoke only): withdraw this approved digest only
	sourceID string       // --source-id
	yes      bool         // --yes
	json     bool         // --json
}

func newDecideCommand(a *app, action trust.Action) *cobra.Command {
	opts := &decideOptions{app: a, action: action}
	verb := string(action)
	cmd := &cobra.Command{
		Use: verb + " [--note TEXT] [--yes] [--json] [--ledger FILE] SOURCE REF...",
		Example: map[trust.Action]string{
			trust.ActionApprove: `  vouch approve examples/dalo/design-review 'design-review#tool:context' 'design-review#hook:review-context'
  vouch approve --ledger .vouch/ledger.toml --note "reviewed in PR 12" ./plugins/lint 'lint#mcp-server:lint'`,
			trust.ActionRevoke: `  vouch revoke examples/dalo/design-review 'design-review#tool:context'
  vouch revoke --ledger .vouch/ledger.toml --yes ./plugins/lint 'lint#mcp-server:lint'`,
		}[action],
		Short: map[trust.Action]string{trust.ActionApprove: "Approve components at their exact current bytes and contract", trust.ActionRevoke: "Withdraw approvals of components"}[action],
		Long: `Shows exactly what will be ` + map[trust.Action]string{trust.ActionApprove: "granted", trust.ActionRevoke: "withdrawn"}[action] + ` (contract, files and hashes) and asks
for "y". Without a terminal, --yes is required and the decision is recorded as made by
automation. REF is a component's ref as "vouch status" prints it: <package>#<kind>:<id>;
"*" is refused: every decision names one component. ` + map[trust.Action]string{
			trust.ActionApprove: `Approving a hook needs its tool
approved first (or in the same command).`,
			trust.ActionRevoke: `Revoking a tool lists the hooks that
lose their approved tool. Revoking an instruction whose block is in a target file is
refused, naming the "vouch instructions remove" command that shows the diff, takes the block
out and records the revocation: a ledger entry alone would leave the text in force. An approval binds the exact digest: approving another copy or
version adds an approval and keeps the others; revoke withdraws every approved digest of
the component unless --digest names one.`}[action] + ` Decisions go to the personal ledger in the vouch home, or to
FILE with --ledger. However many refs are named, the ledger is read once and appended to once.
With --json (which needs --yes) what was shown and what was recorded is printed as one JSON
document (schemas/vouch/commands-v1.schema.json), also when the command refuses.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.refs = args[0], args[1:]
			return runDecide(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the components and the recorded decisions as JSON (needs --yes)")
	if action == trust.ActionRevoke {
		cmd.Flags().StringVar(&opts.digest, "digest", "", "revoke only this approved digest (sha256:<64 hex>), not every digest of the component")
	}
	cmd.Flags().StringVar(&opts.note, "note", "", "note recorded with the decision")
	cmd.Flags().BoolVar(&opts.yes, "yes", false, "do not ask; required without a terminal (recorded as automation)")
	cmd.Flags().StringVar(&opts.ledger, "ledger", "", "record the decision in this team ledger instead of the personal ledger")
	addSourceIDFlag(cmd, &opts.sourceID)
	return cmd
}

func runDecide(opts *decideOptions) (err error) {
	a, action, source, refs := opts.app, opts.action, opts.source, opts.refs
	note, ledger, only, yes, jsonOut := opts.note, opts.ledger, opts.digest, opts.yes, opts.json
	if jsonOut {
		a.jsonErrors = true
	}
	if jsonOut && !yes {
		return a.fail(2, "needs-yes", "--json prints what was recorded for a program to read, so vouch does not ask; add --yes after reviewing the text output of the same command.")
	}
	for _, r := range refs {
		if err := a.refuseWildcard(r); err != nil {
			return err
		}
	}
	if only != "" {
		if len(refs) != 1 {
			return a.fail(2, "usage", "--digest names one digest of one component; give exactly one REF with it.")
		}
		if !trust.ValidDigest(only) {
			return a.fail(2, "usage", fmt.Sprintf("--digest %s is not a digest; give sha256:<64 hex> as \"vouch ledger\" or \"vouch status --json\" prints it.", display.Line(only)))
		}
	}
	t, err := a.openTrust(ledger, true)
	if err != nil {
		return err
	}
	res, err := a.loadSource(source, opts.sourceID)
	if err != nil {
		return err
	}
	var targets []refTarget
	// seen holds the plain refs decided here (a hook's tool approved in the same command
	// counts); once holds each component once by format too, so the same plain ref of
	// two formats (a folder's Codex and Claude Code readings) is two decisions.
	seen, once := map[string]bool{}, map[string]bool{}
	for _, r := range refs {
		tg, err := a.findRef(res, source, r)
		if err != nil {
			return err
		}
		if key := string(tg.pkg.Format) + ":" + tg.ref; !once[key] {
			once[key], seen[tg.ref] = true, true
			targets = append(targets, tg)
		}
	}
	if action == trust.ActionRevoke {
		if err := a.refuseActiveInstructions(source, targets); err != nil {
			return err
		}
	}
	// Tools before the hooks that need them, so one command can approve both.
	sort.SliceStable(targets, func(i, j int) bool {
		return len(targets[i].comp.DependsOn) == 0 && len(targets[j].comp.DependsOn) > 0
	})
	reqs := make([]trust.Request, len(targets))
	for i, tg := range targets {
		reqs[i] = trust.Request{Pkg: tg.pkg, Comp: tg.comp}
	}
	// Every package is rated once for all its refs, not once per ref.
	grants := t.ExplainAll(reqs, action)

	verb := map[trust.Action]string{trust.ActionApprove: "Approve", trust.ActionRevoke: "Revoke"}[action]
	doc := decideDoc{docHead: head(string(action)), Action: string(action), OnlyDigest: only, Components: []grantDoc{}, Decisions: []trust.Decision{}}
	var refused []string
	for i, g := range grants {
		why := decisionRefusal(action, g, seen)
		if jsonOut {
			doc.Components = append(doc.Components, grantJSON(action, g, seen, why))
		} else {
			a.printGrant(a.stdout, action, g, seen, why)
			if only != "" {
				fmt.Fprintf(a.stdout, "  only     %s (other approved digests stay approved)\n\n", only)
			}
		}
		if why != "" {
			refused = append(refused, fmt.Sprintf("%s: %s", display.Line(targets[i].shown), strings.TrimSuffix(why, ".")))
		}
		// What is recorded is what was shown: trust refuses a component whose digest is
		// no longer this one.
		reqs[i].Digest = g.Digest
	}
	if len(refused) > 0 {
		if jsonOut {
			writeJSON(a.stdout, doc)
		}
		return a.fail(1, "refused", fmt.Sprintf("Nothing was recorded; %s cannot be done for %s.", strings.ToLower(verb), strings.Join(refused, "; ")))
	}

	kind := trust.ReviewerAutomation
	if !yes {
		if !a.stdinIsTerminal() {
			return a.fail(2, "needs-yes", fmt.Sprintf("stdin is not a terminal, so vouch cannot ask; add --yes to %s without asking (recorded as automation).", strings.ToLower(verb)))
		}
		if !a.ask(fmt.Sprintf("%s %d component(s) as shown above? Type y to confirm: ", verb, len(targets))) {
			return a.fail(1, "declined", "Nothing was recorded.")
		}
		kind = trust.ReviewerHuman
	}
	o := trust.DecideOptions{Note: note, ReviewerKind: kind, Team: ledger != "", OnlyDigest: only}
	ds, err := t.Decide(action, reqs, o)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error())+" Nothing was recorded.")
	}
	// An enforced plugin follows its approvals: a revoke takes effect in the client's
	// next session with no other step.
	syncErr := a.syncEnforcedAfterDecision(t, decidedPackages(targets))
	if syncErr != nil {
		syncErr = a.fail(1, "enforce-sync", "Recorded, but the enforced copies could not be brought in line: "+errSentence(syncErr.Error())+" Run vouch enforce sync.")
	}
	if jsonOut {
		doc.Recorded = true
		doc.Decisions = append(doc.Decisions, ds...)
		writeJSON(a.stdout, doc)
		return syncErr
	}
	defer func() {
		if err == nil {
			err = syncErr
		}
	}()
	past := map[trust.Action]string{trust.ActionApprove: "approved", trust.ActionRevoke: "revoked"}[action]
	for i, d := range ds {
		what := "at " + digestOrNone(d.Digest)
		if action == trust.ActionRevoke && only == "" {
			what = "at every digest"
		}
		fmt.Fprintf(a.stdout, "%s %s %s (%s ledger, %s)\n", past, display.Line(targets[i].shown), what, ledgerLabel(d.Ledger), d.ReviewerKind)
	}
	return nil
}

// refuseActiveInstructions refuses to revoke an instruction whose block is in a target
// file (an activation in force, or a block an interrupted apply left): a ledger revoke
// alone would leave the text in force while the ledger says otherwise. vouch does not
// remove the block here because removal is a write to a person's file with its own
// preview, hand-edit check and symbolic-link confirmation, which "instructions remove"
// asks for per target; revoke decides many refs at once and writes only the ledger.
func (a *app) refuseActiveInstructions(source string, targets []refTarget) error {
	var active []string
	var st *instrState
	for _, tg := range targets {
		if tg.comp.Kind != model.KindInstruction {
			continue
		}
		if st == nil {
			s := a.homeInstrState()
			st = &s
		}
		for _, target := range st.active[tg.ref] {
			active = append(active, fmt.Sprintf("vouch instructions remove --target %s %s '%s'", target, source, display.Line(tg.shown)))
		}
	}
	if len(active) == 0 {
		return nil
	}
	return a.fail(1, "instruction-active", fmt.Sprintf("Nothing was recorded; revoking would leave the instruction's text in force, because its block is in a target file. Remove it first (that shows the diff and records the revocation): %s.", strings.Join(active, "; ")))
}

// decisionRefusal says why action cannot be taken on g's component, or "". A hook whose tool
// is approved in the same command is fine.
func decisionRefusal(action trust.Action, g trust.Grant, batch map[string]bool) string {
	if g.Blocked == "" {
		return ""
	}
	if action != trust.ActionApprove || len(g.Status.Needs) == 0 {
		return g.Blocked
	}
	for _, n := range g.Status.Needs {
		if !batch[n] {
			return g.Blocked
		}
	}
	return ""
}

// printGrant shows what a decision grants or withdraws. Everything from the package is escaped.
func (a *app) printGrant(w io.Writer, action trust.Action, g trust.Grant, batch map[string]bool, blocked string) {
	fmt.Fprintf(w, "%s %s\n", action, display.Line(g.Ref))
	fmt.Fprintf(w, "  kind     %s\n", display.Line(string(g.Kind)))
	fmt.Fprintf(w, "  digest   %s\n", digestOrNone(g.Digest))
	st := string(g.Status.Authorization)
	if g.Status.Decision != nil {
		st += fmt.Sprintf(" (last: %s by %s, %s ledger)", g.Status.Decision.Action, display.Line(g.Status.Decision.Reviewer), ledgerLabel(g.Status.Decision.Ledger))
	}
	fmt.Fprintf(w, "  status   %s\n", st)
	if sg := g.Signature; sg != nil && action == trust.ActionApprove {
		// Who published these bytes, beside the approval; a signature approves nothing.
		who := ""
		if sg.Signer != "" {
			who = " " + display.Line(sg.Signer) + " " + display.Line(sg.Fingerprint)
		}
		fmt.Fprintf(w, "  signer   %s%s: %s\n", display.Line(sg.Status), who, display.Line(sg.Detail))
	}
	if len(g.Summary) > 0 {
		fmt.Fprintln(w, "  what it does:")
		for _, s := range g.Summary {
			fmt.Fprintf(w, "    %s\n", display.Line(s))
		}
	}
	if len(g.Fields) > 0 {
		fmt.Fprintln(w, "  contract:")
		width := 0
		for _, f := range g.Fields {
			width = max(width, len(display.Line(f.Key)))
		}
		for _, f := range g.Fields {
			v, err := model.CanonicalJSON(f.Value)
			if err != nil {
				v = []byte(fmt.Sprintf("<%v>", err))
			}
			fmt.Fprintf(w, "    %-*s  %s\n", width, display.Line(f.Key), display.Line(string(v)))
		}
	}
	if len(g.Files) > 0 {
		fmt.Fprintln(w, "  files:")
		files := append([]model.File(nil), g.Files...)
		sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
		for _, f := range files {
			if f.IsLink() {
				fmt.Fprintf(w, "    %s  symlink -> %s\n", display.Line(f.Path), display.Line(f.Link))
				continue
			}
			exec := ""
			if f.Exec {
				exec = "  executable"
			}
			fmt.Fprintf(w, "    %s  %d bytes  sha256:%s%s\n", display.Line(f.Path), f.Size, display.Line(f.SHA256), exec)
		}
	}
	if action == trust.ActionApprove {
		printNotCovered(w, "  ", g.NotCovered)
	}
	for _, r := range g.Requires {
		note := ""
		if r.Authorization != model.Approved && batch[r.Ref] {
			note = "; approved first by this command"
		}
		fmt.Fprintf(w, "  requires %s (%s%s)\n", display.Line(r.Ref), r.Authorization, note)
	}
	if action == trust.ActionRevoke && len(g.Affected) > 0 {
		for _, r := range g.Affected {
			fmt.Fprintf(w, "  takes down %s (its tool will no longer be approved)\n", display.Line(r))
		}
	}
	if blocked != "" {
		fmt.Fprintf(w, "  refused  %s\n", display.Line(blocked))
	}
	fmt.Fprintln(w)
}

// decidedPackages are the package names of the decided components.
func decidedPackages(targets []refTarget) []string {
	var out []string
	for _, tg := range targets {
		out = append(out, tg.pkg.Name)
	}
	return out
}

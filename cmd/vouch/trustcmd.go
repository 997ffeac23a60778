package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/report"
	"vouch/review"
	"vouch/trust"
	"vouch/ui/display"
)

const ledgerFlagHelp = "team ledger file (default: .vouch/ledger.toml in the source's repository)"

// addLocateFlags binds the flags of the commands that find one REF in SOURCE and read its
// decisions (diff, check, stage): --ledger and --source-id.
func addLocateFlags(cmd *cobra.Command, ledger, sourceID *string) {
	cmd.Flags().StringVar(ledger, "ledger", "", ledgerFlagHelp)
	addSourceIDFlag(cmd, sourceID)
}

// addTrustLedgerFlag binds --trust-ledger, which the gates (check, status) take.
func addTrustLedgerFlag(cmd *cobra.Command, trustLedger *bool) {
	cmd.Flags().BoolVar(trustLedger, "trust-ledger", false, "count every decision of --ledger FILE; without it FILE counts as a discovered team ledger does: approvals up to what `vouch ledger trust FILE` confirmed, revokes at once")
}

// addSourceIDFlag binds --source-id as the commands taking a REF describe it.
func addSourceIDFlag(cmd *cobra.Command, sourceID *string) {
	cmd.Flags().StringVar(sourceID, "source-id", "validation", "source identity used in Dalo references, as given to vouch status")
}

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
		Use:   verb + " [--note TEXT] [--yes] [--json] [--ledger FILE] SOURCE REF...",
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

// openTrust resolves the home and opens the ledgers; a damaged ledger is exit 1.
// trustAll counts every decision of ledger (the file a command writes to, or the gate's
// --trust-ledger); otherwise ledger is held to the pin of `vouch ledger trust`.
func (a *app) openTrust(ledger string, trustAll bool) (*trust.Trust, error) {
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return nil, a.fail(2, "home", err.Error())
	}
	t, err := trust.Open(trust.Options{Home: home, TeamLedger: ledger, TrustLedger: trustAll})
	if err != nil {
		return nil, a.fail(1, "ledger", errSentence(err.Error()))
	}
	return t, nil
}

// loadSource runs review.Open on one source; a missing path is exit 2.
func (a *app) loadSource(source, sourceID string) (*review.Result, error) {
	return a.load([]string{source}, sourceID)
}

type refTarget struct {
	pkg  *model.Package
	comp *model.Component
	ref  string // the plain ref, as statuses and the ledger key it
	// shown is the ref as messages print it: as typed, so a ref with its format in front
	// is answered with the format in front.
	shown string
}

// refuseWildcard rejects refs that would stand for more than one component.
func (a *app) refuseWildcard(ref string) error {
	// vouch never globs; "*" is refused so that "pkg#*" cannot read as a grant of everything.
	// "?" and "[" are legal in component names (an MCP server may be called "a[1]").
	if strings.Contains(ref, "*") {
		return a.fail(2, "wildcard-ref", fmt.Sprintf("%s is a pattern; vouch decides one component at a time, so name each ref as \"vouch status\" prints it.", display.Line(ref)))
	}
	if !strings.Contains(ref, "#") || !strings.Contains(ref, ":") {
		return a.fail(2, "bad-ref", fmt.Sprintf("%s is not a component ref; refs look like <package>#<kind>:<id>, as \"vouch status\" prints them.", display.Line(ref)))
	}
	return nil
}

// findRef finds exactly one component by ref; unknown refs are exit 2 with close matches.
// A ref may name its package's format in front (<format>:<package>#<kind>:<id>), which
// tells apart the packages one folder gives for two clients; without it, a ref that
// only one package holds is that package's.
func (a *app) findRef(res *review.Result, source, ref string) (refTarget, error) {
	want := parseRef(ref)
	var found []refTarget
	var all []string
	for _, p := range res.Packages {
		for _, c := range p.Components {
			r := p.Ref(c)
			all = append(all, r)
			if want.matches(p, r) {
				found = append(found, refTarget{p, c, r, want.whole})
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		msg := fmt.Sprintf("%s is not a component of %s", display.Line(ref), source)
		if near := closeRefs(ref, all, 5); len(near) > 0 {
			for i := range near {
				near[i] = display.Line(near[i])
			}
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		} else {
			msg += `; run "vouch status ` + source + `" to list its refs.`
		}
		return refTarget{}, a.fail(2, "unknown-ref", msg)
	default:
		return refTarget{}, a.fail(2, "ambiguous-ref", ambiguousRef(ref, source, found))
	}
}

// ambiguousRef says why ref names more than one component: packages of different formats
// in one folder (the format in front tells them apart) or several copies of one package.
func ambiguousRef(ref, source string, found []refTarget) string {
	formats := map[model.Format]int{}
	var quals []string
	for _, f := range found {
		formats[f.pkg.Format]++
		quals = append(quals, display.Line(f.pkg.QualifiedRef(f.comp)))
	}
	sort.Strings(quals)
	if len(formats) == len(found) {
		return fmt.Sprintf("%s names components of %d packages of different formats in %s; name the format in front: %s.", display.Line(ref), len(found), source, strings.Join(quals, " or "))
	}
	return fmt.Sprintf("%s names components of %d packages in %s; give the package directory itself as SOURCE.", display.Line(ref), len(found), source)
}

// wantedRef is a ref as typed: its format when it names one, and the ref without it.
type wantedRef struct {
	format model.Format
	bare   string
	whole  string
}

// parseRef reads a typed ref. "<format>:" in front counts only for a format vouch
// knows and only before a ref's "#", so a package whose own name holds a colon is still
// found by its plain ref.
func parseRef(ref string) wantedRef {
	w := wantedRef{bare: ref, whole: ref}
	if f, rest, ok := strings.Cut(ref, ":"); ok && review.IsFormat(f) && strings.Contains(rest, "#") && !strings.Contains(f, "#") {
		w.format, w.bare = model.Format(f), rest
	}
	return w
}

// matches reports whether the component with plain ref r of package p is the one wanted.
func (w wantedRef) matches(p *model.Package, r string) bool {
	return r == w.whole || w.format != "" && p.Format == w.format && r == w.bare
}

// closeRefs returns up to n refs near ref by edit distance, nearest first.
func closeRefs(ref string, all []string, n int) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	limit := max(3, len(ref)/3)
	for _, s := range all {
		d := refEditDistance(ref, s)
		if d <= limit || (strings.Contains(s, ref) || strings.Contains(ref, s)) {
			cs = append(cs, cand{s, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].s < cs[j].s })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].s)
	}
	return out
}

func refEditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// stdinIsTerminal reports whether stdin is a terminal a person can answer on.
func (a *app) stdinIsTerminal() bool {
	f, ok := a.stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
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
	seen := map[string]bool{}
	for _, r := range refs {
		tg, err := a.findRef(res, source, r)
		if err != nil {
			return err
		}
		if !seen[tg.ref] {
			seen[tg.ref] = true
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

// diffOptions are diff's flags and arguments.
type diffOptions struct {
	app      *app
	source   string // SOURCE
	ref      string // REF
	ledger   string // --ledger
	sourceID string // --source-id
	json     bool   // --json
}

func newDiffCommand(a *app) *cobra.Command {
	opts := &diffOptions{app: a}
	cmd := &cobra.Command{
		Use:   "diff [--json] [--ledger FILE] SOURCE REF",
		Short: "Show what changed in a component since its approval (exit 1 when changed)",
		Long: `Compares the approved contract and files (kept in the vouch store) with the source now:
a field-by-field contract diff and a unified line diff of each changed file (sizes, hashes
and the first differing byte for binary or large files). Exit 0 when the approval still
matches, 1 otherwise. With --json the same is one JSON document on stdout
(schemas/vouch/commands-v1.schema.json), for every status, with the exit status unchanged.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref = args[0], args[1]
			return runDiff(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the diff as JSON")
	addLocateFlags(cmd, &opts.ledger, &opts.sourceID)
	return cmd
}

// resolveOne opens the ledgers and finds ref in SOURCE, loaded with sourceID.
func (a *app) resolveOne(source, ref, ledger, sourceID string) (*trust.Trust, refTarget, error) {
	if err := a.refuseWildcard(ref); err != nil {
		return nil, refTarget{}, err
	}
	t, err := a.openTrust(ledger, true)
	if err != nil {
		return nil, refTarget{}, err
	}
	res, err := a.loadSource(source, sourceID)
	if err != nil {
		return nil, refTarget{}, err
	}
	tg, err := a.findRef(res, source, ref)
	return t, tg, err
}

func runDiff(opts *diffOptions) error {
	a, source, jsonOut := opts.app, opts.source, opts.json
	if jsonOut {
		a.jsonErrors = true
	}
	t, tg, err := a.resolveOne(source, opts.ref, opts.ledger, opts.sourceID)
	if err != nil {
		return err
	}
	statuses, err := t.Statuses(tg.pkg)
	if err != nil {
		return a.fail(1, "ledger", errSentence(err.Error()))
	}
	st := statuses[tg.ref]
	name := display.Line(tg.shown)
	doc := newDiffDoc(tg.ref, st)
	switch st.Authorization {
	case model.Approved:
		if jsonOut {
			writeJSON(a.stdout, doc)
			return nil
		}
		fmt.Fprintf(a.stdout, "%s is unchanged since its approval (%s).\n", name, st.Digest)
		return nil
	case model.Changed:
	default:
		reason := st.Reason
		if reason == "" {
			reason = "There is no approval to compare with."
		}
		if jsonOut {
			doc.Reason = reason
			writeJSON(a.stdout, doc)
		}
		return a.fail(1, string(st.Authorization), fmt.Sprintf("%s is %s: %s", name, st.Authorization, display.Line(midSentence(reason))))
	}
	d, err := t.Diff(tg.pkg, tg.comp)
	if err != nil {
		return a.fail(1, "diff", errSentence(err.Error()))
	}
	if d == nil {
		return a.fail(1, "diff", name+" changed but no diff could be computed.")
	}
	if jsonOut {
		doc.add(d)
		for _, dep := range tg.comp.DependsOn {
			if ds := statuses[dep]; ds.Authorization != model.Approved {
				doc.Tools = append(doc.Tools, requireDoc{Ref: dep, Authorization: string(ds.Authorization)})
			}
		}
		writeJSON(a.stdout, doc)
		return exitError{1}
	}
	w := a.stdout
	fmt.Fprintf(w, "%s changed since its approval\n  approved %s (by %s, %s ledger)\n  current  %s\n", name, d.ApprovedDigest,
		display.Line(d.ApprovedBy.Reviewer), ledgerLabel(d.ApprovedBy.Ledger), digestOrNone(d.CurrentDigest))
	if d.NotStored {
		fmt.Fprintln(w, "\nThe approved contract and bytes are not in this vouch store (the approval was made in another home);")
		fmt.Fprintln(w, "the changed files below are named from the file digests the approval recorded, without line diffs or contract fields.")
	}
	if len(d.Fields) > 0 {
		fmt.Fprintln(w, "\ncontract fields:")
		for _, f := range d.Fields {
			fmt.Fprintf(w, "  %s: %s → %s\n", display.Line(f.Key), fieldOrAbsent(f.Old), fieldOrAbsent(f.New))
		}
	}
	for _, dep := range tg.comp.DependsOn {
		if ds := statuses[dep]; ds.Authorization != model.Approved {
			fmt.Fprintf(w, "\nIts tool %s is %s: run \"vouch diff %s %s\" to see how.\n", display.Line(dep), ds.Authorization, source, display.Line(dep))
		}
	}
	if len(d.Files) > 0 {
		fmt.Fprintln(w, "\nfiles:")
	}
	for _, f := range d.Files {
		p := display.Line(f.Path)
		switch f.Change {
		case "added", "removed":
			verb, link, size, sum, exec := "added   ", f.NewLink, f.NewSize, f.NewSHA256, f.NewExec
			if f.Change == "removed" {
				verb, link, size, sum, exec = "removed ", f.OldLink, f.OldSize, f.OldSHA256, f.OldExec
			}
			if link != "" {
				fmt.Fprintf(w, "  %s %s  symlink -> %s\n", verb, p, display.Line(link))
			} else {
				fmt.Fprintf(w, "  %s %s  %d bytes  sha256:%s%s\n", verb, p, size, sum, execSuffix(exec))
			}
		case "modified":
			if f.OldLink != "" || f.NewLink != "" {
				fmt.Fprintf(w, "  modified %s\n    %s → %s\n", p, linkOrFile(f.OldLink), linkOrFile(f.NewLink))
				continue
			}
			fallthrough
		default:
			fmt.Fprintf(w, "  modified %s\n", p)
			if f.OldExec != f.NewExec {
				fmt.Fprintf(w, "    executable: %v → %v\n", f.OldExec, f.NewExec)
			}
			switch {
			case f.Error != "":
				fmt.Fprintf(w, "    %s\n", display.Line(f.Error))
			case f.Binary:
				kind := "binary"
				if f.Large {
					kind = "larger than 16 MiB"
				}
				fmt.Fprintf(w, "    %s: %d bytes sha256:%s → %d bytes sha256:%s, first difference at byte %d\n",
					kind, f.OldSize, f.OldSHA256, f.NewSize, f.NewSHA256, f.FirstDifferentOffset)
			case f.Unified != "":
				for _, l := range strings.SplitAfter(strings.TrimSuffix(f.Unified, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", display.Line(strings.TrimSuffix(l, "\n")))
				}
			}
		}
	}
	return exitError{1}
}

// checkOptions are check's flags and arguments.
type checkOptions struct {
	app      *app
	source   string // SOURCE
	ref      string // REF
	ledger   string // --ledger
	sourceID string // --source-id
	json     bool   // --json
	// trustLedger is --trust-ledger: count every decision of --ledger FILE, not only
	// what this home trusted of it.
	trustLedger bool
}

func newCheckCommand(a *app) *cobra.Command {
	opts := &checkOptions{app: a}
	cmd := &cobra.Command{
		Use:   "check [--json] [--ledger FILE] SOURCE REF",
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
	addLocateFlags(cmd, &opts.ledger, &opts.sourceID)
	addTrustLedgerFlag(cmd, &opts.trustLedger)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the verdict as JSON")
	return cmd
}

func runCheck(opts *checkOptions) error {
	a, jsonOut := opts.app, opts.json
	if jsonOut {
		a.jsonErrors = true
	}
	// The gate is a short process whose heap is one package: a collection before the
	// bound is work thrown away when it exits.
	batchCollector()
	t, tg, err := a.locateRef(opts.source, opts.ref, opts.ledger, opts.trustLedger, opts.sourceID)
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
			Needs: nonNilStrings(st.Needs), NotCovered: notCoveredJSON(tg.comp.NotCovered)})
	}
	if st.Authorization != model.Approved {
		return a.fail(1, string(st.Authorization), fmt.Sprintf("%s is %s: %s", name, st.Authorization, display.Line(midSentence(reason))))
	}
	if !jsonOut {
		fmt.Fprintf(a.stdout, "approved %s %s\n", name, st.Digest)
	}
	return nil
}

// ledgerOptions are ledger's flags.
type ledgerOptions struct {
	app    *app
	ledger string // --ledger
	json   bool   // --json
}

func newLedgerCommand(a *app) *cobra.Command {
	opts := &ledgerOptions{app: a}
	cmd := &cobra.Command{
		Use:   "ledger [--json] [--ledger FILE]",
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
		if ds == nil {
			ds = []trust.Decision{}
		}
		writeJSON(a.stdout, ds)
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

// ledgerTrustOptions are ledger trust's flags and argument.
type ledgerTrustOptions struct {
	app  *app
	file string // FILE
	yes  bool   // --yes
	json bool   // --json
}

func newLedgerTrustCommand(a *app) *cobra.Command {
	opts := &ledgerTrustOptions{app: a}
	cmd := &cobra.Command{
		Use:   "trust [--yes] [--json] FILE",
		Short: "Show what a team ledger approves and, once confirmed, honour exactly that",
		Long: `A team ledger (.vouch/ledger.toml in a repository) arrives with the code it approves, so a
hostile repository could ship one approving its own tools. vouch therefore ignores a discovered
team ledger until you have seen what it approves and confirmed it with this command: it shows
the approvals per package, the reviewers and the newest decisions, asks for "y" (--yes without
a terminal), and pins the trust to the bytes shown (their length and SHA-256). Decisions added
to the file later are pending: they count only after this command shows them and you confirm
again ("vouch status" says how many are waiting). A ledger named with --ledger FILE is used
because you named it. With --json (which needs --yes) the summary and whether the ledger is
now trusted are one JSON document on stdout (schemas/vouch/commands-v1.schema.json).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runLedgerTrust(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.yes, "yes", false, "do not ask; required without a terminal")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary and the outcome as JSON (needs --yes)")
	return cmd
}

func runLedgerTrust(opts *ledgerTrustOptions) error {
	a, jsonOut, yes := opts.app, opts.json, opts.yes
	if jsonOut {
		a.jsonErrors = true
		if !yes {
			return a.fail(2, "needs-yes", "--json prints what was trusted for a program to read, so vouch does not ask; add --yes after reading the text summary of the same command.")
		}
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

func shortDigest(d string) string {
	if len(d) > 19 {
		return d[:19] + "…"
	}
	return d
}

// ledgerUntrustOptions are ledger untrust's flags and argument.
type ledgerUntrustOptions struct {
	app  *app
	file string // FILE
	json bool   // --json
}

func newLedgerUntrustCommand(a *app) *cobra.Command {
	opts := &ledgerUntrustOptions{app: a}
	cmd := &cobra.Command{
		Use:   "untrust [--json] FILE",
		Short: "Stop honouring a team ledger found next to reviewed sources",
		Args:  cobra.ExactArgs(1),
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

// printNotCovered lists what an approval does not cover, escaped, under one heading.
func printNotCovered(w io.Writer, indent string, nc []model.NotCovered) {
	if len(nc) == 0 {
		return
	}
	fmt.Fprintf(w, "%snot covered by this approval (%d):\n", indent, len(nc))
	for _, n := range nc {
		fmt.Fprintf(w, "%s  %s %s: %s\n", indent, display.Line(n.Kind), display.Line(n.Subject), display.Line(n.Detail))
	}
}

// warnNotCovered prints, for the CI gate, one warning per thing an approval cannot bind,
// on stderr (under --json as {"warning": {...}} lines), so a green gate still says where
// approval stops. It never changes the exit status: the format allows all of it.
func (a *app) warnNotCovered(rep *report.Report) {
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			for _, n := range c.NotCovered {
				if a.jsonErrors {
					writeJSON(a.stderr, map[string]any{"warning": map[string]string{"code": "not-covered", "ref": c.Ref, "kind": n.Kind, "subject": n.Subject, "message": n.Detail}})
					continue
				}
				fmt.Fprintf(a.stderr, "vouch: warning: %s: not covered by its approval: %s %s: %s\n", display.Line(c.Ref), display.Line(n.Kind), display.Line(n.Subject), display.Line(n.Detail))
			}
		}
	}
}

// stageOptions are stage's flags and arguments.
type stageOptions struct {
	app      *app
	source   string // SOURCE
	ref      string // REF
	dir      string // DIR
	ledger   string // --ledger
	sourceID string // --source-id
	json     bool   // --json
}

func newStageCommand(a *app) *cobra.Command {
	opts := &stageOptions{app: a}
	cmd := &cobra.Command{
		Use:   "stage [--json] [--ledger FILE] SOURCE REF DIR",
		Short: "Write exactly the approved closure of a component into DIR, for a harness that runs approved bytes only",
		Long: `Checks REF as "vouch check" does (its digest recomputed from the bytes on disk now must be
approved) and then writes its approved closure into DIR from the vouch store: every file with
the approved bytes and exec bit, every symlink recreated as a link with its approved target,
nothing else. A hook is staged with its tool's closure. Paths inside DIR are the paths the
contract records, relative to the package (a Dalo tool's files stay under plugins/<name>/),
so a harness runs DIR/<entry> and the entry can import nothing it was not approved with.

DIR must not exist or be empty: vouch never overwrites. The closure is written into a
temporary directory beside DIR and renamed onto it, so DIR holds all of it or none.
What the approval cannot bind (a program on PATH, a package a launcher downloads) is
printed on stderr, as check does. Exit 0 when staged; 1 when REF is not approved, DIR is
not empty or the store is damaged; 2 usage error or missing path. With --json what was
written (and what is not covered) is one JSON document on stdout
(schemas/vouch/commands-v1.schema.json).`,
		Example: `  vouch stage ./my-source 'my-pack#tool:lint' /tmp/lint-approved
  node /tmp/lint-approved/plugins/my-pack/tools/lint.mjs`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.source, opts.ref, opts.dir = args[0], args[1], args[2]
			return runStage(opts)
		},
	}
	addLocateFlags(cmd, &opts.ledger, &opts.sourceID)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print what was staged as JSON")
	return cmd
}

func runStage(opts *stageOptions) error {
	a, jsonOut := opts.app, opts.json
	if jsonOut {
		a.jsonErrors = true
	}
	t, tg, err := a.resolveOne(opts.source, opts.ref, opts.ledger, opts.sourceID)
	if err != nil {
		return err
	}
	if !jsonOut {
		printNotCovered(a.stderr, "", tg.comp.NotCovered)
	}
	staged, err := t.Stage(tg.pkg, tg.comp, opts.dir)
	if err != nil {
		return a.fail(1, "stage", errSentence(err.Error()))
	}
	if jsonOut {
		writeJSON(a.stdout, stageDoc{docHead: head("stage"), Ref: tg.ref, Dir: staged.Dir, Files: filesJSON(staged.Files),
			Skipped: nonNilStrings(staged.Skipped), NotCovered: notCoveredJSON(tg.comp.NotCovered)})
		return nil
	}
	fmt.Fprintf(a.stdout, "staged %s into %s (%d entries)\n", display.Line(tg.shown), display.Line(staged.Dir), len(staged.Files))
	return nil
}

func ledgerLabel(origin string) string {
	if team, ok := strings.CutPrefix(origin, "team:"); ok {
		return "team " + display.Line(team)
	}
	return origin
}

func digestOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func fieldOrAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return display.Line(s)
}

func linkOrFile(link string) string {
	if link == "" {
		return "a file"
	}
	return "symlink -> " + display.Line(link)
}

func execSuffix(e bool) string {
	if e {
		return "  executable"
	}
	return ""
}

// errSentence makes an error message read as one errSentence ending with a period.
func errSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// midSentence is errSentence for text that follows a colon.
func midSentence(s string) string {
	s = errSentence(s)
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// ask prints a yes/no question and reports whether the person typed y or yes.
func (a *app) ask(q string) bool {
	fmt.Fprint(a.stdout, q)
	// Byte by byte: a buffered reader could swallow the answer to the next question.
	var line []byte
	buf := make([]byte, 1)
	for len(line) < 1024 {
		n, err := a.stdin.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			line = append(line, buf[0])
		}
		if err != nil {
			break
		}
	}
	ans := strings.ToLower(strings.TrimSpace(string(line)))
	return ans == "y" || ans == "yes"
}

// decidedPackages are the package names of the decided components.
func decidedPackages(targets []refTarget) []string {
	var out []string
	for _, tg := range targets {
		out = append(out, tg.pkg.Name)
	}
	return out
}

package main

import (
	"fmt"
	"sort"
	"strings"
	"vouch/model"
	"vouch/review"
	"vouch/trust"
	"vouch/ui/display"

	"github.com/spf13/cobra"
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

// refOptions are what the commands that answer for one REF of SOURCE share (check, diff,
// stage): the two arguments, --ledger, --source-id and --json.
type refOptions struct {
	app      *app
	source   string // SOURCE
	ref      string // REF
	ledger   string // --ledger
	sourceID string // --source-id
	json     bool   // --json
}

// bindRefFlags binds --ledger, --source-id and --json (whose help is jsonHelp) into o.
func bindRefFlags(cmd *cobra.Command, o *refOptions, jsonHelp string) {
	addLocateFlags(cmd, &o.ledger, &o.sourceID)
	cmd.Flags().BoolVar(&o.json, "json", false, jsonHelp)
}

// resolve opens the ledgers and finds REF in SOURCE; with --json, this failure and every
// later one is printed as JSON.
func (o *refOptions) resolve() (*trust.Trust, refTarget, error) {
	if o.json {
		o.app.jsonErrors = true
	}
	return o.app.resolveOne(o.source, o.ref, o.ledger, o.sourceID)
}

// locate is resolve for the dispatch-time gate (locateRef); trustLedger is --trust-ledger.
func (o *refOptions) locate(trustLedger bool) (*trust.Trust, refTarget, error) {
	if o.json {
		o.app.jsonErrors = true
	}
	return o.app.locateRef(o.source, o.ref, o.ledger, trustLedger, o.sourceID)
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

package trust

import (
	"sort"
	"strings"

	"vouch/model"
)

// Folding turns a ledger's decisions, in file order, into the state they leave: for each
// (package, component), the decision in force for every digest it has had. An approval
// binds (package, component, digest), so several digests can be approved at once (two
// installed copies, two versions).
//
// The two kinds of ledger fold differently:
//   - personal: the last decision for a digest wins; a revoke without a digest scope
//     revokes every digest of the component, including ones only a team ledger approves,
//     until a later approval of one digest.
//   - team: a revoke of a digest wins over approvals of it wherever they sit in the file,
//     because git merges reorder lines. vouch writes only digest-scoped revokes into a team
//     ledger (a revoke of a component becomes one scoped revoke per digest it had). An
//     unscoped revoke written by an older vouch revokes its own digest the same way and
//     every digest approved above it in the file.

// ScopeDigest marks a revoke that withdraws only its own digest.
const ScopeDigest = "digest"

// rec is a decision with its position in the file, so that "latest" never reads a clock.
type rec struct {
	D   Decision `json:"d"`
	Seq int      `json:"s"`
}

// compFold is one component's state in one ledger.
type compFold struct {
	// Digests holds the decision in force for each digest the ledger has decided.
	Digests map[string]rec `json:"digests,omitempty"`
	// All is the latest unscoped revoke of a personal ledger when no approval followed it:
	// every digest not in Digests is revoked by it.
	All *rec `json:"all,omitempty"`
	// Latest is the last decision in file order, for display.
	Latest rec `json:"latest"`
	// ActiveAt holds instruction activations in force by target.
	ActiveAt map[string]rec `json:"active_at,omitempty"`
}

// fold is a whole ledger folded: package → component ref → state.
type fold struct {
	Team  bool                            `json:"team"`
	Count int                             `json:"count"`
	Comps map[string]map[string]*compFold `json:"comps"`
}

func newFold(team bool) *fold {
	return &fold{Team: team, Comps: map[string]map[string]*compFold{}}
}

// comp is the state of pkg's component ref: its format's decisions joined with those
// that name no format.
func (f *fold) comp(pkg *model.Package, ref string) *compFold {
	m := f.Comps[pkg.Name]
	return joinLayers(m[formatKey(string(pkg.Format), ref)], m[ref], f.Team)
}

// formatKey is where a decision is folded within its package: under its ref when it
// names no format (written before decisions recorded one), else under the format and the
// ref, so that the Codex and the Claude Code reading of one folder, which can share a
// package name and refs, never share a decision. NUL cannot occur in a ref a loader
// makes, so no ref of one format is the key of another's.
func formatKey(format, ref string) string {
	if format == "" {
		return ref
	}
	return format + "\x00" + ref
}

// formatLayer is the states of one format's components, by ref: for each ref, the
// decisions of that format joined with the decisions that name no format. A decision
// without a format was made when a package's name was its whole identity; it binds a
// digest, so an old approval still approves exactly the bytes it approved, in whichever
// format they appear, and an old revoke still takes rights away in every format.
func formatLayer(m map[string]*compFold, format string, team bool) map[string]*compFold {
	hasFormats := false
	for k := range m {
		if strings.IndexByte(k, 0) >= 0 {
			hasFormats = true
			break
		}
	}
	if !hasFormats {
		return m
	}
	out := make(map[string]*compFold, len(m))
	prefix := format + "\x00"
	for k, c := range m {
		if ref, ok := strings.CutPrefix(k, prefix); ok {
			out[ref] = joinLayers(c, m[ref], team)
		} else if strings.IndexByte(k, 0) < 0 {
			if _, own := m[prefix+k]; !own {
				out[k] = c
			}
		}
	}
	return out
}

// joinLayers joins a component's format-named decisions (own) with its format-less ones
// (legacy) from the same ledger, by the rules a single fold follows: both carry their
// position in the one file, so for each digest the later decision wins, and in a team
// ledger a revoke wins wherever it sits.
func joinLayers(own, legacy *compFold, team bool) *compFold {
	if own == nil {
		return legacy
	}
	if legacy == nil {
		return own
	}
	j := &compFold{Digests: make(map[string]rec, len(own.Digests)+len(legacy.Digests))}
	for _, c := range []*compFold{own, legacy} {
		for dg := range c.Digests {
			if _, done := j.Digests[dg]; done {
				continue
			}
			a, okA := own.lookup(dg)
			b, okB := legacy.lookup(dg)
			j.Digests[dg] = pickRec(a, okA, b, okB, team)
		}
	}
	j.All = laterRec(own.All, legacy.All)
	j.Latest = own.Latest
	if legacy.Latest.Seq > j.Latest.Seq {
		j.Latest = legacy.Latest
	}
	for _, c := range []*compFold{legacy, own} {
		for target, r := range c.ActiveAt {
			if j.ActiveAt == nil {
				j.ActiveAt = map[string]rec{}
			}
			if old, ok := j.ActiveAt[target]; !ok || r.Seq > old.Seq {
				j.ActiveAt[target] = r
			}
		}
	}
	return j
}

// pickRec chooses between two layers' decisions for one digest.
func pickRec(a rec, okA bool, b rec, okB bool, team bool) rec {
	switch {
	case !okB:
		return a
	case !okA:
		return b
	case team && (a.D.Action == ActionRevoke) != (b.D.Action == ActionRevoke):
		if a.D.Action == ActionRevoke {
			return a
		}
		return b
	case b.Seq > a.Seq:
		return b
	}
	return a
}

func laterRec(a, b *rec) *rec {
	if a == nil || b != nil && b.Seq > a.Seq {
		return b
	}
	return a
}

func (f *fold) ensure(pkg, ref string) *compFold {
	m := f.Comps[pkg]
	if m == nil {
		m = map[string]*compFold{}
		f.Comps[pkg] = m
	}
	c := m[ref]
	if c == nil {
		c = &compFold{Digests: map[string]rec{}}
		m[ref] = c
	}
	if c.Digests == nil {
		c.Digests = map[string]rec{}
	}
	return c
}

// apply folds one more decision, the next one in file order.
func (f *fold) apply(d Decision) {
	f.Count++
	r := rec{D: d, Seq: f.Count}
	c := f.ensure(d.Package, formatKey(d.Format, d.Component))
	c.Latest = r
	switch {
	case d.Action == ActionApprove:
		if d.Target != "" {
			if c.ActiveAt == nil {
				c.ActiveAt = map[string]rec{}
			}
			c.ActiveAt[d.Target] = r
		}
		if old, ok := c.Digests[d.Digest]; ok && f.Team && old.D.Action == ActionRevoke {
			return // a revoke of a digest wins in a team ledger
		}
		c.Digests[d.Digest] = r
		c.All = nil
	case d.Target != "":
		// Removing an instruction from one target while another still holds it must not
		// show it revoked.
		delete(c.ActiveAt, d.Target)
		if still, ok := newestRec(c.ActiveAt); ok {
			c.Latest = still
			// The approval in force for a digest is an activation that still holds.
			for dg, x := range c.Digests {
				if x.D.Target != d.Target || x.D.Action != ActionApprove {
					continue
				}
				var best rec
				for _, a := range c.ActiveAt {
					if a.D.Digest == dg && a.Seq > best.Seq {
						best = a
					}
				}
				if best.Seq > 0 {
					c.Digests[dg] = best
				}
			}
			return
		}
		f.revokeAll(c, r)
	case d.Scope == ScopeDigest:
		c.Digests[d.Digest] = r
	default:
		f.revokeAll(c, r)
	}
}

// revokeAll applies an unscoped revoke.
func (f *fold) revokeAll(c *compFold, r rec) {
	c.ActiveAt = nil
	if f.Team {
		for dg, x := range c.Digests {
			if x.D.Action == ActionApprove {
				c.Digests[dg] = r
			}
		}
		if r.D.Digest != "" {
			c.Digests[r.D.Digest] = r
		}
		return
	}
	// Personal: every digest decided so far is revoked, and All answers for digests never
	// decided (a team approval of one included) until a later approval reopens the component.
	for dg := range c.Digests {
		c.Digests[dg] = r
	}
	if r.D.Digest != "" {
		c.Digests[r.D.Digest] = r
	}
	c.All = &r
}

func newestRec(m map[string]rec) (rec, bool) {
	var best rec
	found := false
	for _, r := range m {
		if !found || r.Seq > best.Seq {
			best, found = r, true
		}
	}
	return best, found
}

// lookup is the decision in force for digest, if this ledger has one.
func (c *compFold) lookup(digest string) (rec, bool) {
	if c == nil {
		return rec{}, false
	}
	if r, ok := c.Digests[digest]; ok {
		return r, true
	}
	if c.All != nil {
		return *c.All, true
	}
	return rec{}, false
}

// approvals are the approvals in force, newest first.
func (c *compFold) approvals() []rec {
	if c == nil {
		return nil
	}
	var out []rec
	for _, r := range c.Digests {
		if r.D.Action == ActionApprove {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
	return out
}

// view joins, for one package, the personal ledger with the team ledger that applies to it:
// component ref → state in each.
type view struct {
	personal map[string]*compFold
	team     map[string]*compFold
}

// verdict is what the ledgers say about one component at one digest.
type verdict struct {
	// inForce is the decision for exactly this digest (approve or revoke), if any.
	inForce *Decision
	// baseline is the latest approval in force of another digest: what "changed" diffs against.
	baseline *Decision
	// latest is the newest decision of any kind, for display when nothing else applies.
	latest *Decision
}

// judge answers for ref at digest. The personal ledger's decision for a digest wins over
// the team's; a personal decision about another digest never masks a team approval of
// this one.
func (v *view) judge(ref, digest string) verdict {
	var out verdict
	pc, tc := v.personal[ref], v.team[ref]
	if r, ok := pc.lookup(digest); ok {
		d := r.D
		out.inForce = &d
	} else if r, ok := tc.lookup(digest); ok {
		d := r.D
		out.inForce = &d
	}
	// The baseline: the newest approval in force, the personal one by file order; between
	// the two files only the recorded time can order them.
	var best *Decision
	consider := func(r rec) {
		// A team approval the person revoked is not in force for them.
		if pr, ok := pc.lookup(r.D.Digest); ok && pr.D.Action == ActionRevoke {
			return
		}
		if best == nil || r.D.At.After(best.At) {
			d := r.D
			best = &d
		}
	}
	for _, r := range pc.approvals() {
		if r.D.Digest != digest {
			consider(r)
			break
		}
	}
	for _, r := range tc.approvals() {
		if r.D.Digest != digest {
			consider(r)
		}
	}
	out.baseline = best
	for _, c := range []*compFold{tc, pc} {
		if c != nil && c.Latest.Seq > 0 {
			d := c.Latest.D
			if out.latest == nil || !d.At.Before(out.latest.At) {
				out.latest = &d
			}
		}
	}
	return out
}

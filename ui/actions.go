package ui

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"vouch/model"
	"vouch/trust"
	"vouch/trust/instructions"
	"vouch/ui/display"

	tea "charm.land/bubbletea/v2"
)

// tooSmall reports whether the "terminal too small" view is showing: then no action key
// does anything, since the person cannot see what it would act on.
func (m *Model) tooSmallNow() bool {
	return m.width < MinWidth || m.height < MinHeight
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.tooSmallNow() {
		// Only the way out works below the floor: otherwise a then y would approve what
		// the too-small window does not show.
		if msg.String() == "q" {
			return tea.Quit
		}
		return nil
	}
	if top := m.top(); top != nil {
		return top.key(m, msg)
	}
	m.flash = ""
	// A key pressed while a reload streams in: the person has taken over the selection.
	m.reselect = nil
	return m.dispatch(msg)
}

// The handlers of the browsing screen's actions (the table in keys.go).

func moveBy(n int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.tree.move(n)
		return m.selectionChanged()
	}
}

func moveToEnd(dir int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, msg tea.KeyPressMsg) tea.Cmd { return moveBy(dir*len(m.tree.visible))(m, msg) }
}

func jumpPackage(dir int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.tree.jump(dir, item.isPackage)
		return m.selectionChanged()
	}
}

func jumpMatch(dir int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		if !m.tree.jumpMatch(dir) {
			m.setFlash("No row matches the filter by its own text.", false)
		}
		return m.selectionChanged()
	}
}

func jumpReview(dir int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		// First what can be approved now (a hook's tool before the hook), then anything
		// that needs review.
		if !m.tree.jumpNow(dir) && !m.tree.jumpReview(dir) {
			m.setFlash("Nothing here needs review.", false)
		}
		return m.selectionChanged()
	}
}

func (m *Model) fold(tea.KeyPressMsg) tea.Cmd {
	m.tree.toggleFold()
	return m.selectionChanged()
}

func (m *Model) toggleSort(tea.KeyPressMsg) tea.Cmd {
	m.tree.byRisk = !m.tree.byRisk
	m.tree.setItems(m.tree.order(itemsFor(m.data.pkgs)))
	if m.tree.byRisk {
		m.setFlash("Components by risk: gating hooks, hooks, code that runs, network, instructions, the rest.", false)
	} else {
		m.setFlash("Components in package order.", false)
	}
	return m.selectionChanged()
}

func (m *Model) startFilter(tea.KeyPressMsg) tea.Cmd {
	cmd := m.tree.startFilter()
	m.push(&filterMode{})
	return cmd
}

// startViews opens the command bar: the filter with a view word, which combines with
// other words.
func (m *Model) startViews(tea.KeyPressMsg) tea.Cmd {
	cmd := m.tree.startFilter()
	m.tree.filter.SetValue(":")
	m.tree.filter.CursorEnd()
	m.tree.cursor = 0
	m.tree.applyFilter() // the tree lists the views until one is named
	m.push(&filterMode{})
	return cmd
}

func (m *Model) clearFilter(tea.KeyPressMsg) tea.Cmd {
	m.tree.clearFilter()
	m.layout()
	return m.selectionChanged()
}

// stepTab moves to the tab step places on (numTabs-1 is one back).
func stepTab(step int) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.detail.setTab((m.detail.tab + tab(step)) % numTabs)
		m.updateKeys()
		return m.detail.refresh()
	}
}

func (m *Model) pickTab(msg tea.KeyPressMsg) tea.Cmd {
	m.detail.setTab(tab(msg.Text[0] - '1'))
	m.updateKeys()
	return m.detail.refresh()
}

func (m *Model) pageDown(tea.KeyPressMsg) tea.Cmd {
	m.detail.vp.PageDown()
	return nil
}

func (m *Model) pageUp(tea.KeyPressMsg) tea.Cmd {
	m.detail.vp.PageUp()
	return nil
}

func (m *Model) toggleRaw(tea.KeyPressMsg) tea.Cmd {
	m.detail.raw = !m.detail.raw
	return m.detail.refresh()
}

func (m *Model) openFiles(tea.KeyPressMsg) tea.Cmd { return m.openFileView(0) }

func (m *Model) approve(tea.KeyPressMsg) tea.Cmd {
	p, c, _, _ := m.selection()
	if deps := m.unapprovedDeps(p, c); len(deps) > 0 {
		// A hook whose tool is not approved: one dialog for both, tools first.
		return m.explain(trust.ActionApprove, groupWithDep, p, append(deps, c))
	}
	return m.explain(trust.ActionApprove, groupOne, p, []*model.Component{c})
}

func (m *Model) approveAll(tea.KeyPressMsg) tea.Cmd {
	p, _, _, _ := m.selection()
	all := m.approvableOf(p)
	shown := m.tree.shownOf(p, all)
	if len(shown) == 0 {
		m.setFlash("Nothing the filter shows in this package can be approved.", false)
		return nil
	}
	explain := m.explain(trust.ActionApprove, groupPackage, p, shown)
	return func() tea.Msg {
		msg := explain()
		if e, ok := msg.(explainedMsg); ok {
			e.offered = len(all)
			return e
		}
		return msg
	}
}

// revoke revokes the selection's approval, or removes an instruction's block from the
// files the ledger has it active in.
func (m *Model) revoke(tea.KeyPressMsg) tea.Cmd {
	if m.removalApplies() {
		return m.openRemoval()
	}
	p, c, _, _ := m.selection()
	return m.explain(trust.ActionRevoke, groupOne, p, []*model.Component{c})
}

func (m *Model) revokeLabel() string {
	if m.removalApplies() {
		return "remove instruction"
	}
	return "revoke"
}

func (m *Model) activate(tea.KeyPressMsg) tea.Cmd { return m.openPrompt() }

func copyWhat(digest bool) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.copySelection(digest) }
}

// reload reads every source again: files may have changed since loading (a tool edited
// after its approval); the selection follows its package and component.
func (m *Model) reload(tea.KeyPressMsg) tea.Cmd {
	m.setFlash("Reloading "+strings.Join(m.opts.Sources, " ")+"…", false)
	return m.loadCmd()
}

// Why an action of the browsing screen does nothing now ("" when it applies). The
// reasons of a, A, x, i and f sit beside their flows.

func (m *Model) selectReason() string {
	if _, _, _, ok := m.selection(); !ok {
		return "nothing is selected."
	}
	return ""
}

func (m *Model) foldReason() string {
	if why := m.selectReason(); why != "" {
		return why
	}
	if m.tree.filter.Value() != "" {
		return "a filter is set: esc clears it."
	}
	return ""
}

func (m *Model) digestReason() string {
	if _, c, _, ok := m.selection(); !ok || c == nil || c.Contract == nil {
		return "nothing is selected."
	}
	return ""
}

func (m *Model) matchReason() string {
	if m.tree.filter.Value() == "" {
		return "no filter is set (/ starts one)."
	}
	return ""
}

func (m *Model) reviewReason() string {
	switch {
	case m.tree.filter.Value() != "":
		return "a filter is set: n and N move between its matches (esc clears it)."
	case m.data.nReview == 0: // counted when statuses change, not on every key
		return "nothing here needs review."
	}
	return ""
}

func (m *Model) clearReason() string {
	if m.tree.filter.Value() == "" {
		return "no filter is set."
	}
	return ""
}

func (m *Model) rawReason() string {
	_, c, _, _ := m.selection()
	if c == nil || !hasText(c) || m.detail.tab != tabContent || m.data.slowToRender(c) != "" {
		return "only on the Content tab of a skill or instruction with a text body."
	}
	return ""
}

func (m *Model) reloadReason() string {
	switch {
	case m.opts.Packages != nil:
		return "packages handed in memory have no source to read again."
	case !m.loaded:
		return "the sources are still loading."
	}
	return ""
}

// unapprovedDeps lists the components of p that c needs and that are not approved.
func (m *Model) unapprovedDeps(p *model.Package, c *model.Component) []*model.Component {
	if p == nil || c == nil {
		return nil
	}
	var out []*model.Component
	for _, dep := range c.DependsOn {
		for _, dc := range p.Components {
			if p.Ref(dc) == dep && authOf(m.data.statusOf(p, dc)) != model.Approved {
				out = append(out, dc)
			}
		}
	}
	return out
}

// approvableOf lists the components of p an approval could record, tools before what
// needs them.
func (m *Model) approvableOf(p *model.Package) []*model.Component {
	if p == nil || p.Rejected {
		return nil
	}
	var first, then []*model.Component
	for _, c := range p.Components {
		st := m.data.statusOf(p, c)
		if !needsReview(c, st) || (c.Validity != model.Valid && c.Validity != "") {
			continue
		}
		if len(c.DependsOn) == 0 {
			first = append(first, c)
		} else {
			then = append(then, c)
		}
	}
	return append(first, then...)
}

// approveAllReason says why A cannot apply, "" when it can.
func (m *Model) approveAllReason() string {
	p, _, _, ok := m.selection()
	switch {
	case !ok:
		return "Nothing is selected."
	case m.busy:
		return "A decision is being recorded."
	case p.Rejected:
		return "The package is rejected: nothing in it can be approved."
	case len(m.approvableOf(p)) == 0:
		return "Nothing in this package needs approval."
	}
	return ""
}

func (m *Model) onWheel(msg tea.MouseWheelMsg) {
	if m.tooSmallNow() {
		return
	}
	mouse := msg.Mouse()
	// A modal takes the wheel: the selection hidden behind it never moves.
	if top := m.top(); top != nil {
		top.wheel(m, mouse)
		return
	}
	m.wheelBase(mouse)
}

// wheelBase scrolls the pane under the pointer: the tree or the detail pane.
func (m *Model) wheelBase(mouse tea.Mouse) {
	treeRight := m.treeOuterWidth()
	up := mouse.Button == tea.MouseWheelUp
	down := mouse.Button == tea.MouseWheelDown
	if mouse.X < treeRight {
		if up {
			m.tree.scroll(-1)
		} else if down {
			m.tree.scroll(1)
		}
		m.selectionChanged()
		return
	}
	if up {
		m.detail.vp.ScrollUp(3)
	} else if down {
		m.detail.vp.ScrollDown(3)
	}
}

// explain asks trust (in a command: it may hash files and read the store) what deciding
// comps of p would do, and what changed in each since its last approval.
func (m *Model) explain(action trust.Action, group string, p *model.Package, comps []*model.Component) tea.Cmd {
	if p == nil || len(comps) == 0 || comps[len(comps)-1] == nil {
		return nil
	}
	m.busy = true
	m.updateKeys()
	box, gen := m.trust, m.data.gen
	return func() tea.Msg {
		reqs := make([]trust.Request, len(comps))
		for i, c := range comps {
			reqs[i] = trust.Request{Pkg: p, Comp: c}
		}
		box.mu.Lock()
		var grants []trust.Grant
		if box.t != nil {
			grants = box.t.ExplainAll(reqs, action)
		}
		entries := make([]dialogEntry, len(comps))
		for i, c := range comps {
			var g trust.Grant
			if i < len(grants) {
				g = grants[i]
			}
			if g.Ref == "" {
				g = fallbackGrant(p, c)
			}
			e := dialogEntry{pkg: p, comp: c, root: p.Root, ref: p.Ref(c), digest: g.Digest, grant: g}
			if action == trust.ActionApprove && box.t != nil && authOf(g.Status) == model.Changed {
				e.diff, e.diffErr = box.t.Diff(p, c)
			}
			entries[i] = e
		}
		box.mu.Unlock()
		return explainedMsg{action: action, group: group, gen: gen, entries: entries}
	}
}

// fallbackGrant describes a component from its own contract when trust cannot say more.
func fallbackGrant(p *model.Package, c *model.Component) trust.Grant {
	g := trust.Grant{Ref: p.Ref(c), Kind: c.Kind, Summary: c.Summary, NotCovered: c.NotCovered, Signature: p.Signature}
	if c.Contract != nil {
		g.Digest = c.Contract.MustDigest()
		g.Fields = c.Contract.Fields
		g.Files = c.Contract.Files
	}
	return g
}

func (m *Model) openDialog(msg explainedMsg) {
	if msg.gen != m.data.gen {
		// Explained from packages a reload has replaced: showing it would ask about
		// something no longer on screen.
		m.setFlash("The sources were reloaded meanwhile: press the key again.", false)
		m.updateKeys()
		return
	}
	entries := msg.entries
	var left []string
	if msg.group == groupPackage {
		// Only what can be recorded together: drop entries blocked for reasons the group
		// does not resolve, until none is left blocked.
		for {
			d := newDialog(m.common, msg.action, msg.group, msg.gen, entries)
			var keep []dialogEntry
			for _, e := range d.entries {
				if e.blocked == "" {
					keep = append(keep, e)
				} else {
					left = append(left, e.ref+": "+e.blocked)
				}
			}
			if len(keep) == len(entries) {
				break
			}
			entries = keep
		}
	}
	d := newDialog(m.common, msg.action, msg.group, msg.gen, entries)
	d.offered = msg.offered
	d.leftOut = left
	d.build()
	m.push(d)
}

// decide records the decision in a command and re-evaluates there every package it can
// affect: the decided one and the copies that share its name (they share its refs).
func (m *Model) decide(d *dialog) tea.Cmd {
	if !d.canConfirm() || d.gen != m.data.gen {
		return nil
	}
	m.busy = true
	m.pop(d)
	box := m.trust
	action := d.action
	var reqs []trust.Request
	var refs []string
	for _, e := range d.entries {
		if e.out {
			continue // the person left it out
		}
		// The digest the dialog showed: trust refuses if the component is no longer it.
		reqs = append(reqs, trust.Request{Pkg: e.pkg, Comp: e.comp, Digest: e.digest})
		refs = append(refs, e.ref)
	}
	affected := m.data.sameName(d.entries[0].pkg)
	opts := trust.DecideOptions{ReviewerKind: trust.ReviewerHuman, Note: strings.TrimSpace(d.note.Value())}
	return func() tea.Msg {
		msg := decidedMsg{action: action, refs: refs}
		box.mu.Lock()
		defer box.mu.Unlock()
		if box.t == nil {
			msg.err = fmt.Errorf("the trust ledger is not open")
			return msg
		}
		if len(reqs) == 1 && action == trust.ActionApprove {
			var dd trust.Decision
			dd, msg.err = box.t.Approve(reqs[0].Pkg, reqs[0].Comp, reqs[0].Digest, opts)
			msg.decisions = []trust.Decision{dd}
		} else if len(reqs) == 1 {
			var dd trust.Decision
			dd, msg.err = box.t.Revoke(reqs[0].Pkg, reqs[0].Comp, reqs[0].Digest, opts)
			msg.decisions = []trust.Decision{dd}
		} else {
			msg.decisions, msg.err = box.t.Decide(action, reqs, opts)
		}
		msg.status = compactStatuses(box.t.EvaluateAll(affected))
		msg.active, msg.files = activeCounts(box.t)
		return msg
	}
}

func (m *Model) onDecided(msg decidedMsg) tea.Cmd {
	m.absorbDecision(msg.status, msg.active, msg.files)
	what := display.Line(strings.Join(msg.refs, ", "))
	if len(msg.refs) > 3 {
		what = plural(len(msg.refs), "component")
	}
	switch {
	case errors.Is(msg.err, trust.ErrDigestMismatch):
		m.setFlash("Nothing recorded: "+display.Line(msg.err.Error())+" Press R to reload.", true)
	case msg.err != nil:
		m.setFlash(fmt.Sprintf("Could not %s %s: %v", msg.action, what, msg.err), true)
	case msg.action == trust.ActionApprove:
		m.setFlash("Approved "+what+".", false)
	default:
		m.setFlash("Revoked "+what+".", false)
	}
	return m.afterDecision()
}

// absorbDecision takes in what a decision command read back: the statuses of the
// packages it could affect and the activations in force (nil when unknown).
func (m *Model) absorbDecision(status statusMap, active map[string]int, files map[string][]instructions.InForce) {
	m.busy = false
	for p, st := range status {
		// Only packages still shown: a reload may have replaced them meanwhile.
		if _, ok := m.data.status[p]; ok || m.shown(p) {
			m.data.status[p] = st
		}
	}
	if active != nil {
		m.data.active, m.data.files = active, files
	}
	m.tree.rows = nil
	m.detail.forgetDiffs()
}

// copySelection puts the selection's REF (or its digest, or a package's location) on the
// clipboard with OSC 52. The sequence is written by vouch and holds only base64, and text
// with hidden characters is refused rather than copied: a paste must be what was shown.
func (m *Model) copySelection(digest bool) tea.Cmd {
	p, c, _, ok := m.selection()
	if !ok {
		return nil
	}
	what, text := "REF", ""
	switch {
	case c == nil:
		what, text = "location", p.Root
	case digest && c.Contract != nil:
		what, text = "digest", c.Contract.MustDigest()
	case digest:
		m.setFlash("Nothing to copy: this component has no digest.", true)
		return nil
	default:
		text = m.data.refOf(p, c)
	}
	return m.copyText(what, text)
}

func (m *Model) copyText(what, text string) tea.Cmd {
	if display.Count(text) > 0 {
		m.setFlash("Not copied: the "+what+" holds hidden characters ("+display.Line(text)+").", true)
		return nil
	}
	seq := osc52(text)
	m.setFlash("Copied the "+what+" "+display.Line(text)+" (OSC 52).", false)
	if m.clipboard != nil {
		m.clipboard(seq)
		return nil
	}
	return tea.Raw(seq)
}

// osc52 is the clipboard sequence for s: base64 only, so nothing of s reaches the
// terminal as bytes it could interpret.
func osc52(s string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(s)) + "\x07"
}

// shown reports whether p is one of the packages on screen.
func (m *Model) shown(p *model.Package) bool {
	for _, q := range m.data.pkgs {
		if q == p {
			return true
		}
	}
	return false
}

// onClick selects the tree row or the tab under the pointer. Behind a modal, or below the
// size floor, a click does nothing: it would act on what the person cannot see.
func (m *Model) onClick(msg tea.MouseClickMsg) tea.Cmd {
	mouse := msg.Mouse()
	if m.tooSmallNow() || mouse.Button != tea.MouseLeft || m.top() != nil || !m.loaded {
		return nil
	}
	const bodyTop = 1 // the header line
	tw := m.treeOuterWidth()
	y := mouse.Y - bodyTop - 1 // inside the pane's top border
	if mouse.X >= 1 && mouse.X < tw-1 {
		if i, ok := m.tree.rowAt(y); ok {
			m.tree.cursor = i
			m.tree.scrollToCursor()
			m.reselect = nil
			return m.selectionChanged()
		}
		return nil
	}
	if mouse.X > tw && y == 0 {
		if tb := m.detail.tabAt(mouse.X - tw - 1); tb >= 0 {
			m.detail.setTab(tb)
			m.updateKeys()
			return m.detail.refresh()
		}
	}
	return nil
}

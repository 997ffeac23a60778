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

	"charm.land/bubbles/v2/key"
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
	if m.keysHelp != nil {
		return m.keySheetKey(msg)
	}
	if m.dialog != nil {
		return m.dialogKey(msg)
	}
	if m.prompt != nil {
		return m.promptKey(msg)
	}
	if m.fileView != nil {
		return m.fileViewKey(msg)
	}
	if m.marketView != nil {
		return m.marketKey(msg)
	}
	if m.tree.editing {
		cmd := m.tree.updateFilter(msg)
		return tea.Batch(cmd, m.selectionChanged())
	}
	k := &m.keys
	m.flash = ""
	// A key pressed while a reload streams in: the person has taken over the selection.
	m.reselect = nil
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Reload):
		// Files may have changed since loading (a tool edited after its approval): read
		// every source again; the selection follows its package and component.
		m.setFlash("Reloading "+strings.Join(m.opts.Sources, " ")+"…", false)
		return m.loadCmd()
	case key.Matches(msg, k.Help):
		m.openKeySheet()
		return nil
	case key.Matches(msg, k.Up):
		m.tree.move(-1)
		return m.selectionChanged()
	case key.Matches(msg, k.Down):
		m.tree.move(1)
		return m.selectionChanged()
	case key.Matches(msg, k.Top):
		m.tree.move(-len(m.tree.visible))
		return m.selectionChanged()
	case key.Matches(msg, k.Bottom):
		m.tree.move(len(m.tree.visible))
		return m.selectionChanged()
	case key.Matches(msg, k.NextPkg), key.Matches(msg, k.PrevPkg):
		dir := 1
		if key.Matches(msg, k.PrevPkg) {
			dir = -1
		}
		m.tree.jump(dir, item.isPackage)
		return m.selectionChanged()
	case key.Matches(msg, k.Sort):
		m.tree.byRisk = !m.tree.byRisk
		m.tree.setItems(m.tree.order(itemsFor(m.data.pkgs)))
		if m.tree.byRisk {
			m.setFlash("Components by risk: gating hooks, hooks, code that runs, network, instructions, the rest.", false)
		} else {
			m.setFlash("Components in package order.", false)
		}
		return m.selectionChanged()
	case key.Matches(msg, k.Fold):
		m.tree.toggleFold()
		return m.selectionChanged()
	case key.Matches(msg, k.PageDown):
		m.detail.vp.PageDown()
	case key.Matches(msg, k.PageUp):
		m.detail.vp.PageUp()
	case key.Matches(msg, k.NextTab):
		m.detail.setTab((m.detail.tab + 1) % numTabs)
		m.updateKeys()
		return m.detail.refresh()
	case key.Matches(msg, k.PrevTab):
		m.detail.setTab((m.detail.tab + numTabs - 1) % numTabs)
		m.updateKeys()
		return m.detail.refresh()
	case key.Matches(msg, k.Tab):
		m.detail.setTab(tab(msg.Text[0] - '1'))
		m.updateKeys()
		return m.detail.refresh()
	case key.Matches(msg, k.NextMatch), key.Matches(msg, k.PrevMatch):
		dir := 1
		if key.Matches(msg, k.PrevMatch) {
			dir = -1
		}
		if !m.tree.jumpMatch(dir) {
			m.setFlash("No row matches the filter by its own text.", false)
		}
		return m.selectionChanged()
	case key.Matches(msg, k.NextReview), key.Matches(msg, k.PrevReview):
		dir := 1
		if key.Matches(msg, k.PrevReview) {
			dir = -1
		}
		// First what can be approved now (a hook's tool before the hook), then anything
		// that needs review.
		if !m.tree.jumpNow(dir) && !m.tree.jumpReview(dir) {
			m.setFlash("Nothing here needs review.", false)
		}
		return m.selectionChanged()
	case pressed(msg, k.NextReview):
		m.setFlash("Nothing here needs review.", false)
	case key.Matches(msg, k.Views):
		// The command bar is the filter with a view word: it combines with other words.
		cmd := m.tree.startFilter()
		m.tree.filter.SetValue(":")
		m.tree.filter.CursorEnd()
		m.tree.cursor = 0
		m.tree.applyFilter() // the tree lists the views until one is named
		m.layout()
		m.updateKeys()
		return cmd
	case key.Matches(msg, k.Filter):
		cmd := m.tree.startFilter()
		m.layout()
		m.updateKeys()
		return cmd
	case key.Matches(msg, k.ClearFilter):
		m.tree.clearFilter()
		m.layout()
		return m.selectionChanged()
	case key.Matches(msg, k.Raw):
		m.detail.raw = !m.detail.raw
		return m.detail.refresh()
	case pressed(msg, k.Raw):
		m.setFlash("r switches between rendered and raw text on the Content tab of a skill or instruction.", false)
	case key.Matches(msg, k.Approve):
		p, c, _, _ := m.selection()
		if deps := m.unapprovedDeps(p, c); len(deps) > 0 {
			// A hook whose tool is not approved: one dialog for both, tools first.
			return m.explain(trust.ActionApprove, groupWithDep, p, append(deps, c))
		}
		return m.explain(trust.ActionApprove, groupOne, p, []*model.Component{c})
	case pressed(msg, k.Approve):
		m.setFlash("Cannot approve: "+m.approveReason(), true)
	case key.Matches(msg, k.ApproveAll):
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
	case pressed(msg, k.ApproveAll):
		m.setFlash("Cannot approve the package: "+m.approveAllReason(), true)
	case key.Matches(msg, k.Revoke) && m.removalApplies():
		return m.openRemoval()
	case key.Matches(msg, k.Revoke):
		p, c, _, _ := m.selection()
		return m.explain(trust.ActionRevoke, groupOne, p, []*model.Component{c})
	case pressed(msg, k.Revoke):
		m.setFlash("Cannot revoke: "+m.revokeReason(), true)
	case key.Matches(msg, k.Instructions):
		return m.openPrompt()
	case pressed(msg, k.Instructions):
		m.setFlash("Cannot activate: "+m.instructionsReason(), true)
	case key.Matches(msg, k.OpenFile):
		return m.openFileView(0)
	case pressed(msg, k.OpenFile):
		m.setFlash("Cannot open a file: "+m.openFileReason(), true)
	case key.Matches(msg, k.Market):
		m.openMarketView()
	case pressed(msg, k.Market) && msg.String() == "M":
		// Enter elsewhere does nothing, quietly; M was pressed for this.
		m.setFlash("Cannot open the marketplace table: "+m.marketReason(), true)
	case key.Matches(msg, k.Copy), key.Matches(msg, k.CopyDigest):
		return m.copySelection(key.Matches(msg, k.CopyDigest))
	}
	return nil
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
	switch {
	case m.keysHelp != nil:
		m.keysHelp.scroll(mouse.Button)
		return
	case m.dialog != nil:
		m.dialog.scroll(mouse.Button)
		return
	case m.prompt != nil:
		if mouse.Button == tea.MouseWheelUp {
			m.prompt.vp.ScrollUp(3)
		} else if mouse.Button == tea.MouseWheelDown {
			m.prompt.vp.ScrollDown(3)
		}
		return
	case m.fileView != nil:
		if mouse.Button == tea.MouseWheelUp {
			m.fileView.scrollBy(-3)
		} else if mouse.Button == tea.MouseWheelDown {
			m.fileView.scrollBy(3)
		}
		return
	}
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
	box, gen := m.trust, m.dataGen
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
	if msg.gen != m.dataGen {
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
	m.dialog = newDialog(m.common, msg.action, msg.group, msg.gen, entries)
	m.dialog.offered = msg.offered
	m.dialog.leftOut = left
	m.dialog.build()
	m.layout()
	m.updateKeys()
}

func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	d := m.dialog
	if d.noting {
		switch msg.String() {
		case "enter":
			d.noting = false
			d.note.Blur()
		case "esc":
			d.noting = false
			d.note.SetValue("")
			d.note.Blur()
		default:
			var cmd tea.Cmd
			d.note, cmd = d.note.Update(msg)
			d.build()
			d.vp.GotoBottom() // the note is the body's last block: keep it in view
			return cmd
		}
		d.build()
		m.updateKeys()
		return nil
	}
	switch {
	case key.Matches(msg, k.Confirm):
		return m.decide(d)
	case pressed(msg, k.Confirm):
		switch {
		case d.stale:
			m.setFlash("Nothing recorded: the sources were reloaded while the dialog was open. Close it and decide again.", true)
		case d.blocked != "":
			m.setFlash("Cannot "+strings.ToLower(d.verb())+": "+d.blocked, true)
		}
	case key.Matches(msg, k.Cancel):
		m.dialog = nil
		m.setFlash("Cancelled: nothing was recorded.", false)
		m.layout()
		m.updateKeys()
	case d.picking() && (msg.String() == "tab" || msg.String() == "shift+tab"):
		step := 1
		if msg.String() == "shift+tab" {
			step = len(d.entries) - 1
		}
		d.pick = (d.pick + step) % len(d.entries)
		d.build()
		m.updateKeys()
	case d.picking() && msg.String() == "space" && !d.stale:
		d.entries[d.pick].out = !d.entries[d.pick].out
		d.resolve()
		d.build()
		m.updateKeys()
	case msg.String() == "d" && d.hasDiff():
		d.hideDiff = !d.hideDiff
		d.build()
	case msg.String() == "m" && !d.stale:
		d.noting = true
		d.build()
		d.vp.GotoBottom() // a long dialog would leave the input below the screen
		m.updateKeys()
		return d.note.Focus()
	default:
		d.scrollKey(msg.String())
	}
	// Enter and every other key do nothing: only y records a decision.
	return nil
}

// decide records the decision in a command and re-evaluates there every package it can
// affect: the decided one and the copies that share its name (they share its refs).
func (m *Model) decide(d *dialog) tea.Cmd {
	if !d.canConfirm() || d.gen != m.dataGen {
		return nil
	}
	m.busy = true
	m.dialog = nil
	m.layout()
	m.updateKeys()
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
	if m.tooSmallNow() || mouse.Button != tea.MouseLeft || m.dialog != nil || m.prompt != nil ||
		m.fileView != nil || m.marketView != nil || m.keysHelp != nil || m.tree.editing || !m.loaded {
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

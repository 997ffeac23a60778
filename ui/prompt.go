package ui

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"vouch/model"
	"vouch/trust"
	"vouch/trust/instructions"
	"vouch/ui/display"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// targetPrompt is the instruction flow. Activation (i) asks where (codex, claude or a
// file); removal (x) lists the files the instruction is active in and lets the person
// pick one. Both then show the diff of that file before and after and write only on y.
// A block edited by hand since vouch wrote it shows the three versions and needs o
// before y: overwriting someone's edits is a separate decision from writing.
type targetPrompt struct {
	c      *common
	action string // instructions.ActionApply or instructions.ActionRemove
	// The instruction by what it is (never a position in the tree, which a reload
	// reorders): the objects shown, their root, ref and digest, and the data generation.
	pkg          *model.Package
	comp         *model.Component
	root, digest string
	gen          int
	stale        bool // the sources were reloaded: y writes nothing
	choice       int  // activation picker: 0 typing a path, i for targetChoices[i-1]
	ref          string
	input        textinput.Model // activation: where to write
	targets      []activeTarget  // removal: where the instruction is active
	cursor       int
	picking      bool // removal from several targets: the person is choosing one
	preview      *instructions.Preview
	dirs         []string // directories y would create above a new file
	dirsErr      error    // why the missing directories are not known
	note         string   // a caveat about the preview (the store lost what vouch wrote)
	overwrite    bool     // o was pressed on a hand-edited block: y now overwrites
	err          string
	loading      bool
	vp           viewport.Model
	width        int
	height       int
	body         string
}

// activeTarget is one file an instruction is active in, with what the file holds now.
type activeTarget struct {
	target        instructions.Target
	state, detail string
}

type (
	activationsMsg struct {
		ref     string
		targets []activeTarget
		err     error
	}
	previewMsg struct {
		ref     string
		action  string
		preview *instructions.Preview
		note    string
		// dirs are the directories the write would create (instructions.DirsToCreate),
		// dirsErr why it could not tell.
		dirs    []string
		dirsErr error
		err     error
	}
	committedMsg struct {
		action string
		ref    string
		target string
		status statusMap
		active map[string]int
		files  map[string][]instructions.InForce
		err    error
	}
)

func (t *targetPrompt) removing() bool { return t.action == instructions.ActionRemove }

// ready reports whether y writes now.
func (t *targetPrompt) ready() bool {
	return t != nil && !t.stale && t.preview != nil && !t.loading && (t.preview.Conflict == nil || t.overwrite)
}

// needsOverwrite reports whether the preview waits for o.
func (t *targetPrompt) needsOverwrite() bool {
	return t != nil && !t.stale && t.preview != nil && !t.loading && t.preview.Conflict != nil && !t.overwrite
}

// markStale is what a reload does to an open prompt: what it previews came from data
// that was replaced, so nothing can be written from it.
func (t *targetPrompt) markStale() {
	t.stale = true
	t.loading = false
	t.input.Blur()
}

// promptKeys is the help of the instruction flow, for the step it is at.
type promptKeys struct {
	k *KeyMap
	p *targetPrompt
}

func (p promptKeys) ShortHelp() []key.Binding {
	pr := p.p
	// While loading, and while typing a path, n is not a way out: only esc is.
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	switch {
	case pr == nil || pr.loading:
		return []key.Binding{esc}
	case pr.preview != nil:
		out := []key.Binding{p.k.Confirm, p.k.Overwrite, p.k.Cancel}
		if pr.canGoBack() {
			out = append(out, key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "other target")))
		}
		return out
	case pr.picking:
		return []key.Binding{
			key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("↑/↓", "choose")),
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview removal")),
			p.k.Cancel,
		}
	case pr.removing():
		return []key.Binding{esc}
	}
	enter := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview target"))
	return []key.Binding{enter, esc}
}
func (p promptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (t *targetPrompt) canGoBack() bool { return !t.removing() || len(t.targets) > 1 }

// instructionsReason says why `i` cannot apply, "" when it can.
func (m *Model) instructionsReason() string {
	_, c, _, ok := m.selection()
	switch {
	case !ok || c == nil:
		return "select an instruction component."
	case c.Kind != model.KindInstruction:
		return "only instructions are written to instruction files."
	case c.Validity != model.Valid || c.Contract == nil || len(c.Contract.Files) == 0:
		return "this instruction is not valid and cannot be activated."
	case m.busy:
		return "a decision is being recorded."
	}
	return ""
}

// removalApplies reports whether x on the selection removes an instruction block rather
// than revoking an approval: the ledger has it active in at least one file.
func (m *Model) removalApplies() bool {
	p, c, _, ok := m.selection()
	return ok && c != nil && c.Kind == model.KindInstruction && m.data.active[p.Ref(c)] > 0
}

func (m *Model) newPrompt(action string) *targetPrompt {
	p, c, _, _ := m.selection()
	pr := &targetPrompt{c: m.common, action: action, pkg: p, comp: c, root: p.Root, digest: trust.DigestOf(c), gen: m.data.gen, ref: p.Ref(c), vp: viewport.New()}
	pr.vp.SoftWrap = true
	return pr
}

func (m *Model) openPrompt() tea.Cmd {
	if _, c, _, ok := m.selection(); !ok || c == nil {
		return nil
	}
	pr := m.newPrompt(instructions.ActionApply)
	pr.input = textinput.New()
	pr.input.Prompt = "target> "
	pr.input.Placeholder = "codex, claude or a file path"
	pr.input.CharLimit = 4096
	pr.input.SetStyles(inputStyles(m.styles.IsDark))
	m.push(pr)
	return pr.input.Focus()
}

// openRemoval starts the removal flow: the ledger is read again in a command, so the
// list of files is the one in force now, not the one counted when the tree was drawn.
func (m *Model) openRemoval() tea.Cmd {
	p, c, _, ok := m.selection()
	if !ok || c == nil {
		return nil
	}
	pr := m.newPrompt(instructions.ActionRemove)
	pr.loading = true
	m.push(pr)
	ref, box := pr.ref, m.trust
	return func() tea.Msg {
		msg := activationsMsg{ref: ref}
		box.mu.Lock()
		defer box.mu.Unlock()
		if box.t == nil {
			msg.err = errors.New("the trust ledger is not open")
			return msg
		}
		ds, err := box.t.Decisions()
		if err != nil {
			msg.err = err
			return msg
		}
		for _, a := range instructions.Activations(ds) {
			if a.Ref != p.Ref(c) {
				continue
			}
			t, err := instructions.ResolveTarget(a.Target)
			if err != nil {
				t = instructions.Target{Spec: a.Target, Path: a.Target}
			}
			state, detail := instructions.CheckActivation(box.t.Home(), a)
			msg.targets = append(msg.targets, activeTarget{target: t, state: state, detail: detail})
		}
		sort.Slice(msg.targets, func(i, j int) bool { return msg.targets[i].target.Path < msg.targets[j].target.Path })
		return msg
	}
}

func (t *targetPrompt) SetSize(w, h int) {
	t.width, t.height = w, h
	fw := t.c.styles.Dialog.GetHorizontalFrameSize()
	fh := t.c.styles.Dialog.GetVerticalFrameSize()
	t.input.SetWidth(max(1, w-fw-len(t.input.Prompt)-1))
	t.vp.SetWidth(max(1, w-fw))
	t.vp.SetHeight(max(1, h-fh-8))
	if t.preview != nil {
		// The three versions are clipped to the width: build them again for this one.
		t.buildPreview()
	}
}

func (t *targetPrompt) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	return cmd
}

func (m *Model) closePrompt(flash string) {
	m.setFlash(flash, false)
	m.pop(m.prompt())
}

func (m *Model) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	pr := m.prompt()
	k := &m.keys
	if msg.String() == "esc" || (pr.stale && (msg.String() == "n" || msg.String() == "N")) {
		m.closePrompt("Cancelled: nothing was written.")
		return nil
	}
	if pr.stale {
		if msg.String() == "y" || msg.String() == "Y" {
			m.setFlash("Nothing written: the sources were reloaded while this was open. Close it (esc) and press i again.", true)
		}
		return nil
	}
	if pr.loading {
		return nil
	}
	if pr.preview != nil {
		switch {
		case key.Matches(msg, k.Confirm):
			return m.commitPreview()
		case pressed(msg, k.Confirm):
			if pr.needsOverwrite() {
				m.setFlash("The block was edited by hand: press o to overwrite those edits, then y.", true)
			}
		case key.Matches(msg, k.Overwrite):
			pr.overwrite = true
			m.flash = ""
			pr.buildPreview()
			m.updateKeys()
		case msg.String() == "n" || msg.String() == "N":
			m.closePrompt("Cancelled: nothing was written.")
		case msg.String() == "j" || msg.String() == "down":
			pr.vp.ScrollDown(1)
		case msg.String() == "k" || msg.String() == "up":
			pr.vp.ScrollUp(1)
		case msg.String() == "backspace" && pr.canGoBack():
			pr.preview, pr.err, pr.body, pr.note, pr.overwrite = nil, "", "", "", false
			m.flash = ""
			m.updateKeys()
			if pr.removing() {
				pr.picking = true
				return nil
			}
			return pr.input.Focus()
		}
		// Enter and every other key do nothing here: only y writes.
		return nil
	}
	if pr.removing() {
		if !pr.picking {
			return nil // an error is showing; esc closes
		}
		switch msg.String() {
		case "n", "N":
			m.closePrompt("Cancelled: nothing was written.")
		case "j", "down":
			pr.cursor = min(pr.cursor+1, len(pr.targets)-1)
		case "k", "up":
			pr.cursor = max(pr.cursor-1, 0)
		case "enter":
			// Enter shows the removal; it never writes.
			return m.previewRemoveCmd(pr.targets[pr.cursor].target)
		}
		return nil
	}
	switch msg.String() {
	case "enter":
		// Enter asks for a preview; it never writes.
		pr.loading, pr.err = true, ""
		m.updateKeys()
		return m.previewCmd(pr.input.Value())
	case "up", "down":
		// The picker: up and down fill the input with a scope; typing edits it freely.
		d := 1
		if msg.String() == "up" {
			d = -1
		}
		pr.choice = (pr.choice + d + len(targetChoices) + 1) % (len(targetChoices) + 1)
		if pr.choice > 0 {
			pr.input.SetValue(targetChoices[pr.choice-1].spec)
		} else {
			pr.input.SetValue("")
		}
		pr.input.CursorEnd()
		return nil
	}
	return pr.update(msg)
}

// targetChoices are the scopes the activation picker offers; "a path" is typing one.
var targetChoices = []struct{ spec, label string }{
	{"AGENTS.md", "AGENTS.md in this directory: this project, read by Codex"},
	{"CLAUDE.md", "CLAUDE.md in this directory: this project, read by Claude Code"},
	{"codex", "codex: the user-global Codex file, GLOBAL: every project"},
	{"claude", "claude: the user-global Claude Code file, GLOBAL: every project"},
}

func (m *Model) previewCmd(spec string) tea.Cmd {
	pr := m.prompt()
	p, c := pr.pkg, pr.comp
	ref := pr.ref
	box := m.trust
	return func() tea.Msg {
		msg := previewMsg{ref: ref, action: instructions.ActionApply}
		// Resolved before the preview, so it can name the file a link leads to.
		target, err := instructions.ResolveTarget(spec)
		if err != nil {
			msg.err = err
			return msg
		}
		if err := instructions.CheckTarget(target, p); err != nil {
			msg.err = err
			return msg
		}
		body, err := instructions.Body(p, c)
		if err != nil {
			msg.err = err
			return msg
		}
		last, note := lastWritten(box, ref, target.Path)
		msg.note = note
		msg.preview, msg.err = instructions.PreviewApply(target, instructions.BlockID(p.Name, c.ID), body, last)
		if msg.err == nil && !msg.preview.Exists {
			msg.dirs, msg.dirsErr = instructions.DirsToCreate(target)
		}
		return msg
	}
}

func (m *Model) previewRemoveCmd(target instructions.Target) tea.Cmd {
	pr := m.prompt()
	pr.loading, pr.picking, pr.err = true, false, ""
	m.updateKeys()
	p, c := pr.pkg, pr.comp
	ref := pr.ref
	box := m.trust
	return func() tea.Msg {
		msg := previewMsg{ref: ref, action: instructions.ActionRemove}
		last, note := lastWritten(box, ref, target.Path)
		if last == "" {
			// No record of what vouch wrote here: the package's current text is the best
			// baseline (as vouch instructions remove does); anything else counts as edited.
			if body, err := instructions.Body(p, c); err == nil {
				last = body
			}
		}
		msg.note = note
		msg.preview, msg.err = instructions.PreviewRemove(target, instructions.BlockID(p.Name, c.ID), last)
		return msg
	}
}

// lastWritten is the text vouch last wrote for ref at target, as the ledger and the store
// say; "" when unknown, with a note when the store lost it (then any difference counts as
// a hand edit, the safe side).
func lastWritten(box *trustBox, ref, target string) (body, note string) {
	box.mu.Lock()
	defer box.mu.Unlock()
	if box.t == nil {
		return "", ""
	}
	ds, err := box.t.Decisions()
	if err != nil {
		return "", "The ledger could not be read (" + err.Error() + "); a changed block counts as edited by hand."
	}
	body, err = instructions.LastWritten(box.t.Home(), ds, ref, target)
	if err != nil {
		return "", "The text vouch last wrote here is not in the store (" + err.Error() + "); a changed block counts as edited by hand."
	}
	return body, ""
}

// activeCounts is, per instruction ref, the number of files the ledger has it active in;
// files lists, per ref, every block in force and what its file holds now (as `vouch
// instructions list` does: a hand-edited copy says so). Both nil when the ledger cannot
// be read. It reads target files: commands only.
func activeCounts(t *trust.Trust) (counts map[string]int, files map[string][]instructions.InForce) {
	ds, err := t.Decisions()
	if err != nil {
		return nil, nil
	}
	counts = map[string]int{}
	for _, a := range instructions.Activations(ds) {
		counts[a.Ref]++
	}
	files = map[string][]instructions.InForce{}
	for _, f := range instructions.ListInForce(t.Home(), ds) {
		files[f.Ref] = append(files[f.Ref], f)
	}
	return counts, files
}

// commitPreview writes the previewed change and records the decision that goes with it
// (approve with the target for an activation, revoke with the target for a removal). If
// the ledger refuses, the file is put back: the file and the ledger must agree.
func (m *Model) commitPreview() tea.Cmd {
	pr := m.prompt()
	pv, overwrite, action := pr.preview, pr.overwrite, pr.action
	// The box showed the file a linked target resolves to, and y was pressed on a line
	// naming it: that confirms exactly this destination (Commit checks it again).
	pv.Confirmed = pv.Target.Resolved
	if pr.stale || pr.gen != m.data.gen {
		return nil
	}
	p, c, shown := pr.pkg, pr.comp, pr.digest
	affected := m.data.sameName(p)
	m.busy = true
	m.pop(pr)
	box := m.trust
	return func() tea.Msg {
		msg := committedMsg{action: action, ref: p.Ref(c), target: pv.Target.Path}
		box.mu.Lock()
		defer box.mu.Unlock()
		if box.t == nil {
			msg.err = errors.New("the trust ledger is not open; nothing was written")
			return msg
		}
		// The prompt showed this digest: if the component is no longer it, nothing is
		// written (Record decides at the component's current digest).
		if now := trust.DigestOf(c); now != shown {
			msg.err = fmt.Errorf("%w: %s was shown at %s but is now %s; nothing was written", trust.ErrDigestMismatch, p.Ref(c), shown, now)
			return msg
		}
		_, msg.err = instructions.Record(box.t, p, c, pv, overwrite, trust.ReviewerHuman)
		msg.status = compactStatuses(box.t.EvaluateAll(affected))
		msg.active, msg.files = activeCounts(box.t)
		return msg
	}
}

func (m *Model) onInstructions(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case activationsMsg:
		pr := m.prompt()
		if pr == nil || pr.ref != msg.ref || !pr.removing() || !pr.loading {
			return nil
		}
		pr.loading = false
		pr.targets = msg.targets
		switch {
		case msg.err != nil:
			pr.err = msg.err.Error()
		case len(msg.targets) == 0:
			pr.err = "The ledger has this instruction active in no file now; there is nothing to remove."
		case len(msg.targets) == 1:
			return m.previewRemoveCmd(msg.targets[0].target)
		default:
			pr.picking = true
		}
		m.updateKeys()
	case previewMsg:
		pr := m.prompt()
		if pr == nil || pr.ref != msg.ref || pr.action != msg.action || !pr.loading {
			return nil
		}
		pr.loading = false
		if msg.err != nil {
			pr.err = msg.err.Error()
			if pr.removing() && len(pr.targets) > 1 {
				pr.picking = true
			}
			m.updateKeys()
			return nil
		}
		pr.preview, pr.note, pr.overwrite = msg.preview, msg.note, false
		pr.dirs, pr.dirsErr = msg.dirs, msg.dirsErr
		pr.input.Blur()
		m.layout()
		pr.buildPreview()
		m.updateKeys()
	case committedMsg:
		m.absorbDecision(msg.status, msg.active, msg.files)
		switch {
		case msg.err != nil && msg.action == instructions.ActionRemove:
			m.setFlash("Nothing removed: "+display.Line(msg.err.Error()), true)
		case msg.err != nil:
			m.setFlash("Nothing activated: "+display.Line(msg.err.Error()), true)
		case msg.action == instructions.ActionRemove:
			m.setFlash("Removed "+display.Line(msg.ref)+" from "+display.Line(msg.target)+" and recorded the revocation.", false)
		default:
			m.setFlash("Wrote "+display.Line(msg.ref)+" to "+display.Line(msg.target)+" and recorded the approval.", false)
		}
		return m.afterDecision()
	}
	return nil
}

// maxVersionLines bounds each of the three versions of a hand-edited block; the diff
// below them has the whole change.
const maxVersionLines = 12

func (t *targetPrompt) buildPreview() {
	s := t.c.styles
	b := &textBuilder{s: s}
	pv := t.preview
	width := max(1, t.vp.Width())
	b.field("Target", pv.Target.Path)
	if pv.Target.Linked() {
		b.field("Writes to", pv.Target.Resolved)
		b.line(s.Bad.Render("⚠ " + b.esc(pv.Target.Path) + " is a symbolic link (or lies in a linked directory): y writes " + b.esc(pv.Target.Resolved) + " and keeps the link."))
	}
	b.field("Applies to", pv.Target.AppliesTo)
	if !pv.Exists && !t.removing() {
		// What y creates besides the file: a missing ~/.codex, or the folders of a path.
		switch {
		case t.dirsErr != nil:
			b.line(s.Bad.Render("⚠ " + b.esc(t.dirsErr.Error())))
		case len(t.dirs) == 1:
			b.line(s.Warn.Render(fmt.Sprintf("! The directory %s does not exist: y creates it (mode %04o, only you) and the file in it.", b.esc(t.dirs[0]), instructions.DirMode)))
		case len(t.dirs) > 1:
			b.line(s.Warn.Render(fmt.Sprintf("! %d directories do not exist: y creates them (mode %04o, only you) and the file:", len(t.dirs), instructions.DirMode)))
			for _, dir := range t.dirs {
				b.line("    " + b.esc(dir))
			}
		default:
			b.line(s.Dim.Render("The file does not exist yet: y creates it."))
		}
	}
	if t.note != "" {
		b.line(s.Dim.Render(b.esc(t.note)))
	}
	if c := pv.Conflict; c != nil {
		b.blank()
		b.line(s.Bad.Render("⚠ The block was edited by hand since vouch wrote it."))
		if t.removing() {
			b.line("Removing it deletes those edits with the block.")
		} else {
			b.line("Writing replaces those edits with the package's text.")
		}
		if t.overwrite {
			b.line(s.Bold.Render("Overwrite chosen: y writes, n or esc cancels."))
		} else {
			b.line("Nothing is written unless you press o (overwrite), then y.")
		}
		t.version(b, "Last written by vouch", c.LastWritten, "(vouch has no record of the text it wrote here)", width)
		t.version(b, "Now in the file", c.Current, "(empty)", width)
		if t.removing() {
			t.version(b, "After removal", "", "(no block: it and the edits are gone)", width)
		} else {
			t.version(b, "vouch would write", c.New, "(empty)", width)
		}
	}
	switch {
	case pv.NoChange && t.removing():
		b.blank()
		b.line("The file no longer holds this block; y records the removal in the ledger.")
	case pv.NoChange:
		b.blank()
		b.line("The file already holds this text; y records the activation in the ledger.")
	default:
		b.blank()
		b.heading("The whole file, before and after")
		writeUnified(b, pv.Diff)
	}
	t.body = b.String()
	t.vp.SetContent(ansi.Wrap(t.body, width, ""))
}

// version writes one of the three versions, escaped and clipped to the pane: long lines
// are cut, and past maxVersionLines a count says what is left.
func (t *targetPrompt) version(b *textBuilder, title, text, empty string, width int) {
	s := t.c.styles
	b.blank()
	b.heading(title)
	if text == "" {
		b.line(s.Dim.Render("  " + empty))
		return
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == maxVersionLines {
			b.line(s.Dim.Render(fmt.Sprintf("  … %d more lines (the diff below has them all)", len(lines)-i)))
			break
		}
		b.line(ansi.Truncate("│ "+strings.ReplaceAll(b.esc(l), "\t", "    "), width, "…"))
	}
}

// View renders the flow's box.
func (t *targetPrompt) View() string {
	s := t.c.styles
	fw := s.Dialog.GetHorizontalFrameSize()
	inner := max(1, t.width-fw)
	title := "Activate "
	if t.removing() {
		title = "Remove "
	}
	lines := []string{fit(s.DialogTitle.Render(title+display.Line(t.ref)), inner), ""}
	lines = append(lines, fit(s.Dim.Render("Location: "+display.Line(t.root)+"  digest "+short(display.Line(t.digest))), inner))
	if n := t.c.data.copies(t.pkg); n > 1 {
		lines = append(lines, fit(s.Warn.Render(fmt.Sprintf("! %d packages here are named %s; this is the copy above.", n, display.Line(t.pkg.Name))), inner))
	}
	if t.stale {
		lines = append(lines, fit(s.Bad.Render("⚠ The sources were reloaded while this was open: nothing can be written from it."), inner),
			fit(s.Dim.Render("esc closes; press i again to start over."), inner))
		return s.Dialog.Width(t.width).Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
	}
	switch {
	case t.preview != nil:
		if !t.vp.AtBottom() {
			lines[1] = fit(s.Dim.Render(fmt.Sprintf("↓ more (%d%%) — j/pgdn scrolls", int(t.vp.ScrollPercent()*100))), inner)
		}
		lines = append(lines, t.vp.View(), "")
		back := ""
		if t.canGoBack() {
			back = "   backspace: other target"
		}
		switch {
		case t.needsOverwrite():
			lines = append(lines, fit(s.Bold.Render("o overwrite the hand edits, then y")+"   "+s.Dim.Render("n/esc cancel"+back), inner))
		case t.preview.Conflict != nil && t.preview.Target.Linked():
			lines = append(lines, fit(s.Bold.Render("y overwrite and write "+display.Line(t.preview.Target.Resolved)+" (the link's destination)")+"   "+s.Dim.Render("n/esc cancel"+back), inner))
		case t.preview.Conflict != nil:
			lines = append(lines, fit(s.Bold.Render("y overwrite and write")+"   "+s.Dim.Render("n/esc cancel"+back+"   (enter does nothing)"), inner))
		case t.preview.Target.Linked() && !t.preview.NoChange:
			lines = append(lines, fit(s.Bold.Render("y write "+display.Line(t.preview.Target.Resolved)+" (the link's destination)")+"   "+s.Dim.Render("n/esc cancel"+back), inner))
		default:
			lines = append(lines, fit(s.Bold.Render("y write this change")+"   "+s.Dim.Render("n/esc cancel"+back+"   (enter does nothing)"), inner))
		}
	case t.removing():
		switch {
		case t.loading:
			lines = append(lines, s.Dim.Render("Finding where this instruction is active…"))
		case t.picking:
			lines = append(lines, fit(fmt.Sprintf("Active in %d files. Remove it from which one?", len(t.targets)), inner), "")
			// Two rows a file; a long list scrolls with the cursor so the box fits the body.
			rows := max(1, (t.height-s.Dialog.GetVerticalFrameSize()-8)/2)
			first := max(0, t.cursor-rows+1)
			for i, at := range t.targets {
				if i < first || i >= first+rows {
					continue
				}
				mark := "  "
				if i == t.cursor {
					mark = "› "
				}
				row := fmt.Sprintf("%s%d. %s", mark, i+1, display.Line(at.target.Path))
				if i == t.cursor {
					row = s.Bold.Render(row)
				}
				lines = append(lines, fit(row, inner))
				lines = append(lines, fit(s.Dim.Render("     "+display.Line(at.state+": "+at.detail)), inner))
			}
			lines = append(lines, "", fit(s.Dim.Render("enter shows the removal first; nothing is written before y"), inner))
		}
		if t.err != "" {
			lines = append(lines, "", s.Error.Render(fit(display.Line(t.err), inner)))
		}
		if !t.picking && !t.loading {
			lines = append(lines, "", fit(s.Dim.Render("esc closes"), inner))
		}
	default:
		lines = append(lines, fit("Where should this instruction apply? ↑/↓ picks a scope, or type a file path.", inner), "")
		for i, c := range targetChoices {
			mark := "  "
			row := fmt.Sprintf("%d. %s", i+1, c.label)
			if t.choice == i+1 {
				mark = "› "
				row = s.Bold.Render(row)
			}
			lines = append(lines, fit(mark+row, inner))
		}
		lines = append(lines, "", t.input.View())
		if t.loading {
			lines = append(lines, "", s.Dim.Render("Preparing the preview…"))
		}
		if t.err != "" {
			lines = append(lines, "", s.Error.Render(fit(display.Line(t.err), inner)))
		}
		lines = append(lines, "", fit(s.Dim.Render("enter shows the change first; nothing is written before y"), inner))
	}
	return s.Dialog.Width(t.width).Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

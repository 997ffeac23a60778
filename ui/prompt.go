package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

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

// targetPrompt is the instruction activation flow: ask where (codex, claude or a file),
// show the diff of that file before and after, and write only on y.
type targetPrompt struct {
	c         *common
	pkg, comp int
	ref       string
	input     textinput.Model
	preview   *instructions.Preview
	err       string
	loading   bool
	vp        viewport.Model
	width     int
	height    int
	body      string
}

type (
	previewMsg struct {
		ref     string
		preview *instructions.Preview
		err     error
	}
	committedMsg struct {
		ref    string
		target string
		pkg    int
		status map[string]trust.Status
		err    error
	}
)

// promptKeys is the help of the activation flow.
type promptKeys struct{ k *KeyMap }

func (p promptKeys) ShortHelp() []key.Binding {
	enter := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "preview target"))
	if p.k.Confirm.Enabled() {
		enter.SetEnabled(false) // the preview is showing: only y writes
	}
	return []key.Binding{enter, p.k.Confirm, p.k.Cancel}
}
func (p promptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

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

func (m *Model) openPrompt() tea.Cmd {
	p, c, it, ok := m.selection()
	if !ok || c == nil {
		return nil
	}
	ti := textinput.New()
	ti.Prompt = "target> "
	ti.Placeholder = "codex, claude or a file path"
	ti.CharLimit = 4096
	ti.SetStyles(inputStyles(m.styles.IsDark))
	m.prompt = &targetPrompt{c: m.common, pkg: it.pkg, comp: it.comp, ref: p.Ref(c), input: ti, vp: viewport.New()}
	m.prompt.vp.SoftWrap = true
	m.layout()
	m.updateKeys()
	return m.prompt.input.Focus()
}

func (t *targetPrompt) SetSize(w, h int) {
	t.width, t.height = w, h
	fw := t.c.styles.Dialog.GetHorizontalFrameSize()
	fh := t.c.styles.Dialog.GetVerticalFrameSize()
	t.input.SetWidth(max(1, w-fw-len(t.input.Prompt)-1))
	t.vp.SetWidth(max(1, w-fw))
	t.vp.SetHeight(max(1, h-fh-6))
	if t.body != "" {
		t.vp.SetContent(ansi.Wrap(t.body, max(1, t.vp.Width()), ""))
	}
}

func (t *targetPrompt) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	return cmd
}

func (m *Model) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	pr := m.prompt
	switch msg.String() {
	case "esc":
		m.prompt = nil
		m.setFlash("Cancelled: nothing was written.", false)
		m.layout()
		m.updateKeys()
		return nil
	}
	if pr.preview != nil {
		switch {
		case key.Matches(msg, m.keys.Confirm):
			return m.commitPreview()
		case msg.String() == "n" || msg.String() == "N":
			m.prompt = nil
			m.setFlash("Cancelled: nothing was written.", false)
			m.layout()
			m.updateKeys()
		case msg.String() == "j" || msg.String() == "down" || key.Matches(msg, m.keys.PageDown):
			pr.vp.ScrollDown(1)
		case msg.String() == "k" || msg.String() == "up" || key.Matches(msg, m.keys.PageUp):
			pr.vp.ScrollUp(1)
		case msg.String() == "backspace":
			pr.preview, pr.err, pr.body = nil, "", ""
			m.updateKeys()
			return pr.input.Focus()
		}
		return nil
	}
	if pr.loading {
		return nil
	}
	if msg.String() == "enter" {
		// Enter asks for a preview; it never writes.
		pr.loading, pr.err = true, ""
		return m.previewCmd(pr.input.Value())
	}
	return pr.update(msg)
}

func (m *Model) previewCmd(spec string) tea.Cmd {
	p := m.data.pkgs[m.prompt.pkg]
	c := p.Components[m.prompt.comp]
	ref := m.prompt.ref
	home := m.opts.Home
	box := m.trust
	return func() tea.Msg {
		target, err := instructions.ResolveTarget(spec)
		if err != nil {
			return previewMsg{ref: ref, err: err}
		}
		body, err := instructionBody(p, c)
		if err != nil {
			return previewMsg{ref: ref, err: err}
		}
		last := lastWritten(box, home, ref, target.Path)
		pv, err := instructions.PreviewApply(target, instructions.BlockID(p.Name, c.ID), body, last)
		return previewMsg{ref: ref, preview: pv, err: err}
	}
}

// lastWritten is the text vouch last wrote for ref at target: the approved body in the
// store, "" when unknown (then any difference counts as a hand edit).
func lastWritten(box *trustBox, home, ref, target string) string {
	box.mu.Lock()
	defer box.mu.Unlock()
	if box.t == nil {
		return ""
	}
	ds, err := box.t.Decisions()
	if err != nil {
		return ""
	}
	for _, d := range ds {
		if d.Component == ref && d.Target == target {
			if d.Action != trust.ActionApprove {
				return ""
			}
			body, err := instructions.StoredBody(home, d.Digest)
			if err != nil {
				return ""
			}
			return body
		}
	}
	return ""
}

// instructionBody reads the exact bytes the contract binds and checks them against the
// recorded hash, so what is written is what is approved.
func instructionBody(p *model.Package, c *model.Component) (string, error) {
	if c.Contract == nil || len(c.Contract.Files) == 0 {
		return "", errors.New("this instruction has no approved file")
	}
	f := c.Contract.Files[0]
	if p.Reader == nil {
		return c.Body, nil
	}
	data, err := p.Reader.ReadFile(f.Path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return "", fmt.Errorf("%s changed since it was loaded; reload the review", f.Path)
	}
	return string(data), nil
}

func (m *Model) commitPreview() tea.Cmd {
	pr := m.prompt
	pv := pr.preview
	p := m.data.pkgs[pr.pkg]
	c := p.Components[pr.comp]
	idx := pr.pkg
	m.prompt = nil
	m.busy = true
	m.layout()
	m.updateKeys()
	box := m.trust
	return func() tea.Msg {
		msg := committedMsg{ref: p.Ref(c), target: pv.Target.Path, pkg: idx}
		if err := instructions.Commit(pv, false); err != nil {
			msg.err = err
			return msg
		}
		box.mu.Lock()
		defer box.mu.Unlock()
		if box.t == nil {
			msg.err = errors.New("the trust ledger is not open")
		} else {
			_, msg.err = box.t.Approve(p, c, trust.DecideOptions{ReviewerKind: "human", Target: pv.Target.Path, Note: "instruction applied to " + pv.Target.Path})
			msg.status = box.t.Evaluate(p)
		}
		if msg.err != nil {
			// The file and the ledger must agree: undo the write.
			if rerr := instructions.Revert(pv); rerr != nil {
				msg.err = fmt.Errorf("%v; the file was written and could not be restored: %v", msg.err, rerr)
			} else {
				msg.err = fmt.Errorf("%v; the file was restored", msg.err)
			}
		}
		return msg
	}
}

func (m *Model) onInstructions(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case previewMsg:
		pr := m.prompt
		if pr == nil || pr.ref != msg.ref {
			return nil
		}
		pr.loading = false
		if msg.err != nil {
			pr.err = msg.err.Error()
			return nil
		}
		pr.preview = msg.preview
		pr.input.Blur()
		pr.buildPreview()
		m.layout()
		m.updateKeys()
	case committedMsg:
		m.busy = false
		if msg.err != nil {
			m.setFlash("Nothing activated: "+display.Line(msg.err.Error()), true)
		} else {
			m.setFlash("Wrote "+display.Line(msg.ref)+" to "+display.Line(msg.target)+" and recorded the approval.", false)
		}
		return m.onDecided(decidedMsg{action: trust.ActionApprove, ref: msg.ref, pkg: msg.pkg, status: msg.status, err: errSilent(msg.err)})
	}
	return nil
}

// errSilent keeps onDecided from overwriting the flash the caller already set.
func errSilent(err error) error { return err }

func (t *targetPrompt) buildPreview() {
	s := t.c.styles
	b := &textBuilder{s: s}
	pv := t.preview
	b.field("Target", pv.Target.Path)
	b.field("Applies to", pv.Target.AppliesTo)
	if pv.Conflict != nil {
		b.line(s.Bad.Render("The block was edited by hand since vouch wrote it; nothing will be written here."))
		b.line("Keep the edits, or use: vouch instructions apply --overwrite")
	}
	if pv.NoChange {
		b.line("The file already holds this text; y records the activation in the ledger.")
	} else {
		b.blank()
		writeUnified(b, pv.Diff)
	}
	t.body = b.String()
	t.vp.SetContent(ansi.Wrap(t.body, max(1, t.vp.Width()), ""))
}

// View renders the flow's box.
func (t *targetPrompt) View() string {
	s := t.c.styles
	fw := s.Dialog.GetHorizontalFrameSize()
	inner := max(1, t.width-fw)
	lines := []string{fit(s.DialogTitle.Render("Activate "+display.Line(t.ref)), inner), ""}
	switch {
	case t.preview != nil:
		lines = append(lines, t.vp.View(), "")
		if t.preview.Conflict == nil {
			lines = append(lines, fit(s.Bold.Render("y write this change")+"   "+s.Dim.Render("n/esc cancel   backspace: other target"), inner))
		} else {
			lines = append(lines, fit(s.Dim.Render("n/esc close   backspace: other target"), inner))
		}
	default:
		lines = append(lines, fit("Where should this instruction apply? codex, claude, or a file path.", inner), "", t.input.View())
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

package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// How each modal view takes its place on the stack (stack.go). Its keys are handled
// where the view is written; here it says how it is drawn, sized, scrolled and what a
// reload does to it.

// centred draws a framed modal in the middle of the body.
func centred(w, h int, content string) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, content)
}

// wheelBy scrolls by three lines a notch, the step of every modal.
func wheelBy(b tea.MouseButton, scroll func(n int)) {
	switch b {
	case tea.MouseWheelUp:
		scroll(-3)
	case tea.MouseWheelDown:
		scroll(3)
	}
}

// modalWidth is the outer width of a dialog or prompt: the window less a margin, at most
// 100 cells.
func modalWidth(w int) int { return min(w-2, 100) }

// The confirmation of an approval or revocation.

func (d *dialog) wheel(_ *Model, mouse tea.Mouse)                 { d.scroll(mouse.Button) }
func (d *dialog) draw(m *Model, w, h int, _ func() string) string { return centred(w, h, d.view(m)) }
func (d *dialog) keyMap(m *Model) help.KeyMap                     { return dialogKeys{&m.keys} }
func (d *dialog) setSize(w, h int)                                { d.SetSize(modalWidth(w), h) }

// reloaded keeps the dialog, stale: what it shows came from the data just replaced.
func (d *dialog) reloaded() bool {
	d.markStale()
	return true
}

// noteInput is the note being typed in a dialog (m): it takes every key as text, n and y
// included, until enter keeps the note or esc drops it. It is drawn inside its dialog.
type noteInput struct{ d *dialog }

// startNote focuses d's note input and puts it on the stack.
func (m *Model) startNote(d *dialog) tea.Cmd {
	d.noting = true
	d.build()
	d.vp.GotoBottom() // a long dialog would leave the input below the screen
	m.push(&noteInput{d: d})
	return d.note.Focus()
}

func (n *noteInput) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	d := n.d
	switch msg.String() {
	case "enter":
	case "esc":
		d.note.SetValue("")
	default:
		var cmd tea.Cmd
		d.note, cmd = d.note.Update(msg)
		d.build()
		d.vp.GotoBottom() // the note is the body's last block: keep it in view
		return cmd
	}
	d.noting = false
	d.note.Blur()
	d.build()
	m.pop(n)
	return nil
}

func (n *noteInput) wheel(_ *Model, mouse tea.Mouse)                     { n.d.scroll(mouse.Button) }
func (n *noteInput) draw(_ *Model, _, _ int, under func() string) string { return under() }
func (n *noteInput) keyMap(m *Model) help.KeyMap                         { return dialogKeys{&m.keys} }
func (n *noteInput) setSize(int, int)                                    {}

// reloaded drops the input: the dialog, marked stale, has ended the note.
func (n *noteInput) reloaded() bool { return false }

// The instruction flow (i, or x on an active instruction).

func (t *targetPrompt) key(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.promptKey(msg) }
func (t *targetPrompt) wheel(_ *Model, mouse tea.Mouse) {
	wheelBy(mouse.Button, func(n int) {
		if n < 0 {
			t.vp.ScrollUp(-n)
		} else {
			t.vp.ScrollDown(n)
		}
	})
}
func (t *targetPrompt) draw(_ *Model, w, h int, _ func() string) string {
	return centred(w, h, t.View())
}
func (t *targetPrompt) keyMap(m *Model) help.KeyMap { return promptKeys{&m.keys, t} }
func (t *targetPrompt) setSize(w, h int)            { t.SetSize(modalWidth(w), h) }

// reloaded keeps the prompt, stale: nothing can be written from what it previews.
func (t *targetPrompt) reloaded() bool {
	t.markStale()
	return true
}

// The file view of a component's closure files (f).

func (fv *fileView) key(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.fileViewKey(msg) }
func (fv *fileView) wheel(_ *Model, mouse tea.Mouse)           { wheelBy(mouse.Button, fv.scrollBy) }
func (fv *fileView) draw(_ *Model, _, _ int, _ func() string) string {
	return fv.View()
}
func (fv *fileView) keyMap(*Model) help.KeyMap { return closeKeys{} }
func (fv *fileView) setSize(w, h int)          { fv.SetSize(w, h) }

// reloaded closes the view: it shows a file of the packages just replaced.
func (fv *fileView) reloaded() bool { return false }

// The table of a marketplace's entries (M, or enter on a marketplace row).

func (mv *marketView) key(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.marketKey(mv, msg) }
func (mv *marketView) wheel(_ *Model, mouse tea.Mouse) {
	wheelBy(mouse.Button, func(n int) {
		mv.cursor += n
		mv.clamp()
	})
}
func (mv *marketView) draw(_ *Model, _, _ int, _ func() string) string { return mv.View() }
func (mv *marketView) keyMap(*Model) help.KeyMap                       { return closeKeys{} }
func (mv *marketView) setSize(w, h int)                                { mv.SetSize(w, h) }

// reloaded closes the table: its entries and their risks came from the data just
// replaced.
func (mv *marketView) reloaded() bool { return false }

// The `?` sheet of every key.

func (ks *keySheet) key(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.keySheetKey(ks, msg) }
func (ks *keySheet) wheel(_ *Model, mouse tea.Mouse)           { ks.scroll(mouse.Button) }
func (ks *keySheet) draw(m *Model, w, h int, _ func() string) string {
	return ks.view(m, w, h)
}
func (ks *keySheet) keyMap(*Model) help.KeyMap { return closeKeys{} }
func (ks *keySheet) setSize(int, int)          {}
func (ks *keySheet) reloaded() bool            { return true }

// filterMode is the tree's filter input with focus (/, or : for a view): keys are typed
// into it until enter keeps the filter or esc clears it. It is drawn inside the tree, and
// the wheel still scrolls the panes.
type filterMode struct{}

func (f *filterMode) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	cmd := m.tree.updateFilter(msg)
	if !m.tree.editing {
		m.pop(f)
	}
	return tea.Batch(cmd, m.selectionChanged())
}

func (f *filterMode) wheel(m *Model, mouse tea.Mouse)                     { m.wheelBase(mouse) }
func (f *filterMode) draw(_ *Model, _, _ int, under func() string) string { return under() }
func (f *filterMode) keyMap(m *Model) help.KeyMap                         { return filterKeys{&m.keys} }
func (f *filterMode) setSize(int, int)                                    {}
func (f *filterMode) reloaded() bool                                      { return true }

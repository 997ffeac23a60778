package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// layer is one modal view on the console's stack: a dialog, the instruction prompt, the
// note input, the file view, the marketplace table, the key sheet or the filter input. The browsing screen (tree
// and detail pane) is the base under every layer. Only the top layer gets keys and the
// wheel, and it says what the help line offers; View draws the base or the top.
type layer interface {
	// key handles a key press while the layer is on top.
	key(m *Model, msg tea.KeyPressMsg) tea.Cmd
	// wheel scrolls the layer; the selection hidden behind it never moves.
	wheel(m *Model, mouse tea.Mouse)
	// draw draws the area between the header and the status line, exactly w × h.
	// under draws what the layers below show, for a layer that is drawn inside them
	// (the filter input is part of the tree, the note input part of its dialog).
	draw(m *Model, w, h int, under func() string) string
	// keyMap is the help line while the layer is on top.
	keyMap(m *Model) help.KeyMap
	// setSize gives the layer the window width and the body height.
	setSize(w, h int)
	// reloaded is what a reload does to the layer: it keeps it (a dialog, marked stale
	// so it records nothing) or drops it (false).
	reloaded() bool
}

// push puts l on top of the stack and sizes it.
func (m *Model) push(l layer) {
	m.modals = append(m.modals, l)
	m.layout()
	m.updateKeys()
}

// pop removes l and every layer above it (a layer drawn inside l goes with it). A layer
// no longer on the stack is left alone: closing twice is harmless.
func (m *Model) pop(l layer) {
	for i := len(m.modals) - 1; i >= 0; i-- {
		if m.modals[i] == l {
			clear(m.modals[i:])
			m.modals = m.modals[:i]
			break
		}
	}
	m.layout()
	m.updateKeys()
}

// top is the layer that gets keys, nil while browsing.
func (m *Model) top() layer {
	if len(m.modals) == 0 {
		return nil
	}
	return m.modals[len(m.modals)-1]
}

// onStack is the topmost layer of type T on the stack (the zero value when there is none).
func onStack[T layer](m *Model) T {
	for i := len(m.modals) - 1; i >= 0; i-- {
		if l, ok := m.modals[i].(T); ok {
			return l
		}
	}
	var zero T
	return zero
}

// The layers a message or a test asks for by kind.
func (m *Model) dialog() *dialog         { return onStack[*dialog](m) }
func (m *Model) prompt() *targetPrompt   { return onStack[*targetPrompt](m) }
func (m *Model) fileView() *fileView     { return onStack[*fileView](m) }
func (m *Model) marketView() *marketView { return onStack[*marketView](m) }

// reloadStack is what a reload does to the stack: each layer says whether it stays.
func (m *Model) reloadStack() {
	kept := m.modals[:0]
	for _, l := range m.modals {
		if l.reloaded() {
			kept = append(kept, l)
		}
	}
	clear(m.modals[len(kept):])
	m.modals = kept
}

// bodyOf draws layer i of the stack (-1: the base) in w × h.
func (m *Model) bodyOf(i, w, h int) string {
	if i < 0 {
		return m.baseView()
	}
	return m.modals[i].draw(m, w, h, func() string { return m.bodyOf(i-1, w, h) })
}

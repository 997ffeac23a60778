package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// dialogAction is one key binding of a confirmation dialog: its keys, what it does, its
// part of the dialog's footer, why it does nothing now and the handler. The dialog's
// dispatcher, its footer and the `?` sheet's part for dialogs are read from
// dialogActions.
type dialogAction struct {
	keys []string // as tea.KeyPressMsg.String() spells them
	desc string   // what it does, in the `?` sheet
	// foot is the action's part of the footer ("" for none), shown while it applies.
	foot string
	// off says why it does nothing now ("" when it applies); nil: it always applies. An
	// action that is off leaves its keys to the next action that has them (space marks
	// an entry of a package approval and scrolls any other dialog).
	off func(m *Model, d *dialog) string
	run func(m *Model, d *dialog) tea.Cmd
}

// dialogActions is the dialog's table, in the sheet's order; the footer lists the parts
// of those that apply in the same order, after y.
func dialogActions() []dialogAction {
	return []dialogAction{
		{keys: []string{"y"}, desc: "record the decision (enter never does)", off: confirmReason, run: (*Model).decide},
		{keys: []string{"n", "N", "esc"}, desc: "cancel", foot: "n/esc cancel", run: cancelDialog},
		{keys: []string{"space"}, desc: "a package approval: leave the ▸ one out, or take it back in", foot: "space leave out", off: markReason, run: toggleOut},
		{keys: []string{"tab"}, desc: "a package approval: move ▸ to the next component", foot: "tab next", off: pickReason, run: movePick(1)},
		{keys: []string{"shift+tab"}, desc: "a package approval: move ▸ to the previous component", off: pickReason, run: movePick(-1)},
		{keys: []string{"d"}, desc: "show or hide the line diff of a changed file", foot: "d line diff", off: diffReason, run: toggleDiff},
		{keys: []string{"m"}, desc: "add a note", foot: "m note", off: noteReason, run: (*Model).startNote},
		{keys: []string{"j", "down"}, desc: "scroll down a line", run: scrollDialog((*dialog).lineDown)},
		{keys: []string{"k", "up"}, desc: "scroll up a line", run: scrollDialog((*dialog).lineUp)},
		{keys: []string{"pgdown", "space", "f"}, desc: "scroll down a page", run: scrollDialog((*dialog).pageDown)},
		{keys: []string{"pgup", "b"}, desc: "scroll up a page", run: scrollDialog((*dialog).pageUp)},
		{keys: []string{"ctrl+d"}, desc: "scroll down half a page", run: scrollDialog((*dialog).halfDown)},
		{keys: []string{"ctrl+u"}, desc: "scroll up half a page", run: scrollDialog((*dialog).halfUp)},
		{keys: []string{"home", "g"}, desc: "to the top", run: scrollDialog((*dialog).toTop)},
		{keys: []string{"end", "G"}, desc: "to the bottom", run: scrollDialog((*dialog).toBottom)},
	}
}

// key is a key press while the dialog is on top: the first action with the key that
// applies runs; when none does, the status line says why. Enter and every other key do
// nothing: only y records a decision.
func (d *dialog) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	refused := ""
	for _, a := range dialogActions() {
		if !slices.Contains(a.keys, k) {
			continue
		}
		if a.off != nil {
			if why := a.off(m, d); why != "" {
				refused = cmp(refused, why)
				continue
			}
		}
		return a.run(m, d)
	}
	if refused != "" {
		m.setFlash(refused, true)
	}
	return nil
}

// cmp is a when set, else b: the first reason found is the one shown.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// footParts are the footer parts of the actions that apply now, y's excepted.
func (d *dialog) footParts(m *Model) []string {
	var parts []string
	for _, a := range dialogActions() {
		if a.foot != "" && (a.off == nil || a.off(m, d) == "") {
			parts = append(parts, a.foot)
		}
	}
	return parts
}

// dialogSheet is the `?` sheet's lines for a confirmation.
func dialogSheet() []string {
	var out []string
	for _, a := range dialogActions() {
		out = append(out, fmt.Sprintf("  %-18s %s", strings.Join(a.keys, " "), a.desc))
	}
	return out
}

func cancelDialog(m *Model, d *dialog) tea.Cmd {
	m.setFlash("Cancelled: nothing was recorded.", false)
	m.pop(d)
	return nil
}

func toggleOut(m *Model, d *dialog) tea.Cmd {
	d.entries[d.pick].out = !d.entries[d.pick].out
	d.resolve()
	d.build()
	m.updateKeys()
	return nil
}

func movePick(dir int) func(*Model, *dialog) tea.Cmd {
	return func(m *Model, d *dialog) tea.Cmd {
		d.pick = (d.pick + dir + len(d.entries)) % len(d.entries)
		d.build()
		m.updateKeys()
		return nil
	}
}

func toggleDiff(_ *Model, d *dialog) tea.Cmd {
	d.hideDiff = !d.hideDiff
	d.build()
	return nil
}

func scrollDialog(scroll func(*dialog)) func(*Model, *dialog) tea.Cmd {
	return func(_ *Model, d *dialog) tea.Cmd {
		scroll(d)
		return nil
	}
}

func (d *dialog) lineDown() { d.vp.ScrollDown(1) }
func (d *dialog) lineUp()   { d.vp.ScrollUp(1) }
func (d *dialog) pageDown() { d.vp.PageDown() }
func (d *dialog) pageUp()   { d.vp.PageUp() }
func (d *dialog) halfDown() { d.vp.HalfPageDown() }
func (d *dialog) halfUp()   { d.vp.HalfPageUp() }
func (d *dialog) toTop()    { d.vp.GotoTop() }
func (d *dialog) toBottom() { d.vp.GotoBottom() }

// Why a dialog action does nothing now ("" when it applies).

func confirmReason(m *Model, d *dialog) string {
	switch {
	case m.busy:
		return "A decision is being recorded."
	case d.stale:
		return "Nothing recorded: the sources were reloaded while the dialog was open. Close it and decide again."
	case d.blocked != "":
		return "Cannot " + strings.ToLower(d.verb()) + ": " + d.blocked
	case !d.canConfirm():
		return "Nothing can be recorded now."
	}
	return ""
}

func pickReason(_ *Model, d *dialog) string {
	if !d.picking() {
		return "Only a package approval of several components has entries to move between."
	}
	return ""
}

func markReason(m *Model, d *dialog) string {
	if why := pickReason(m, d); why != "" {
		return why
	}
	if d.stale {
		return "The sources were reloaded: nothing is recorded, so nothing is left out."
	}
	return ""
}

func diffReason(_ *Model, d *dialog) string {
	if !d.hasDiff() {
		return "No file here has a line diff to show."
	}
	return ""
}

func noteReason(_ *Model, d *dialog) string {
	if d.stale {
		return "The sources were reloaded: nothing is recorded, so there is nothing to note."
	}
	return ""
}

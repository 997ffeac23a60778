package ui

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// action is one key binding of the browsing screen: its keys, what it does, why it does
// nothing now and the handler. The help line, the `?` sheet and the dispatcher are all
// read from the table of actions, so what the help offers is what the keys do.
type action struct {
	name string   // how tests and the table's readers call it
	keys []string // as tea.KeyPressMsg.String() spells them
	help string   // the keys as the help line shows them ("↑/k")
	desc string   // what it does, in the help line and the sheet
	// label, when set, says what it does for the selection (x revokes an approval or
	// removes an active instruction); desc is used otherwise.
	label func(m *Model) string
	// sheet, when set, is the sheet's words for it instead of desc.
	sheet string
	group string // the sheet's heading
	// footer is its place in the help line (1 first); 0 leaves it to the sheet. A narrow
	// window cuts the tail of the line, so actions and the way out come first.
	footer int
	// off says why it does nothing now ("" when it applies); nil: it always applies.
	off func(m *Model) string
	// refuse opens the sentence a press shows when it is off ("Cannot approve"); without
	// it the reason is shown alone.
	refuse string
	// takesOver marks an action that has its keys only while it applies (n and N move
	// between matches while a filter is set): off, the keys belong to the next action
	// that has them, and a press shows that one's reason.
	takesOver bool
	// quiet are keys that, pressed while the action is off, do nothing without a word:
	// enter opens the marketplace table on a marketplace, but elsewhere nobody pressed it
	// for that, where M was.
	quiet []string
	run   func(m *Model, msg tea.KeyPressMsg) tea.Cmd
}

// The sheet's headings, in the sheet's order.
const (
	groupMove   = "Move"
	groupRead   = "Read"
	groupDecide = "Decide"
	groupOther  = "Other"
)

// browseActions is the table, in the sheet's order; where two actions share a key, the
// first that applies runs.
func browseActions() []action {
	return []action{
		{name: "up", keys: []string{"k", "up"}, help: "↑/k", desc: "up", group: groupMove, off: (*Model).selectReason, run: moveBy(-1)},
		{name: "down", keys: []string{"j", "down"}, help: "↓/j", desc: "down", group: groupMove, footer: 10, off: (*Model).selectReason, run: moveBy(1)},
		{name: "top", keys: []string{"g", "home"}, help: "g", desc: "first", group: groupMove, run: moveToEnd(-1)},
		{name: "bottom", keys: []string{"G", "end"}, help: "G", desc: "last", group: groupMove, run: moveToEnd(1)},
		{name: "next-match", keys: []string{"n"}, help: "n", desc: "next match", group: groupMove, footer: 4, off: (*Model).matchReason, takesOver: true, run: jumpMatch(1)},
		{name: "prev-match", keys: []string{"N"}, help: "N", desc: "previous match", group: groupMove, off: (*Model).matchReason, takesOver: true, run: jumpMatch(-1)},
		{name: "next-review", keys: []string{"n"}, help: "n", desc: "next approvable", group: groupMove, footer: 5, off: (*Model).reviewReason, run: jumpReview(1)},
		{name: "prev-review", keys: []string{"N"}, help: "N", desc: "previous to review", group: groupMove, off: (*Model).reviewReason, run: jumpReview(-1)},
		{name: "next-package", keys: []string{"}", "J"}, help: "}", desc: "next package", group: groupMove, off: (*Model).selectReason, run: jumpPackage(1)},
		{name: "prev-package", keys: []string{"{", "K"}, help: "{", desc: "previous package", group: groupMove, off: (*Model).selectReason, run: jumpPackage(-1)},
		{name: "fold", keys: []string{"c"}, help: "c", desc: "fold/unfold package", group: groupMove, off: (*Model).foldReason, run: (*Model).fold},
		{name: "sort", keys: []string{"S"}, help: "S", desc: "sort by risk / package order", group: groupMove, run: (*Model).toggleSort},
		{name: "filter", keys: []string{"/"}, help: "/", desc: "filter", group: groupMove, footer: 12, run: (*Model).startFilter},
		{name: "views", keys: []string{":"}, help: ":", desc: "views (:hooks :changed :mcp :exec :unreviewed)", group: groupMove, run: (*Model).startViews},
		{name: "clear-filter", keys: []string{"esc"}, help: "esc", desc: "clear filter", group: groupMove, off: (*Model).clearReason, run: (*Model).clearFilter},

		{name: "next-tab", keys: []string{"tab", "l", "right"}, help: "tab", desc: "next tab", group: groupRead, footer: 11, run: stepTab(1)},
		{name: "prev-tab", keys: []string{"shift+tab", "h", "left"}, help: "shift+tab", desc: "previous tab", group: groupRead, run: stepTab(int(numTabs) - 1)},
		{name: "tab", keys: []string{"1", "2", "3", "4", "5"}, help: "1-5", desc: "tab", group: groupRead, run: (*Model).pickTab},
		{name: "page-down", keys: []string{"pgdown", "ctrl+d", "space"}, help: "pgdn", desc: "scroll pane down", group: groupRead, run: (*Model).pageDown},
		{name: "page-up", keys: []string{"pgup", "ctrl+u"}, help: "pgup", desc: "scroll pane up", group: groupRead, run: (*Model).pageUp},
		{name: "raw", keys: []string{"r"}, help: "r", desc: "raw/rendered", group: groupRead, footer: 13, off: (*Model).rawReason, refuse: "r does nothing here", run: (*Model).toggleRaw},
		{name: "open-file", keys: []string{"f", "o"}, help: "f", desc: "open files", group: groupRead, footer: 8, off: (*Model).openFileReason, refuse: "Cannot open a file", run: (*Model).openFiles},
		{name: "market", keys: []string{"M", "enter"}, quiet: []string{"enter"}, help: "M", desc: "marketplace table", group: groupRead, off: (*Model).marketReason, refuse: "Cannot open the marketplace table", run: (*Model).openMarket},

		{name: "approve", keys: []string{"a"}, help: "a", desc: "approve", group: groupDecide, footer: 1, off: (*Model).approveReason, refuse: "Cannot approve", run: (*Model).approve},
		{name: "approve-all", keys: []string{"A"}, help: "A", desc: "approve package", group: groupDecide, footer: 9, off: (*Model).approveAllReason, refuse: "Cannot approve the package", run: (*Model).approveAll},
		{name: "revoke", keys: []string{"x"}, help: "x", desc: "revoke", label: (*Model).revokeLabel, group: groupDecide, footer: 2, off: (*Model).revokeReason, refuse: "Cannot revoke", run: (*Model).revoke},
		{name: "instructions", keys: []string{"i"}, help: "i", desc: "activate instruction", group: groupDecide, footer: 3, off: (*Model).instructionsReason, refuse: "Cannot activate", run: (*Model).activate},

		{name: "copy", keys: []string{"y"}, help: "y", desc: "copy REF", group: groupOther, off: (*Model).selectReason, run: copyWhat(false)},
		{name: "copy-digest", keys: []string{"Y"}, help: "Y", desc: "copy digest", group: groupOther, off: (*Model).digestReason, run: copyWhat(true)},
		{name: "reload", keys: []string{"R", "ctrl+r"}, help: "R", desc: "reload from disk", group: groupOther, off: (*Model).reloadReason, run: (*Model).reload},
		{name: "help", keys: []string{"?"}, help: "?", desc: "all keys", sheet: "this list", group: groupOther, footer: 6, run: (*Model).openKeySheet},
		{name: "quit", keys: []string{"q", "ctrl+c"}, help: "q", desc: "quit", group: groupOther, footer: 7, run: func(*Model, tea.KeyPressMsg) tea.Cmd { return tea.Quit }},
	}
}

// reason says why a does nothing now, "" when it applies.
func (a *action) reason(m *Model) string {
	if a.off == nil {
		return ""
	}
	return a.off(m)
}

// what is what a does for the selection, as the help line and the sheet say it.
func (a *action) what(m *Model) string {
	if a.label != nil {
		return a.label(m)
	}
	return a.desc
}

// has reports whether key k runs a.
func (a *action) has(k string) bool {
	for _, ak := range a.keys {
		if ak == k {
			return true
		}
	}
	return false
}

// binding is a as the help bubble draws it.
func (a *action) binding(m *Model) key.Binding {
	return key.NewBinding(key.WithKeys(a.keys...), key.WithHelp(a.help, a.what(m)))
}

// dispatch runs the first action of the table that has the key and applies. When every
// action with the key is off, it does nothing and the status line says why; a key no
// action has does nothing.
func (m *Model) dispatch(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if a := m.runs(k); a != nil {
		return a.run(m, msg)
	}
	if a := m.refuses(k); a != nil {
		m.setFlash(a.refusal(m), a.refuse != "")
	}
	return nil
}

// runs is the action key k runs now (nil when none applies).
func (m *Model) runs(k string) *action {
	for i := range m.actions {
		if a := &m.actions[i]; a.has(k) && a.reason(m) == "" {
			return a
		}
	}
	return nil
}

// refuses is the action whose reason a press of k shows when none applies: the first
// that has k and does not only take it over (nil when no action has k, or that one
// keeps quiet about k).
func (m *Model) refuses(k string) *action {
	for i := range m.actions {
		if a := &m.actions[i]; a.has(k) && !a.takesOver {
			if slices.Contains(a.quiet, k) {
				return nil
			}
			return a
		}
	}
	return nil
}

// refusal is the sentence a press of a's key shows while a is off.
func (a *action) refusal(m *Model) string {
	why := a.reason(m)
	if a.refuse != "" {
		return a.refuse + ": " + why
	}
	r, n := utf8.DecodeRuneInString(why)
	return string(unicode.ToUpper(r)) + why[n:]
}

// footerKeys is the help line of the browsing screen: the actions it lists, in its
// order, that apply now.
func (m *Model) footerKeys() []key.Binding {
	var ranked []*action
	for i := range m.actions {
		if a := &m.actions[i]; a.footer > 0 && a.reason(m) == "" {
			ranked = append(ranked, a)
		}
	}
	// Insertion sort: the table is short and mostly in order already.
	for i := 1; i < len(ranked); i++ {
		for j := i; j > 0 && ranked[j].footer < ranked[j-1].footer; j-- {
			ranked[j], ranked[j-1] = ranked[j-1], ranked[j]
		}
	}
	out := make([]key.Binding, len(ranked))
	for i, a := range ranked {
		out[i] = a.binding(m)
	}
	return out
}

// browseKeys is the browsing screen's help line as a help.KeyMap.
type browseKeys struct{ m *Model }

func (b browseKeys) ShortHelp() []key.Binding  { return b.m.footerKeys() }
func (b browseKeys) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }

// KeyMap holds the keys of the modal layers that the help line names and that are
// enabled by state (y only when the dialog can record).
type KeyMap struct {
	Confirm, Cancel key.Binding
	Overwrite       key.Binding // a hand-edited instruction block: o, then y
	AcceptFilter    key.Binding
}

// DefaultKeyMap returns the modal layers' keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Confirm:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "confirm")), // Y copies a digest: never a confirmation
		Cancel:       key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "cancel")),
		Overwrite:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "overwrite hand edits"), key.WithDisabled()),
		AcceptFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
	}
}

// dialogKeys is the help of a confirmation dialog: only y and n/esc.
type dialogKeys struct{ k *KeyMap }

func (d dialogKeys) ShortHelp() []key.Binding {
	return []key.Binding{d.k.Confirm, d.k.Cancel}
}
func (d dialogKeys) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// filterKeys is the help while typing a filter.
type filterKeys struct{ k *KeyMap }

func (f filterKeys) ShortHelp() []key.Binding {
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))
	text := key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "search text too"))
	return []key.Binding{f.k.AcceptFilter, esc, text}
}
func (f filterKeys) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

// closeKeys is the help of a full-screen view (file view, key list): its own footer
// lists its keys; the help line says how to leave.
type closeKeys struct{}

func (closeKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q/esc", "back")), key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))}
}
func (c closeKeys) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

// keysOf joins a's keys as the sheet lists them.
func keysOf(a *action) string { return strings.Join(a.keys, " ") }

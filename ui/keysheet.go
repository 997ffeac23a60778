package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keySheet is what `?` opens: every binding of the browsing state, generated from the
// key map so it never lies; a disabled binding is greyed with the reason it does nothing
// now (the same reason its key says when pressed).
type keySheet struct {
	lines []string
	top   int
	h     int
}

// disabledReason says why binding b does nothing now ("" when it is enabled).
func (m *Model) disabledReason(b *key.Binding) string {
	if b.Enabled() {
		return ""
	}
	k := &m.keys
	switch b {
	case &k.Approve:
		return m.approveReason()
	case &k.ApproveAll:
		return m.approveAllReason()
	case &k.Revoke:
		return m.revokeReason()
	case &k.Instructions:
		return m.instructionsReason()
	case &k.OpenFile:
		return m.openFileReason()
	case &k.Raw:
		return "only on the Content tab of a skill or instruction with a text body."
	case &k.Reload:
		return "packages handed in memory have no source to read again."
	case &k.NextReview, &k.PrevReview:
		if m.tree.filter.Value() != "" {
			return "a filter is set: n and N move between its matches (esc clears it)."
		}
		return "nothing here needs review."
	case &k.NextMatch, &k.PrevMatch:
		return "no filter is set (/ starts one)."
	case &k.ClearFilter:
		return "no filter is set."
	case &k.Copy, &k.CopyDigest, &k.Up, &k.Down, &k.NextPkg, &k.PrevPkg, &k.Fold:
		return "nothing is selected."
	}
	return "not available now."
}

func (m *Model) openKeySheet() {
	k := &m.keys
	s := &m.styles
	groups := []struct {
		title string
		keys  []*key.Binding
	}{
		{"Move", []*key.Binding{&k.Up, &k.Down, &k.Top, &k.Bottom, &k.NextMatch, &k.PrevMatch, &k.NextReview, &k.PrevReview, &k.NextPkg, &k.PrevPkg, &k.Fold, &k.Sort, &k.Filter, &k.Views, &k.ClearFilter}},
		{"Read", []*key.Binding{&k.NextTab, &k.PrevTab, &k.Tab, &k.PageDown, &k.PageUp, &k.Raw, &k.OpenFile}},
		{"Decide", []*key.Binding{&k.Approve, &k.ApproveAll, &k.Revoke, &k.Instructions}},
		{"Other", []*key.Binding{&k.Copy, &k.CopyDigest, &k.Reload, &k.Help, &k.Quit}},
	}
	var lines []string
	for _, g := range groups {
		lines = append(lines, s.Title.Render(g.title))
		for _, b := range g.keys {
			h := b.Help()
			keys := strings.Join(b.Keys(), " ")
			if b == &k.Help {
				lines = append(lines, fmt.Sprintf("  %-18s %s", keys, "this list"))
				continue
			}
			if why := m.disabledReason(b); why != "" {
				lines = append(lines, s.Dim.Render(fmt.Sprintf("  %-18s %-22s (off: %s)", keys, h.Desc, strings.TrimSuffix(why, "."))))
				continue
			}
			lines = append(lines, fmt.Sprintf("  %-18s %s", keys, h.Desc))
		}
		lines = append(lines, "")
	}
	lines = append(lines, s.Title.Render("Views (: then a name; combine with words)"))
	for _, n := range viewNames() {
		lines = append(lines, fmt.Sprintf("  %-18s %s", n, views[n]))
	}
	lines = append(lines, "")
	lines = append(lines, s.Title.Render("In a confirmation"),
		"  y                  record the decision (enter never does)",
		"  n esc              cancel",
		"  m                  add a note",
		"  tab space          a package approval: move ▸, leave the ▸ one out",
		"  j/k space pgup ctrl+d/u home/end  scroll (space marks in a package approval)",
		"",
		s.Title.Render("In the marketplace table (M or enter on a marketplace)"),
		"  j/k g/G            move",
		"  enter              open the entry's plugin (a local folder loaded as a package)",
		"  q esc              back",
		"",
		s.Title.Render("In the file view (f)"),
	)
	lines = append(lines, fileViewSheet()...)
	m.keysHelp = &keySheet{lines: lines}
	m.layout()
}

func (m *Model) keySheetKey(msg tea.KeyPressMsg) tea.Cmd {
	ks := m.keysHelp
	switch msg.String() {
	case "?", "esc", "q", "enter":
		m.keysHelp = nil
		m.layout()
		m.updateKeys()
	case "j", "down":
		ks.scrollBy(1)
	case "k", "up":
		ks.scrollBy(-1)
	case "space", "pgdown":
		ks.scrollBy(ks.h)
	case "pgup":
		ks.scrollBy(-ks.h)
	}
	return nil
}

func (ks *keySheet) scrollBy(n int) {
	ks.top = max(0, min(ks.top+n, len(ks.lines)-ks.h))
}

func (ks *keySheet) scroll(b tea.MouseButton) {
	switch b {
	case tea.MouseWheelUp:
		ks.scrollBy(-3)
	case tea.MouseWheelDown:
		ks.scrollBy(3)
	}
}

// view renders the sheet in w × h.
func (ks *keySheet) view(m *Model, w, h int) string {
	ks.h = max(1, h-2)
	ks.scrollBy(0)
	s := &m.styles
	out := []string{fit(s.DialogTitle.Render("Keys")+s.Dim.Render("  (greyed: off now, with the reason) · ? or esc closes"), w), ""}
	for i := ks.top; i < len(ks.lines) && len(out) < h; i++ {
		out = append(out, fit(ks.lines[i], w))
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return strings.Join(out[:h], "\n")
}

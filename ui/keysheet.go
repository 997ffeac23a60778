package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// keySheet is what `?` opens: every action of the browsing screen, generated from the
// table so it never lies; an action that is off is greyed with the reason it does
// nothing now (the same reason its key says when pressed).
type keySheet struct {
	lines []string
	top   int
	h     int
}

// openKeySheet lists the table's actions under their headings; an action that is off
// now is greyed, with its reason.
func (m *Model) openKeySheet(tea.KeyPressMsg) tea.Cmd {
	s := &m.styles
	var lines []string
	group := ""
	for i := range m.actions {
		a := &m.actions[i]
		if a.group != group {
			if group != "" {
				lines = append(lines, "")
			}
			group = a.group
			lines = append(lines, s.Title.Render(group))
		}
		lines = append(lines, m.sheetLine(a))
	}
	lines = append(lines, "")
	lines = append(lines, s.Title.Render("Views (: then a name; combine with words)"))
	for _, n := range viewNames() {
		lines = append(lines, fmt.Sprintf("  %-18s %s", n, views[n]))
	}
	lines = append(lines, "")
	lines = append(lines, s.Title.Render("In a confirmation"))
	lines = append(lines, dialogSheet()...)
	lines = append(lines, "", s.Title.Render("In the marketplace table (M or enter on a marketplace)"),
		"  j/k g/G            move",
		"  enter              open the entry's plugin (a local folder loaded as a package)",
		"  q esc              back")
	lines = append(lines, "", s.Title.Render("In the file view (f)"))
	lines = append(lines, fileSheet()...)
	m.push(&keySheet{lines: lines})
	return nil
}

// sheetLine is a's line in the sheet: its keys, what it does, and why it is off.
func (m *Model) sheetLine(a *action) string {
	if a.sheet != "" {
		return fmt.Sprintf("  %-18s %s", keysOf(a), a.sheet)
	}
	if why := a.reason(m); why != "" {
		return m.styles.Dim.Render(fmt.Sprintf("  %-18s %-22s (off: %s)", keysOf(a), a.what(m), strings.TrimSuffix(why, ".")))
	}
	return fmt.Sprintf("  %-18s %s", keysOf(a), a.what(m))
}

func (m *Model) keySheetKey(ks *keySheet, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "?", "esc", "q", "enter":
		m.pop(ks)
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

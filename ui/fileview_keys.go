package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"vouch/ui/display"

	tea "charm.land/bubbletea/v2"
)

// fileAction is one key binding of the file view: its keys, what it does, the part of
// the view's footer it writes, why it does nothing now and the handler. The dispatcher,
// the footer and the `?` sheet's part for the file view are read from fileActions.
type fileAction struct {
	keys []string // as tea.KeyPressMsg.String() spells them
	desc string   // what it does, in the `?` sheet
	// foot is the action's part of the footer ("" for none): an action that shares a part
	// with the ones after it (the scroll keys) writes the part for all of them.
	foot string
	// off says why it does nothing now ("" when it applies); nil: it always applies.
	off func(fv *fileView) string
	run func(m *Model, fv *fileView) tea.Cmd
}

// fileActions is the file view's table, in the sheet's order; the footer lists the
// parts in the same order.
func fileActions() []fileAction {
	return []fileAction{
		{keys: []string{"j", "down"}, desc: "scroll down a line", foot: "j/k space/pgup g/G scroll", run: scrollFile(1, 0)},
		{keys: []string{"k", "up"}, desc: "scroll up a line", run: scrollFile(-1, 0)},
		{keys: []string{"space", "pgdown", "f", "ctrl+f"}, desc: "scroll down a page", run: scrollFile(0, 1)},
		{keys: []string{"pgup", "b", "ctrl+b"}, desc: "scroll up a page", run: scrollFile(0, -1)},
		{keys: []string{"ctrl+d"}, desc: "scroll down half a page", run: scrollFile(0, 0.5)},
		{keys: []string{"ctrl+u"}, desc: "scroll up half a page", run: scrollFile(0, -0.5)},
		{keys: []string{"g", "home"}, desc: "first line", run: fileEnd(-1)},
		{keys: []string{"G", "end"}, desc: "last line", run: fileEnd(1)},
		{keys: []string{"/"}, desc: "search", foot: "/ search n/N", run: fileInput("search", "/")},
		{keys: []string{"n"}, desc: "next match", off: (*fileView).matchReason, run: stepMatch(1)},
		{keys: []string{"N"}, desc: "previous match", off: (*fileView).matchReason, run: stepMatch(-1)},
		{keys: []string{":"}, desc: "go to line", foot: ": line", run: fileInput("goto", "go to line: ")},
		{keys: []string{"!"}, desc: "next hidden item", foot: "! hidden", off: (*fileView).hiddenReason, run: (*Model).nextHidden},
		{keys: []string{"tab", "]", "l", "right"}, desc: "next closure file", foot: "tab next file", off: (*fileView).filesReason, run: stepFile(1)},
		{keys: []string{"shift+tab", "[", "h", "left"}, desc: "previous closure file", off: (*fileView).filesReason, run: stepFile(-1)},
		{keys: []string{"e"}, desc: "open an escaped read-only copy in $PAGER", foot: "e pager", off: (*fileView).pagerReason, run: toPager},
		{keys: []string{"y"}, desc: "copy the file's path", foot: "y copy path", run: copyPath},
		{keys: []string{"q", "esc", "backspace"}, desc: "back", foot: "q back", run: closeFile},
	}
}

// fileKey runs the file view's action for the key; an action that is off says why in
// the footer instead.
func (m *Model) fileKey(fv *fileView, msg tea.KeyPressMsg) tea.Cmd {
	for _, a := range fileActions() {
		if !contains(a.keys, msg.String()) {
			continue
		}
		if a.off != nil {
			if why := a.off(fv); why != "" {
				fv.flash = why
				return nil
			}
		}
		return a.run(m, fv)
	}
	return nil
}

// fileFooter is the file view's footer: each action's part, in the table's order.
func fileFooter() string {
	var parts []string
	for _, a := range fileActions() {
		if a.foot != "" {
			parts = append(parts, a.foot)
		}
	}
	return strings.Join(parts, " · ")
}

// fileSheet is the `?` sheet's lines for the file view.
func fileSheet() []string {
	var out []string
	for _, a := range fileActions() {
		out = append(out, fmt.Sprintf("  %-18s %s", strings.Join(a.keys, " "), a.desc))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// scrollFile scrolls by lines, plus pages times the body's height.
func scrollFile(lines int, pages float64) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd {
		fv.scrollBy(lines + int(pages*float64(fv.bodyHeight())))
		return nil
	}
}

func fileEnd(dir int) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd {
		fv.top = 0
		if dir > 0 {
			fv.top = fv.lineCount()
			fv.clamp()
		}
		return nil
	}
}

// fileInput focuses the view's input for a search or a line number.
func fileInput(what, prompt string) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd {
		fv.inputFor = what
		fv.input.Prompt = prompt
		value := ""
		if what == "search" {
			value = fv.query
		}
		fv.input.SetValue(value)
		return fv.input.Focus()
	}
}

func stepMatch(dir int) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd {
		fv.match = (fv.match + dir + len(fv.matches)) % len(fv.matches)
		fv.showMatch()
		return nil
	}
}

func (m *Model) nextHidden(fv *fileView) tea.Cmd {
	hs := fv.hiddenHere()
	fv.hiddenAt = (fv.hiddenAt + 1) % len(hs)
	h := hs[fv.hiddenAt]
	fv.gotoLine(h.Line)
	fv.flash = fmt.Sprintf("hidden %d of %d: line %d %s", fv.hiddenAt+1, len(hs), h.Line, display.Line(h.Kind))
	return nil
}

func stepFile(dir int) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd { return fv.load(fv.idx + dir) }
}

func toPager(_ *Model, fv *fileView) tea.Cmd { return pagerCopyCmd(fv.loaded) }

func copyPath(m *Model, fv *fileView) tea.Cmd {
	return m.copyText("path", filepath.Join(fv.pkg.Root, filepath.FromSlash(fv.files[fv.idx].Path)))
}

func closeFile(m *Model, fv *fileView) tea.Cmd {
	m.pop(fv)
	return m.detail.refresh()
}

// Why a file view action does nothing now ("" when it applies).

func (fv *fileView) matchReason() string {
	if len(fv.matches) == 0 {
		return "No match to move to: / searches."
	}
	return ""
}

func (fv *fileView) hiddenReason() string {
	if len(fv.hiddenHere()) == 0 {
		return "No hidden content recorded in this file."
	}
	return ""
}

func (fv *fileView) filesReason() string {
	if len(fv.files) < 2 {
		return "This component has one file."
	}
	return ""
}

func (fv *fileView) pagerReason() string {
	if fv.loaded == nil {
		return "Nothing to hand to the pager yet."
	}
	return ""
}

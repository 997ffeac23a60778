package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"vouch/ui/display"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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
// parts in the same order, each while its action applies. The way out comes first: a
// narrow window cuts the footer's tail.
func fileActions() []fileAction {
	return []fileAction{
		{keys: []string{"q", "esc", "backspace"}, desc: "back", foot: "q back", run: closeFile},
		{keys: []string{"j", "down"}, desc: "scroll down a line", foot: "j/k scroll", run: scrollFile(1, 0)},
		{keys: []string{"k", "up"}, desc: "scroll up a line", run: scrollFile(-1, 0)},
		{keys: []string{"space", "pgdown", "f", "ctrl+f"}, desc: "scroll down a page", run: scrollFile(0, 1)},
		{keys: []string{"pgup", "b", "ctrl+b"}, desc: "scroll up a page", run: scrollFile(0, -1)},
		{keys: []string{"ctrl+d"}, desc: "scroll down half a page", run: scrollFile(0, 0.5)},
		{keys: []string{"ctrl+u"}, desc: "scroll up half a page", run: scrollFile(0, -0.5)},
		{keys: []string{"h", "left"}, desc: "scroll left", foot: "h/l sideways", off: (*fileView).sidewaysReason, run: scrollSideways(-1)},
		{keys: []string{"l", "right"}, desc: "scroll right", off: (*fileView).sidewaysReason, run: scrollSideways(1)},
		{keys: []string{"0"}, desc: "back to column 1", off: (*fileView).sidewaysReason, run: scrollSideways(0)},
		{keys: []string{"w"}, desc: "wrap long lines at the edge, or not", foot: "w wrap", run: toggleWrap},
		{keys: []string{"/"}, desc: "search (» and « mark a match past the edge)", foot: "/ search", run: fileInput("search", "/")},
		{keys: []string{"n"}, desc: "next match", foot: "n/N next match", off: (*fileView).matchReason, run: stepMatch(1)},
		{keys: []string{"N"}, desc: "previous match", off: (*fileView).matchReason, run: stepMatch(-1)},
		{keys: []string{"o"}, desc: "list the package's files to open one", foot: "o files", run: listFiles},
		{keys: []string{"tab", "]"}, desc: "next closure file", foot: "tab next file", off: (*fileView).filesReason, run: stepFile(1)},
		{keys: []string{"shift+tab", "["}, desc: "previous closure file", off: (*fileView).filesReason, run: stepFile(-1)},
		{keys: []string{":"}, desc: "go to line", foot: ": line", run: fileInput("goto", "go to line: ")},
		{keys: []string{"g", "home"}, desc: "first line", foot: "g/G top/end", run: fileEnd(-1)},
		{keys: []string{"G", "end"}, desc: "last line", run: fileEnd(1)},
		{keys: []string{"!"}, desc: "next hidden item", foot: "! hidden", off: (*fileView).hiddenReason, run: (*Model).nextHidden},
		{keys: []string{"e"}, desc: "open an escaped read-only copy in $PAGER", foot: "e pager", off: (*fileView).pagerReason, run: toPager},
		{keys: []string{"y"}, desc: "copy the file's path", foot: "y copy path", run: copyPath},
	}
}

// listFooter is the file list's footer (o): its keys are handled by listKey.
var listFooter = []string{"enter open", "j/k move", "esc/o close list"}

// fileKey runs the file view's action for the key; an action that is off says why in
// the footer instead.
func (m *Model) fileKey(fv *fileView, msg tea.KeyPressMsg) tea.Cmd {
	for _, a := range fileActions() {
		if !slices.Contains(a.keys, msg.String()) {
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

// footerText is the file view's footer: the part of each action that applies now, in
// the table's order, as many as fit in width.
func (fv *fileView) footerText(width int) string {
	var parts []string
	if fv.listing {
		parts = listFooter
	} else {
		for _, a := range fileActions() {
			if a.foot != "" && (a.off == nil || a.off(fv) == "") {
				parts = append(parts, a.foot)
			}
		}
	}
	var shown []string
	used := 0
	for _, p := range parts {
		if used+len(shown)*3+ansi.StringWidth(p) > width {
			break
		}
		shown = append(shown, p)
		used += ansi.StringWidth(p)
	}
	return strings.Join(shown, " · ")
}

// fileSheet is the `?` sheet's lines for the file view.
func fileSheet() []string {
	var out []string
	for _, a := range fileActions() {
		out = append(out, fmt.Sprintf("  %-18s %s", strings.Join(a.keys, " "), a.desc))
	}
	return out
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
	return func(_ *Model, fv *fileView) tea.Cmd { return fv.load(fv.nextFile(dir)) }
}

// scrollSideways moves half the text's width left (dir -1) or right (1), or back to
// column 1 (0).
func scrollSideways(dir int) func(*Model, *fileView) tea.Cmd {
	return func(_ *Model, fv *fileView) tea.Cmd {
		if dir == 0 {
			fv.left = 0
			return nil
		}
		fv.scrollSideways(dir * max(1, fv.textWidth()/2))
		return nil
	}
}

func toggleWrap(_ *Model, fv *fileView) tea.Cmd {
	fv.wrap, fv.left = !fv.wrap, 0
	fv.flash = "Long lines scroll sideways (h/l)."
	if fv.wrap {
		fv.flash = "Long lines wrap at the edge."
	}
	return nil
}

func listFiles(_ *Model, fv *fileView) tea.Cmd {
	fv.listing, fv.pick = true, fv.idx
	return nil
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

func (fv *fileView) sidewaysReason() string {
	if fv.wrap {
		return "Lines wrap: nothing to scroll sideways (w stops wrapping)."
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
	if fv.closure < 2 {
		return "The closure has one file: o lists the package's files."
	}
	return ""
}

func (fv *fileView) pagerReason() string {
	if fv.loaded == nil {
		return "Nothing to hand to the pager yet."
	}
	return ""
}

package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/ui/display"

	"github.com/charmbracelet/x/ansi"
)

// The file view's navigation: long lines either wrap at the edge or scroll sideways
// (with a mark at the edge where the line, or a search match, goes on), and a list of the
// package's files to open another one from.

// hasViewFiles reports whether the file view has anything to open for c.
func hasViewFiles(p *model.Package, c *model.Component) bool {
	files, closure := viewFiles(p, c)
	return closure > 0 || (len(files) > 0 && declaringFile(c) != "")
}

// widest is the width in cells of the widest line.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// gutterWidth is the width of the line-number gutter ("›123 │ ").
func (fv *fileView) gutterWidth() int {
	if fv.loaded == nil || fv.loaded.binary {
		return 0
	}
	return len(strconv.Itoa(len(fv.loaded.lines))) + 4
}

// textWidth is the columns left for file text: the gutter, and without wrap one column
// for the edge mark.
func (fv *fileView) textWidth() int {
	w := fv.width - fv.gutterWidth()
	if !fv.wrap {
		w--
	}
	return max(1, w)
}

// scrollSideways moves the first column shown by n cells, within the widest line.
func (fv *fileView) scrollSideways(n int) {
	if fv.loaded == nil {
		return
	}
	fv.left = max(0, min(fv.left+n, fv.loaded.width-fv.textWidth()))
}

// matchCols are the columns (in cells) where the query starts in plain line i.
func (fv *fileView) matchCols(i int) []int {
	if fv.query == "" || fv.loaded == nil || i >= len(fv.loaded.plain) {
		return nil
	}
	l := fv.loaded.plain[i]
	lq := strings.ToLower(fv.query)
	var cols []int
	// The line is searched rune by rune so that a column is counted in whole runes even
	// where lower-casing changes a rune's length.
	low := strings.ToLower(l)
	if len(low) != len(l) {
		if strings.Contains(low, lq) {
			return []int{0}
		}
		return nil
	}
	for from := 0; from <= len(l); {
		k := strings.Index(low[from:], lq)
		if k < 0 {
			break
		}
		cols = append(cols, ansi.StringWidth(l[:from+k]))
		from += k + max(1, len(lq))
	}
	return cols
}

// showMatchColumn scrolls sideways so the current match is on screen.
func (fv *fileView) showMatchColumn() {
	if fv.wrap || len(fv.matches) == 0 {
		return
	}
	cols := fv.matchCols(fv.matches[fv.match])
	if len(cols) == 0 {
		return
	}
	c, tw := cols[0], fv.textWidth()
	if c < fv.left || c+ansi.StringWidth(fv.query) > fv.left+tw {
		fv.left = 0
		fv.scrollSideways(c - tw/3)
	}
}

// bodyRows renders the file's lines on screen: gutter, text cut (or wrapped) to the
// width, and the edge marks.
func (fv *fileView) bodyRows(body, w int) []string {
	s := fv.c.styles
	l := fv.loaded
	wd := len(strconv.Itoa(len(l.lines)))
	// Marks for the lines on screen only: matches are sorted, so the first one on screen
	// is found by binary search and the rest by walking on; a frame costs the screen, not
	// the file's matches.
	k := sort.SearchInts(fv.matches, fv.top)
	hidden := make([]bool, body)
	for _, h := range fv.hiddenHere() {
		if j := h.Line - 1 - fv.top; j >= 0 && j < body {
			hidden[j] = true
		}
	}
	tw := fv.textWidth()
	var out []string
	for i := fv.top; i < len(l.lines) && len(out) < body; i++ {
		for k < len(fv.matches) && fv.matches[k] < i {
			k++
		}
		match := k < len(fv.matches) && fv.matches[k] == i
		mark := " "
		switch {
		case match:
			mark = "›"
		case i+1 == fv.at:
			mark = "▶"
		case hidden[i-fv.top]:
			mark = "!"
		}
		gutter := fmt.Sprintf("%s%*d │ ", mark, wd, i+1)
		if l.binary {
			gutter = ""
		}
		g := s.Gutter.Render(gutter)
		if mark != " " {
			g = s.Warn.Render(gutter)
		}
		if fv.wrap {
			lw := ansi.StringWidth(l.plain[i])
			for from := 0; len(out) < body; from += tw {
				out = append(out, fit(g+ansi.Cut(l.lines[i], from, from+tw), w))
				if from+tw >= lw {
					break
				}
				g = s.Gutter.Render(strings.Repeat(" ", wd) + "↪ │ ")
				if l.binary {
					g = ""
				}
			}
			continue
		}
		edge := " "
		lw := ansi.StringWidth(l.plain[i])
		switch {
		case match && fv.matchBeyond(i, true):
			edge = s.Warn.Render("»")
		case match && fv.matchBeyond(i, false):
			edge = s.Warn.Render("«")
		case lw > fv.left+tw:
			edge = s.Dim.Render("→")
		}
		text := fit(ansi.Cut(l.lines[i], fv.left, fv.left+tw), tw)
		out = append(out, fit(g+text+edge, w))
	}
	return out
}

// matchBeyond reports whether every match on line i lies past the right edge (right) or
// before the left one (!right): the row shows none of them, and its edge mark says where.
func (fv *fileView) matchBeyond(i int, right bool) bool {
	cols := fv.matchCols(i)
	if len(cols) == 0 {
		return false
	}
	tw := fv.textWidth()
	for _, c := range cols {
		if right && c+ansi.StringWidth(fv.query) <= fv.left+tw {
			return false
		}
		if !right && c >= fv.left {
			return false
		}
	}
	return true
}

// listRows renders the file list: the closure, then the rest, the cursor on pick.
func (fv *fileView) listRows(body, w int) []string {
	s := fv.c.styles
	var rows []string
	head := func(t string) { rows = append(rows, fit(s.Title.Render(t), w)) }
	for i := range fv.files {
		if i == 0 {
			head(fmt.Sprintf("What %s binds (%d)", display.Line(fv.pkg.Ref(fv.comp)), fv.closure))
		}
		if i == fv.closure {
			head(fmt.Sprintf("Other files of %s (%d)", display.Line(fv.pkg.Name), len(fv.files)-fv.closure))
		}
		f := fv.files[i]
		cur := "  "
		if i == fv.pick {
			cur = "▸ "
		}
		what := ""
		switch {
		case f.IsLink():
			what = "symlink → " + display.Line(f.Link)
		case f.SHA256 == "":
			what = "declares this hook"
		default:
			what = fmt.Sprintf("%d bytes", f.Size)
			if f.Exec {
				what += " ! executable"
			}
		}
		row := cur + display.Line(f.Path) + "  " + s.Dim.Render(what)
		if i == fv.pick {
			row = s.Cursor.Render(cur+display.Line(f.Path)) + "  " + s.Dim.Render(what)
		}
		rows = append(rows, fit(row, w))
	}
	// Keep the cursor on screen: headings count as rows.
	if len(rows) > body {
		at := fv.pick + 1
		if fv.pick >= fv.closure {
			at++
		}
		first := max(0, min(at-body/2, len(rows)-body))
		rows = rows[first : first+body]
	}
	return rows
}

// listKey handles a key while the file list is shown.
func (fv *fileView) listKey(k string) (open bool) {
	switch k {
	case "j", "down":
		fv.pick = min(fv.pick+1, len(fv.files)-1)
	case "k", "up":
		fv.pick = max(fv.pick-1, 0)
	case "g", "home":
		fv.pick = 0
	case "G", "end":
		fv.pick = len(fv.files) - 1
	case "enter":
		return true
	case "esc", "o", "q":
		fv.listing = false
	}
	return false
}

// nextFile is the file tab (step 1) or shift+tab (-1) opens: the next closure file, or
// from a file outside the closure, the next file of the list.
func (fv *fileView) nextFile(step int) int {
	if fv.idx < fv.closure {
		return (fv.idx + step + fv.closure) % fv.closure
	}
	return fv.idx + step
}

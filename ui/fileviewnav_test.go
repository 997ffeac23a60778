package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// rowOf is the screen row showing file line n (its gutter "n │").
func rowOf(t *testing.T, m *Model, n string) string {
	t.Helper()
	for _, r := range strings.Split(screen(m), "\n") {
		if strings.Contains(r, " "+n+" │ ") {
			return r
		}
	}
	t.Fatalf("no row for line %s:\n%s", n, screen(m))
	return ""
}

// Long lines, key by key: cut at the edge with → by default; l and h scroll sideways by
// half the text width, 0 back to the start; w wraps (h/l then only say why not); a search
// match past the edge is marked » on its row, and n scrolls sideways to it.
func TestFileViewLongLines(t *testing.T) {
	m := hookViewModel(t, 100, 30)
	selectRef(t, m, hookScriptRef)
	press(t, m, "f")
	fv := m.fileView()
	if !strings.HasSuffix(rowOf(t, m, "4"), "→") {
		t.Fatalf("a line past the edge has no → mark: %q", rowOf(t, m, "4"))
	}
	if strings.Contains(rowOf(t, m, "4"), "the far needle") {
		t.Fatal("the end of the long line is on screen before scrolling")
	}
	half := fv.textWidth() / 2
	press(t, m, "l")
	if fv.left != half {
		t.Fatalf("l: left %d, want %d", fv.left, half)
	}
	press(t, m, "l", "l", "l", "l")
	if max := fv.loaded.width - fv.textWidth(); fv.left != max {
		t.Fatalf("l past the end: left %d, want %d (the widest line's end)", fv.left, max)
	}
	if !strings.Contains(rowOf(t, m, "4"), "the far needle sits here") {
		t.Errorf("scrolled to the end, the line's end is not shown: %q", rowOf(t, m, "4"))
	}
	press(t, m, "h")
	if fv.left != fv.loaded.width-fv.textWidth()-half {
		t.Fatalf("h: left %d", fv.left)
	}
	press(t, m, "0")
	if fv.left != 0 {
		t.Fatalf("0: left %d", fv.left)
	}

	// Search: the first match is near the start of line 3; line 4's lies past the edge.
	press(t, m, "/", "n", "e", "e", "d", "l", "e", "enter")
	if len(fv.matches) != 2 || fv.matches[0] != 2 || fv.left != 0 {
		t.Fatalf("search: matches %v left %d", fv.matches, fv.left)
	}
	if r := rowOf(t, m, "4"); !strings.HasSuffix(r, "»") {
		t.Errorf("the match past the edge is not marked: %q", r)
	}
	if r := rowOf(t, m, "3"); strings.HasSuffix(r, "»") {
		t.Errorf("the match on screen is marked as past the edge: %q", r)
	}
	press(t, m, "n")
	if fv.match != 1 || fv.left == 0 || !strings.Contains(rowOf(t, m, "4"), "needle sits") {
		t.Fatalf("n did not scroll sideways to the far match: left %d row %q", fv.left, rowOf(t, m, "4"))
	}
	if r := rowOf(t, m, "3"); !strings.HasSuffix(r, "«") {
		t.Errorf("the match now left of the edge is not marked «: %q", r)
	}

	// Wrap: the long line takes several rows, continued with ↪; h/l say why they do nothing.
	press(t, m, "w")
	if !fv.wrap || fv.left != 0 {
		t.Fatal("w did not turn wrapping on")
	}
	if n := strings.Count(screen(m), "↪ │"); n < 2 {
		t.Fatalf("the long line wraps on %d continuation rows:\n%s", n, screen(m))
	}
	for _, r := range strings.Split(screen(m), "\n") {
		if ansi.StringWidth(r) > 100 {
			t.Fatalf("a wrapped row is wider than the screen: %q", r)
		}
	}
	var joined strings.Builder
	for _, r := range strings.Split(screen(m), "\n") {
		if _, text, ok := strings.Cut(r, " │ "); ok {
			joined.WriteString(text)
		}
	}
	if !strings.Contains(joined.String(), "the far needle sits here") {
		t.Errorf("wrapped, the end of the long line is not on screen:\n%s", screen(m))
	}
	press(t, m, "l")
	if fv.left != 0 || !strings.Contains(screen(m), "Lines wrap: nothing to scroll sideways") {
		t.Errorf("l while wrapping: left %d\n%s", fv.left, screen(m))
	}
	if strings.Contains(screen(m), "h/l sideways") {
		t.Error("the footer offers h/l while they do nothing")
	}
	press(t, m, "w")
	if fv.wrap {
		t.Fatal("w did not turn wrapping off")
	}
}

// o lists the package's files, closure first; j/k move, enter opens the one picked, and
// a file outside the closure says so in its title; esc closes the list.
func TestFileViewFileList(t *testing.T) {
	m := hookViewModel(t, 100, 30)
	selectRef(t, m, hookScriptRef)
	press(t, m, "f")
	fv := m.fileView()
	press(t, m, "o")
	if !fv.listing || fv.pick != fv.idx {
		t.Fatalf("o: listing %v pick %d idx %d", fv.listing, fv.pick, fv.idx)
	}
	v := screen(m)
	for _, p := range []string{"scripts/check.sh", "hooks/hooks.json", ".claude-plugin/plugin.json", "enter open"} {
		if !strings.Contains(v, p) {
			t.Errorf("the list lacks %q:\n%s", p, v)
		}
	}
	press(t, m, "esc")
	if fv.listing || m.fileView() == nil {
		t.Fatal("esc did not close the list only")
	}
	press(t, m, "o", "g")
	var target int
	for i, f := range fv.files {
		if f.Path == "hooks/hooks.json" {
			target = i
		}
	}
	for i := 0; i < target; i++ {
		press(t, m, "j")
	}
	press(t, m, "enter")
	if fv.listing || fv.files[fv.idx].Path != "hooks/hooks.json" || fv.loaded == nil {
		t.Fatalf("enter opened %s (listing %v)", fv.files[fv.idx].Path, fv.listing)
	}
	if !strings.Contains(screen(m), `"PreToolUse"`) {
		t.Errorf("the picked file is not shown:\n%s", screen(m))
	}
	press(t, m, "o", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k")
	if fv.pick != 0 {
		t.Fatalf("k at the top: pick %d", fv.pick)
	}
}

// Every binding the footer names does something when pressed, and a binding that cannot
// apply is left out of the footer and says why when pressed.
func TestFileViewFooterKeysDoWhatTheySay(t *testing.T) {
	type state struct {
		open, listing, wrap, input bool
		top, left, idx, match      int
		flash                      string
	}
	snap := func(m *Model) state {
		fv := m.fileView()
		if fv == nil {
			return state{}
		}
		return state{true, fv.listing, fv.wrap, fv.inputFor != "", fv.top, fv.left, fv.idx, fv.match, fv.flash}
	}
	fresh := func() *Model {
		m := hookViewModel(t, 200, 20)
		selectRef(t, m, hookScriptRef)
		press(t, m, "f", "/", "e", "c", "h", "o", "enter", "g")
		m.fileView().flash = ""
		return m
	}
	m := fresh()
	foot := m.fileView().footerText(200)
	for _, b := range fileActions() {
		if b.foot == "" {
			continue
		}
		listed := strings.Contains(foot, b.foot)
		off := b.off != nil && b.off(m.fileView()) != ""
		if listed == off {
			t.Errorf("%s: listed %v, off %v", b.foot, listed, off)
		}
		word := strings.Fields(b.foot)[0]
		keys := strings.Split(word, "/")
		if word == "/" {
			keys = []string{"/"}
		}
		for _, k := range keys {
			m := fresh()
			before := snap(m)
			if k == "G" {
				press(t, m, "g")
			}
			if k == "h" {
				press(t, m, "l")
				before = snap(m)
			}
			if k == "k" || k == "g" || k == "N" {
				press(t, m, "G")
				before = snap(m)
			}
			press(t, m, k)
			after := snap(m)
			if k == "y" || k == "e" {
				continue // they hand the path or a copy to the system: covered elsewhere
			}
			if after == before {
				t.Errorf("%s (%s) changed nothing", k, b.foot)
			}
			if off && !strings.Contains(screen(m), b.off(m.fileView())) {
				t.Errorf("%s is off but does not say why", k)
			}
		}
	}
}

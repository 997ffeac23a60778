package ui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"vouch/internal/gen"
	"vouch/model"
	"vouch/ui/display"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Filter matches highlighted in the tree, n/N between matching rows.

func TestMarkMatches(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		words     []string
		want      string
	}{
		{"no filter: escaped as ever", "a\x1b[31mb", nil, display.Line("a\x1b[31mb")},
		{"one word, case kept", "Review-Context", []string{"review"}, "\x02Review\x03-Context"},
		{"two words", "review-context", []string{"review", "context"}, "\x02review\x03-\x02context\x03"},
		{"every occurrence", "aXaXa", []string{"a"}, "\x02a\x03X\x02a\x03X\x02a\x03"},
		{"overlapping words merge", "reviewer", []string{"review", "view"}, "\x02review\x03er"},
		{"view words are not text", "hooks", []string{":hooks"}, "hooks"},
		{"no match", "tool", []string{"hook"}, "tool"},
		{"non-ASCII folds", "ÀBC", []string{"àb"}, "\x02ÀB\x03C"},
		// A match inside an escaped sequence covers the whole token: ␛[31m is one token.
		{"inside a CSI token", "evil\x1b[31mred", []string{"31m"}, "evil\x02␛[31m\x03red"},
		{"across a token's edge", "evil\x1b[31mred", []string{"mre"}, "evil\x02␛[31mre\x03d"},
		{"inside a bidi token", "a\u202eb", []string{"rlo"}, "a\x02⟨U+202E RLO⟩\x03b"},
		{"OSC 52 token whole", "x\x1b]52;c;QQ==\x07y", []string{"52;c"}, "x\x02␛]52;c;QQ==␇\x03y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := markMatches(tc.raw, tc.words)
			if got != tc.want {
				t.Fatalf("markMatches(%q, %q) = %q, want %q", tc.raw, tc.words, got, tc.want)
			}
			if unmark(got) != display.Line(tc.raw) {
				t.Fatalf("marks changed the escaped text: %q vs %q", unmark(got), display.Line(tc.raw))
			}
		})
	}
}

func TestRenderMarked(t *testing.T) {
	br := func(s string) string { return "[" + s + "]" }
	up := strings.ToUpper
	for _, tc := range []struct{ in, want string }{
		{"plain", "[plain]"},
		{"a\x02b\x03c", "[a]B[c]"},
		{"\x02ab\x03", "AB"},
		{"a\x02b…", "[a]B…"}, // cut inside a match: the match ends with the line
		{"a\x03b", "[ab]"},   // a stray end mark is dropped
		{"\x02\x03a", "[a]"}, // an empty match styles nothing
		{"a\x02b\x03\x02c\x03", "[a]BC"},
	} {
		if got := renderMarked(tc.in, br, up); got != tc.want {
			t.Errorf("renderMarked(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// rowLine is the view line holding s (ANSI kept), "" when none does.
func rowLine(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(ansi.Strip(l), s) {
			return l
		}
	}
	return ""
}

func TestFilterHighlightsRows(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 120, 30)
	press(t, m, "/", "r", "e", "v", "i", "e", "w", "enter")
	v := m.View().Content
	// The tool row is not selected (the cursor is on the first row, a package row).
	line := rowLine(v, "tool:review-context")
	if line == "" {
		t.Fatalf("no tool row:\n%s", ansi.Strip(v))
	}
	if want := m.styles.Match.Styled("review"); !strings.Contains(line, want) {
		t.Fatalf("tool row does not highlight the match %q: %q", want, line)
	}
	// The selected row keeps reverse video with the match underlined inside it.
	if sel := rowLine(v, "▶"); !strings.Contains(sel, m.styles.CursorMatch.Styled("review")) {
		t.Fatalf("selected row does not highlight the match: %q", sel)
	}
	// Without colour the match still shows: underline survives the Ascii profile.
	plain := downsample(t, line, colorprofile.Ascii)
	if !regexp.MustCompile(`\x1b\[([0-9;]*;)?4(;[0-9;]*)?mreview`).MatchString(plain) {
		t.Fatalf("no underline under NO_COLOR: %q", plain)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.ContainsAny(l, markOn+markOff) {
			t.Fatalf("a mark reached the view: %q", l)
		}
	}
	// Clearing the filter clears the highlight.
	press(t, m, "esc")
	if strings.Contains(m.View().Content, m.styles.Match.Styled("review")) {
		t.Fatal("highlight outlived the filter")
	}
}

// The hostile corpus: a filter word found inside an escape sequence of a package name
// highlights the whole token, and no raw control or mark reaches the view.
func TestHighlightKeepsEscapesWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, q := range []string{"52;c", "2j", "evil", "owned", "31m"} {
			m := newTestModel(t, hostilePackages(), size[0], size[1])
			press(t, m, "/")
			press(t, m, strings.Split(q, "")...)
			press(t, m, "enter")
			where := fmt.Sprintf("%dx%d /%s", size[0], size[1], q)
			if len(m.tree.visible) == 0 {
				t.Fatalf("%s: nothing matches", where)
			}
			for i := 0; i < len(m.tree.visible); i++ {
				v := m.View().Content
				assertNoRawControls(t, where, v)
				if strings.ContainsAny(v, markOn+markOff) {
					t.Fatalf("%s: a mark reached the view", where)
				}
				press(t, m, "j")
			}
		}
	}
	// The highlight starts where the token starts (␛]52;…), not at the word inside it;
	// the pane then cuts the long name, as it cuts any row.
	m := newTestModel(t, hostilePackages(), 400, 30)
	press(t, m, "/", "5", "2", ";", "c", "enter", "j")
	if row := rowLine(m.View().Content, "evil"); !strings.Contains(row, m.styles.Match.String()+"␛]52;") {
		t.Fatalf("the highlight does not start at the OSC 52 token:\n%q", row)
	}
}

// visibleItems is what the tree shows, as items.
func visibleItems(m *Model) []item {
	out := make([]item, len(m.tree.visible))
	for i, idx := range m.tree.visible {
		out[i] = m.tree.all[idx]
	}
	return out
}

func TestNextMatchKeys(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 120, 40)
	// Without a filter, n goes to what can be approved now (the tool before its hook).
	press(t, m, "n")
	if _, c, _, _ := m.selection(); c == nil || c.Kind != model.KindTool {
		t.Fatalf("n without a filter: %v, want the tool", c)
	}
	// "fetch" matches the broken plugin's server by its id; the package row is context.
	press(t, m, "g", "/", "f", "e", "t", "c", "h")
	if got := m.tree.filter.Value(); got != "fetch" {
		t.Fatalf("n typed while editing the filter was not text: %q", got)
	}
	press(t, m, "enter")
	if !applies(m, "next-match") || applies(m, "next-review") {
		t.Fatal("with a filter set, n is next match and not next approvable")
	}
	if m.tree.hit[0] {
		t.Fatal("the package row is only context: it did not match by its own text")
	}
	press(t, m, "n")
	if _, c, _, _ := m.selection(); c == nil || c.ID != "fetch" {
		t.Fatalf("n: %v, want the fetch server", c)
	}
	press(t, m, "n") // one match: n stays on it (wraps to itself)
	if _, c, _, _ := m.selection(); c == nil || c.ID != "fetch" {
		t.Fatalf("n again: %v", c)
	}
	// Two words match the design-review rows; n and N walk them and wrap.
	press(t, m, "esc", "/", "c", "o", "n", "t", "e", "x", "t", "enter")
	var hits []item
	for i, h := range m.tree.hit {
		if h {
			hits = append(hits, m.tree.all[m.tree.visible[i]])
		}
	}
	if len(hits) < 3 {
		t.Fatalf("context matches %d rows by their own text, want at least 3", len(hits))
	}
	for i := range len(hits) + 1 {
		press(t, m, "n")
		if sel, _ := m.tree.selected(); sel != hits[i%len(hits)] {
			t.Fatalf("n #%d: %v, want %v", i+1, sel, hits[i%len(hits)])
		}
	}
	press(t, m, "N", "N") // from the first match back past the start, wrapping
	if sel, _ := m.tree.selected(); sel != hits[len(hits)-2] {
		t.Fatalf("N N: %v, want %v", sel, hits[len(hits)-2])
	}
	// The footer and the key sheet say what n does now.
	if h := ansi.Strip(m.helpView()); !strings.Contains(h, "next match") || strings.Contains(h, "next approvable") {
		t.Fatalf("footer with a filter: %q", h)
	}
	press(t, m, "?")
	sheet := ansi.Strip(m.View().Content)
	if !strings.Contains(sheet, "a filter is set: n and N move between its matches") {
		t.Fatalf("key sheet does not say why next approvable is off:\n%s", sheet)
	}
	press(t, m, "?", "esc")
	// Cleared: n is next approvable again.
	if applies(m, "next-match") || !applies(m, "next-review") {
		t.Fatal("after esc, n is next approvable again")
	}
	if h := ansi.Strip(m.helpView()); strings.Contains(h, "next match") {
		t.Fatalf("footer without a filter: %q", h)
	}
}

// An incremental filter (narrowed from the last result, found in the cache, cut short by
// the text index) shows exactly what searching every row's text shows, keystroke by
// keystroke; also over the hostile corpus (newlines and escapes in the indexed text) and
// with components sorted by risk (index rows in another order than the tree's).
func TestIncrementalFilterAgreesWithFullPass(t *testing.T) {
	for _, tc := range []struct {
		name string
		pkgs []*model.Package
		keys []string
	}{
		{"generated", largeSource(40), nil},
		{"hostile", append(hostilePackages(), largeSource(5)...), nil},
		{"by risk", largeSource(40), []string{"S"}},
	} {
		t.Run(tc.name, func(t *testing.T) { incrementalAgrees(t, newTestModel(t, tc.pkgs, 120, 40), tc.keys) })
	}
	// Packages read from disk: their bodies were let go and the content search reads
	// them back (one copy of each distinct body in the index, every row listed).
	t.Run("from disk", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "gen")
		if err := gen.Generate(dir, 30); err != nil {
			t.Fatal(err)
		}
		m := diskModel(t, 120, 40, dir)
		dropped := 0
		for _, p := range m.data.pkgs {
			for _, c := range p.Components {
				if bodyDropped(c) {
					dropped++
				}
			}
		}
		if dropped == 0 {
			t.Fatal("no body was let go: the case tests nothing new")
		}
		incrementalAgrees(t, m, nil)
	})
}

func incrementalAgrees(t *testing.T, m *Model, first []string) {
	press(t, m, first...)
	if m.tree.rowOf == nil {
		t.Fatal("no text index: the test would compare the row-by-row search with itself")
	}
	keys := strings.Split("review ctx", "")
	keys = append(keys, "backspace", "backspace", "backspace", "x", "backspace", "backspace", "backspace")
	keys = append(keys, strings.Split(":hooks", "")...)
	keys = append(keys, "backspace", "backspace", "tab", "s", "backspace", "backspace", "a", "b", "c")
	keys = append(keys, "backspace", "backspace", "backspace", "d", "o", "c", " ", "3", "1", "m", "backspace", "backspace", "backspace", "e", "v", "i", "l")
	// Words found at the very start of a row's text (package names come first).
	for range 30 {
		keys = append(keys, "backspace")
	}
	// Content search on (the tab above): words only bodies hold, then off again.
	keys = append(keys, "d", "o", "c", " ", "f", "i", "r", "s", "t", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	keys = append(keys, "tab", "b", "r", "o", "k", "backspace", "backspace", "backspace", "backspace", "d", "e", "s", "i", "g", "n", "-")
	press(t, m, "/")
	sawText := false
	defer func() {
		if !sawText {
			t.Error("no keystroke found a row by its text alone: content search went untested")
		}
	}()
	for i, k := range keys {
		press(t, m, k)
		if m.tree.content && strings.HasPrefix(m.tree.filter.Value(), "doc") && len(m.tree.visible) > 0 {
			sawText = true
		}
		got, gotHit := visibleItems(m), slices.Clone(m.tree.hit)
		// Forget every result and the index: the next pass searches each row's text.
		m.tree.statusChanged()
		rowOf := m.tree.rowOf
		m.tree.rowOf = nil
		m.tree.applyFilter()
		m.tree.rowOf = rowOf
		if want := visibleItems(m); !slices.Equal(got, want) || !slices.Equal(gotHit, m.tree.hit) {
			t.Fatalf("after key %d (%q, filter %q): incremental %v, row by row %v", i, k, m.tree.filter.Value(), got, want)
		}
	}
}

// The work a keystroke does: narrowing a query searches only the rows the last kept.
func TestFilterNarrowingSearchesFewerRows(t *testing.T) {
	m := newTestModel(t, largeSource(200), 120, 40)
	press(t, m, "/", "b")
	rows := len(m.tree.all)
	kept := len(m.tree.last.rows) + len(m.tree.last.empty)
	m.tree.searched = 0
	press(t, m, "r") // "br": only rows "b" kept can match
	if m.tree.searched > 2*kept+200 {
		t.Fatalf("narrowing searched %d rows; the last result kept %d of %d", m.tree.searched, kept, rows)
	}
	m.tree.searched = 0
	press(t, m, "backspace") // "b" again: from the cache
	if m.tree.searched != 0 {
		t.Fatalf("a query seen a keystroke ago searched %d rows again", m.tree.searched)
	}
}

// G, g and a page of j on a tree of thousands of rows touch only rows near the screen.
func TestJumpsTouchOnlyVisibleRows(t *testing.T) {
	m := newTestModel(t, largeSource(2000), 120, 40)
	h := m.tree.listHeight()
	for _, k := range []string{"G", "g", "G", "k", "g", "j"} {
		m.tree.measured = 0
		press(t, m, k)
		if m.tree.measured > 4*h {
			t.Fatalf("%s measured %d rows for a %d-line pane of %d rows", k, m.tree.measured, h, len(m.tree.visible))
		}
	}
	if sel, _ := m.tree.selected(); sel != m.tree.all[m.tree.visible[1]] {
		t.Fatalf("g j: %v", sel)
	}
	press(t, m, "G")
	if m.tree.cursor != len(m.tree.visible)-1 {
		t.Fatalf("G: cursor %d of %d", m.tree.cursor, len(m.tree.visible))
	}
	// The last row is drawn at the bottom, the screen full above it.
	if v := ansi.Strip(m.tree.View()); !strings.Contains(v, "▶") {
		t.Fatalf("G: the selection is not on screen:\n%s", v)
	}
}

// tab (search text too) lowercases every body in a command, not in the keystroke that
// asked: until its message arrives the filter says it is reading, then shows the rows
// whose text matches.
func TestContentSearchTextBuiltOffTheLoop(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 120, 40)
	press(t, m, "/", "d", "o", "c")
	if len(m.tree.visible) != 0 {
		t.Fatalf("doc matches %d rows by name; the test needs a word only text holds", len(m.tree.visible))
	}
	_, cmd := m.Update(keyMsg("tab"))
	if cmd == nil || !m.data.indexing {
		t.Fatal("tab did not start building the text")
	}
	m.Update(keyMsg("s"))
	m.Update(keyMsg("backspace"))
	if m.tree.bodies != nil || m.data.lowBodies != nil {
		t.Fatal("a keystroke lowercased text bodies on the update loop")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "/(+text, reading…) doc") {
		t.Fatalf("the filter does not say it is reading the text:\n%s", v)
	}
	run(t, m, cmd)
	var kinds []model.Kind
	for _, it := range visibleItems(m) {
		if !it.isPackage() {
			kinds = append(kinds, m.data.pkgs[it.pkg].Components[it.comp].Kind)
		}
	}
	if !slices.Equal(kinds, []model.Kind{model.KindSkill, model.KindInstruction}) {
		t.Fatalf("rows whose text says doc: %v", kinds)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "/(+text) doc") {
		t.Fatalf("prompt after reading:\n%s", v)
	}
}

package skills

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

type hc = model.HiddenContent

// scanHiddenCases is the hidden-content corpus: TestScanHidden checks each case, and
// TestScanHiddenFastPath reuses the inputs.
var scanHiddenCases = []struct {
	name  string
	md    string
	first int
	want  []hc // every entry must be present (Kind, Line, and Text substring)
	none  []string
}{
	{
		name: "html comment inline and block",
		md:   "# T\n\nText <!-- inline secret --> more.\n\n<!--\nignore previous\ninstructions\n-->\n",
		want: []hc{{Kind: HiddenComment, Line: 3, Text: "<!-- inline secret -->"}, {Kind: HiddenComment, Line: 5, Text: "ignore previous\ninstructions\n-->"}},
	},
	{
		name:  "first line offset",
		md:    "<!-- x -->\n",
		first: 7,
		want:  []hc{{Kind: HiddenComment, Line: 7, Text: "<!-- x -->"}},
	},
	{
		name: "html tags inline and block",
		md:   "Hello <span style=\"display:none\">hidden</span> world.\n\n<div>\nblock text\n</div>\n",
		want: []hc{{Kind: HiddenTag, Line: 1, Text: "<span style=\"display:none\">"}, {Kind: HiddenTag, Line: 1, Text: "</span>"}, {Kind: HiddenTag, Line: 3, Text: "<div>\nblock text\n</div>"}},
	},
	{
		name: "code span and fenced code are shown",
		md:   "Use `<!-- not hidden -->` and `<b>`.\n\n```html\n<!-- shown -->\n<div>x</div>\n[a]: http://x\n```\n\n~~~\n<i>\n~~~\n",
		none: []string{HiddenComment, HiddenTag, HiddenLinkDef},
	},
	{
		name: "indented code is shown",
		md:   "Para.\n\n    <!-- code -->\n",
		none: []string{HiddenComment},
	},
	{
		name: "link reference definitions, duplicates and titles",
		md:   "See [x].\n\n[x]: https://a.example \"Title\"\n[x]: https://b.example 'second definition is hidden too'\n[y]:\n  https://c.example\n  (multi-line title)\n\nText.\n",
		want: []hc{
			{Kind: HiddenLinkDef, Line: 3, Text: "[x]: https://a.example \"Title\""},
			{Kind: HiddenLinkDef, Line: 4, Text: "second definition is hidden too"},
			{Kind: HiddenLinkDef, Line: 5, Text: "(multi-line title)"},
		},
	},
	{
		name: "link definition in a blockquote and list",
		md:   "> [q]: http://q \"quoted\"\n\n- item\n\n  [l]: http://l\n",
		want: []hc{{Kind: HiddenLinkDef, Line: 1, Text: "[q]: http://q"}, {Kind: HiddenLinkDef, Line: 5, Text: "[l]: http://l"}},
	},
	{
		name: "fence closed by a list item's end",
		md:   "- a\n  ```\n<!-- hidden after the list closes the fence -->\n",
		want: []hc{{Kind: HiddenComment, Line: 3, Text: "hidden after"}},
	},
	{
		name: "not link definitions",
		md:   "[a] is text\n\n[b](http://inline) is a link\n",
		none: []string{HiddenLinkDef},
	},
	{
		name: "bidi and zero width",
		md:   "abc\u202Edef\nx\u200By\n",
		want: []hc{{Kind: HiddenInvisible, Line: 1, Text: "U+202E RIGHT-TO-LEFT OVERRIDE"}, {Kind: HiddenInvisible, Line: 2, Text: "U+200B ZERO WIDTH SPACE"}},
	},
	{
		name: "tag characters decoded",
		md:   "ok" + tagText("ignore all") + "\n",
		want: []hc{{Kind: HiddenInvisible, Line: 1, Text: `spell "ignore all"`}},
	},
	{
		name: "invisibles inside code are still reported",
		md:   "```\na\u2066b\n```\n",
		want: []hc{{Kind: HiddenInvisible, Line: 2, Text: "U+2066"}},
	},
	{
		name: "other invisibles",
		md:   "a\uFE0Fb\u3164c\u115Fd\u2028e\u2029f\x1bg\u0085h\uFEFFi\u00ADj\x00k\x7fl\u180Em\U000E0100n\r\n",
		want: invisibles(1, "U+FE0F VARIATION SELECTOR-16", "U+3164 HANGUL FILLER", "U+115F", "U+2028", "U+2029",
			"U+001B", "U+0085", "U+FEFF", "U+00AD", "U+0000", "U+007F", "U+180E", "U+E0100 VARIATION SELECTOR-17"),
	},
	{
		name: "bare carriage return, CRLF is fine",
		md:   "a\r\nb\rc\n",
		want: []hc{{Kind: HiddenInvisible, Line: 2, Text: "U+000D"}},
	},
	{
		name: "invalid utf8",
		md:   "a\xffb\n",
		want: []hc{{Kind: HiddenInvisible, Line: 1, Text: "invalid UTF-8 byte 0xFF"}},
	},
	{
		name: "plain text has nothing",
		md:   "# Title\n\nPlain *text* with a [link](http://x) and <https://auto.link>, a < b > c.\n\ttabbed\n",
		none: []string{HiddenComment, HiddenTag, HiddenLinkDef, HiddenInvisible},
	},
}

// invisibles is what ScanHidden lists for invisible characters that stand on one line:
// an entry for each text.
func invisibles(line int, texts ...string) []hc {
	out := make([]hc, len(texts))
	for i, text := range texts {
		out[i] = hc{Kind: HiddenInvisible, Line: line, Text: text}
	}
	return out
}

func TestScanHidden(t *testing.T) {
	for _, tc := range scanHiddenCases {
		t.Run(tc.name, func(t *testing.T) {
			first := tc.first
			if first == 0 {
				first = 1
			}
			checkHidden(t, ScanHidden(tc.md, first), tc.want, tc.none)
		})
	}
}

// checkHidden fails unless got holds every entry of want (same Kind and Line, Text a
// substring of what was found) and no entry of a kind in none.
func checkHidden(t *testing.T, got, want []hc, none []string) {
	t.Helper()
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g hc) bool {
			return g.Kind == w.Kind && g.Line == w.Line && strings.Contains(g.Text, w.Text)
		}) {
			t.Errorf("missing %+v in %+v", w, got)
		}
	}
	for _, g := range got {
		if slices.Contains(none, g.Kind) {
			t.Errorf("unexpected %+v", g)
		}
	}
}

func tagText(s string) string {
	var b strings.Builder
	b.WriteRune(0xE0001)
	for _, r := range s {
		b.WriteRune(0xE0000 + r)
	}
	b.WriteRune(0xE007F)
	return b.String()
}

func TestScanHiddenRunsGrouped(t *testing.T) {
	got := ScanHidden("x"+strings.Repeat("\u200B", 5000)+"y\n", 1)
	if len(got) != 1 || !strings.HasPrefix(got[0].Text, "5000 invisible characters: U+200B ZERO WIDTH SPACE") {
		t.Fatalf("got %d entries: %.200v", len(got), got)
	}
}

func TestParseHiddenInFrontmatterAndBody(t *testing.T) {
	data := []byte("---\nname: x\ndescription: Safe\u202E text\n---\n\n<!-- secret -->\n")
	sk, _ := Parse(data, "x", "SKILL.md")
	want := map[string]int{HiddenInvisible: 3, HiddenComment: 6}
	for _, h := range sk.Hidden {
		if line, ok := want[h.Kind]; ok && line == h.Line {
			delete(want, h.Kind)
		}
	}
	if len(want) != 0 {
		t.Errorf("missing %v in %+v", want, sk.Hidden)
	}
}

// pathological builds markdown shaped to make a markdown parser slow, n repetitions of
// each shape (TestScanHiddenPathological and BenchmarkScanHiddenPathological).
var pathological = map[string]func(n int) string{
	"brackets":  func(n int) string { return strings.Repeat("[", 2*n) },
	"comments":  func(n int) string { return strings.Repeat("<!--", n) },
	"emphasis":  func(n int) string { return strings.Repeat("*a_", n) },
	"tags":      func(n int) string { return strings.Repeat("<a ", n) },
	"linkdefs":  func(n int) string { return strings.Repeat("[a]: b\n", n/2) },
	"backticks": func(n int) string { return strings.Repeat("`", n) + "x" + strings.Repeat("``", n/100) },
	"nesting":   func(n int) string { return strings.Repeat("> - ", n/5) + "x" },
	"quote":     func(n int) string { return strings.Repeat(">", 2*n) + "x" },
	"list":      func(n int) string { return strings.Repeat("- ", 2*n) + "x" },
	"links":     func(n int) string { return strings.Repeat("[a](", 2*n) },
	"unclosed":  func(n int) string { return strings.Repeat("a <!-- ", n*3/2) },
	"table":     func(n int) string { return "|" + strings.Repeat("a|", n) + "\n|" + strings.Repeat("-|", n) + "\n" },
	"lines":     func(n int) string { return strings.Repeat("a\n", 5*n) },
	// The same shapes behind a '<', so the parse is not skipped by the shortcut.
	"brackets-html": func(n int) string { return "<b>\n\n" + strings.Repeat("[", 2*n) },
	"emphasis-html": func(n int) string { return "<b>\n\n" + strings.Repeat("*a_", n) },
	"links-html":    func(n int) string { return "<b>\n\n" + strings.Repeat("[a](", 2*n) },
}

// scanCost is the work of one ScanHidden call counted in what the runtime counts
// exactly: heap allocations and bytes allocated (on one P, after a warm-up call on that
// P that fills the parser pool; the least of three calls, so a pool emptied by a
// collection does not count as the scan's work), and the size of what it returns.
func scanCost(in string) (mallocs, bytes uint64, found int) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ScanHidden(in, 1)
	mallocs, bytes = ^uint64(0), ^uint64(0)
	for range 3 {
		var out []hc
		m, b := testtree.AllocatedBy(func() { out = ScanHidden(in, 1) })
		mallocs, bytes = min(mallocs, m), min(bytes, b)
		found = 0
		for _, h := range out {
			found += len(h.Text)
		}
	}
	return mallocs, bytes, found
}

// Hostile markdown must not make the scanner slow: the console runs it on every SKILL.md.
// The scan's cost at 2n repetitions of each shape is at most about twice its cost at n
// (a quadratic step would make it four times), in allocations, bytes allocated and
// output, and the path it takes (parse or conservative fallback) does not change with
// size. Wall-clock time is BenchmarkScanHiddenPathological's business.
func TestScanHiddenPathological(t *testing.T) {
	const n = 20_000
	linear := func(small, large, slack uint64) bool { return large <= small*5/2+slack }
	for name, gen := range pathological {
		small, large := gen(n), gen(2*n)
		m1, b1, o1 := scanCost(small)
		m2, b2, o2 := scanCost(large)
		// Allocation counts are process-wide, so another test's goroutines can add a few
		// hundred; a quadratic scan of 80 KB adds far more than the slack.
		if !linear(m1, m2, 2048) || !linear(b1, b2, 256<<10) || !linear(uint64(o1), uint64(o2), 1024) {
			t.Errorf("%s: from %d to %d bytes of input, allocations %d → %d, bytes allocated %d → %d, output %d → %d: more than linear",
				name, len(small), len(large), m1, m2, b1, b2, o1, o2)
		}
		// A generous cap: allocations per byte depend on the build (-race allocates
		// about ten times more, still linearly); a quadratic step is far beyond it.
		if per := b2 / uint64(len(large)); per > 4096 {
			t.Errorf("%s: %d bytes allocated per input byte", name, per)
		}
		if _, d1 := scanHidden(small, 1); func() bool { _, d2 := scanHidden(large, 1); return d1 != d2 }() {
			t.Errorf("%s: the scan changes path between %d and %d bytes", name, len(small), len(large))
		}
	}
}

// BenchmarkScanHiddenPathological times each hostile shape at 100,000 repetitions and
// reports the cost per input byte (ns/B), the measure TestScanHiddenPathological cannot
// make without depending on the machine.
func BenchmarkScanHiddenPathological(b *testing.B) {
	for _, name := range []string{"brackets", "comments", "emphasis", "tags", "linkdefs", "backticks", "nesting", "quote", "list", "links", "unclosed", "table", "lines", "brackets-html", "emphasis-html", "links-html"} {
		in := pathological[name](100_000)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				ScanHidden(in, 1)
			}
		})
	}
}

func FuzzScanHidden(f *testing.F) {
	f.Add("<!-- a -->\n[x]: y \"t\"\n`<b>`\n\u202E")
	f.Add("- a\n  ```\n<div>\n")
	f.Add("> [q]: http://q\n\n```\n<!-- -->\n```\n")
	f.Fuzz(func(t *testing.T, md string) {
		lines := strings.Count(md, "\n") + 1
		for _, h := range ScanHidden(md, 3) {
			if h.Line < 3 || h.Line > lines+2 {
				t.Fatalf("line %d out of range for %d lines: %+v", h.Line, lines, h)
			}
			if h.Text == "" {
				t.Fatalf("empty text %+v", h)
			}
		}
	})
}

func TestScanHiddenDegraded(t *testing.T) {
	md := strings.Repeat(">", 150) + " x\n\n```\n<!-- in code -->\n```\n[d]: http://x\n"
	got, degraded := scanHidden(md, 1)
	if !degraded {
		t.Fatal("not degraded")
	}
	var kinds []string
	for _, h := range got {
		kinds = append(kinds, h.Kind+"@"+fmt.Sprint(h.Line))
	}
	if want := "html-comment@4 link-definition@6"; strings.Join(kinds, " ") != want {
		t.Errorf("got %v, want %s", kinds, want)
	}
	_, ds := Parse([]byte("---\nname: x\ndescription: d\n---\n"+md), "x", "SKILL.md")
	if d := loadertest.Find(ds, "skill-markdown-pathological"); d == nil || d.Line != 5 || d.Severity != model.SeverityWarning {
		t.Errorf("diagnostic %+v", d)
	}
}

func TestSlowToRender(t *testing.T) {
	cases := map[string]struct {
		md   string
		slow bool
	}{
		"ordinary":        {"# Title\n\nSome *emphasis*, a [link](https://example.com) and `code`.\n", false},
		"too large":       {strings.Repeat("a", 300<<10), true},
		"emphasis bomb":   {strings.Repeat("*a_", 100_000), true},
		"bracket bomb":    {strings.Repeat("[a](", 200_000), true},
		"deep nesting":    {strings.Repeat("- ", 200) + "x\n", true},
		"comment openers": {strings.Repeat("<!--", 2500), true},
	}
	for name, tc := range cases {
		if got := SlowToRender(tc.md) != ""; got != tc.slow {
			t.Errorf("%s: SlowToRender = %v, want %v", name, got, tc.slow)
		}
	}
}

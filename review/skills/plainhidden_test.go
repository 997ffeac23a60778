package skills

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vouch/internal/gen"
)

// samePlainHidden fails when plainHidden accepts md but the markdown parse finds
// something else (sameScan), and reports whether it accepted.
func samePlainHidden(t *testing.T, name, md string) bool {
	t.Helper()
	if _, ok := plainHidden(md, newLineIndex(md, 1)); !ok {
		return false
	}
	sameScan(t, name, md)
	return true
}

func TestPlainHiddenMatchesParse(t *testing.T) {
	cases := []struct {
		md     string
		accept bool
	}{
		{"# T\n\n<!-- note -->\n\nSee <https://example.com/a?b=c> and `code`.\n", true},
		{"para\n<!-- interrupts the paragraph -->\nmore\n", true},
		{"> quote\n<!-- after a block quote -->\n", true},
		{"- item\n<!-- after a list item -->\n", true},
		{"1. item\n   continued\n<!-- after -->\n   not in the item\n", true},
		{"<!-- a --> trailing text <b>\n", true},
		{"<!-->\n", true},
		{"<!---->\n<!-- -- -->\n", true},
		{"```\n<!-- in code -->\n<div>\n```\n<!-- after code -->\n", true},
		{"~~~~\n```\n<!-- still code -->\n~~~\n~~~~ \n<!-- out -->\n", true},
		{"```go\n<b>\n", true},                                           // unclosed: code to the end
		{"```a`b\n<!-- a fence needs no backtick after it -->\n", false}, // an open backtick run
		{"```<info>\ncode\n```\n", true},
		{"x <mailto:a@b.c> <A+b.c-d:x> `<https://x>` <https://x\n", true},
		{"| a | <https://x> |\n|---|---|\n<!-- c -->\n", true},
		{"    <!-- indented code at the margin? no: four spaces -->\n", false},
		{"  <!-- indented -->\n", false},
		{"<!-- open\n-->\n", false},
		{"text <b>bold</b>\n", false},
		{"`<b>`\n", true},
		{"Run `tool --name <value>` then ``a ` <b> `` and <https://x>.\n", true},
		{"# `<h>` heading\n- `<li>`\n> `<q>`\n    `<code>`\n", true},
		{"| `<b>` | x |\n|---|---|\n", false}, // a pipe splits cells inside code too
		{"| `a | <b>` |\n|---|\n", false},
		{"a `x\ny` <b>\n", false}, // a span across lines
		{"a `\n`<b>` `c\n", false},
		{"`unclosed <b>\n", false},
		{"\\`<b>`\n", false},               // an escaped backtick opens nothing
		{"<https://a`b> <c>` x`\n", false}, // an autolink may swallow the backtick
		{"``<b>`\n", false},
		{"<div>\n", false},
		{"[a]: /u\n", false},
		{"Term\n: def\n<!-- c -->\n", false},
		{"- item\n  ```\n<!-- c -->\n", false},
		{"> ```\n<!-- c -->\n", false},
		{"```\n  ```\n<!-- c -->\n", false},
		{"<!-- c -->\r\n", false},
		{"<a.b>\n", false},
		{"<1a:b>\n", false},
	}
	for _, tc := range cases {
		if got := samePlainHidden(t, strconv.Quote(tc.md), tc.md); got != tc.accept {
			t.Errorf("%q: plainHidden accepted %v, want %v", tc.md, got, tc.accept)
		}
	}
	accepted := 0
	for name, md := range corpus(t) {
		if samePlainHidden(t, name, md) {
			accepted++
		}
	}
	t.Logf("%d corpus inputs took plainHidden", accepted)
}

// The generated heavy plugin's skills (the benchmark's shape) must take plainHidden, or
// the benchmark measures the parse.
func TestPlainHiddenTakesGeneratedSkills(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.HeavyPlugin(dir, 20); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "skills", "*", "SKILL.md"))
	if len(paths) != 20 {
		t.Fatalf("%d skills generated", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, body, _, _ := splitFrontmatter(string(data), &parseState{})
		if !samePlainHidden(t, p, body) {
			t.Errorf("%s: plainHidden fell back to the parse", p)
		}
		if hidden := ScanHidden(body, 1); len(hidden) == 0 || hidden[0].Kind != HiddenComment {
			t.Errorf("%s: %+v, want the maintainer comment", p, hidden)
		}
	}
}

// plainLines are the lines random skill bodies are built from: the shapes plainHidden
// accepts and the ones next to them that it must leave to the parse.
var plainLines = []string{
	"# Title", "## Steps", "", "", "text with `code` and *emphasis*", "See <https://example.com/x>.",
	"<!-- note -->", "<!-- note --> after", "<!-->", "<!-- open", "-->", "- item", "1. step",
	"   continued", "    indented", "> quote", "> <!-- q -->", "```", "```bash", "````", "~~~",
	"  ```", "- ```", "| a | b |", "|---|---|", "Term", ": def", "<b>", "`<b>`", "<mailto:x@y>",
	"[ref]", "[ref]: /u", "<div>", "</div>", "\t<!-- t -->", "<https://a`b>` <i>", "***", "---",
	"use `--name <value>`", "`<a>` and `<b>`", "``x ` <y>``", "| `<c>` |", "`<d> |`", "a `", "` <e>",
	"\\`<f>`", "`<g>`` ", "<https://h>`<i>`",
}

func randomBody(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.Intn(25); n > 0; n-- {
		b.WriteString(plainLines[r.Intn(len(plainLines))])
		b.WriteByte('\n')
	}
	return b.String()
}

func TestPlainHiddenRandom(t *testing.T) {
	r, n := rand.New(rand.NewSource(3)), draws(30000)
	accepted, found := 0, 0
	for i := 0; i < n && !t.Failed(); i++ {
		md := randomBody(r)
		if samePlainHidden(t, strconv.Quote(md), md) {
			accepted++
			if out, _ := plainHidden(md, newLineIndex(md, 1)); len(out) > 0 {
				found++
			}
		}
	}
	// The comparison must cover both outcomes, with findings, or it proves nothing.
	t.Logf("%d of %d random bodies took plainHidden, %d with findings", accepted, n, found)
	if accepted < n/20 || found < n/100 || accepted == n {
		t.Fatalf("%d of %d random bodies took plainHidden, %d with findings", accepted, n, found)
	}
}

// FuzzPlainHidden holds plainHidden to the parse on arbitrary input.
func FuzzPlainHidden(f *testing.F) {
	f.Add("# T\n<!-- c -->\nSee <https://x>.\n")
	f.Add("```\n<!-- c -->\n```\n<!-- d -->\n")
	f.Add("- a\n<!-- c -->\n> b\n<!--> x\n")
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 4096 {
			return
		}
		samePlainHidden(t, strconv.Quote(md), md)
	})
}

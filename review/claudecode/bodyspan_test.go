package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

// checkBodySpans asserts that every component whose body the loader says can be read
// back (BodyEnd > BodyStart) holds exactly those bytes of its BodyFile, read through the
// package's reader as a console reads them back. It returns how many it checked.
func checkBodySpans(t *testing.T, p *model.Package) int {
	t.Helper()
	n := 0
	for _, c := range p.Components {
		if c.BodyEnd <= c.BodyStart {
			continue
		}
		if p.Reader == nil {
			t.Fatalf("%s:%s has a body span but its package no reader", c.Kind, c.ID)
		}
		data, err := p.Reader.ReadFile(c.BodyFile)
		if err != nil {
			t.Fatalf("%s:%s: %s cannot be read back: %v", c.Kind, c.ID, c.BodyFile, err)
		}
		if c.BodyEnd > len(data) || string(data[c.BodyStart:c.BodyEnd]) != c.Body {
			t.Fatalf("%s:%s: %s[%d:%d] is not the body %q", c.Kind, c.ID, c.BodyFile, c.BodyStart, c.BodyEnd, c.Body)
		}
		n++
	}
	return n
}

// Commands and agents record where their body lies in their file, in every shape of
// file: LF, CRLF, a BOM, no frontmatter, an empty body. A file with invalid UTF-8 is shown
// converted, so it says its body cannot be read back.
func TestMarkdownBodySpan(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "spans"}`, 0o644)
	files := map[string]string{
		"commands/lf.md":      "---\ndescription: d\n---\nRun the tests.\n",
		"commands/crlf.md":    "---\r\ndescription: d\r\n---\r\nRun\r\nthe tests.\r\n",
		"commands/bom.md":     "\uFEFF---\ndescription: d\n---\nbody after a BOM\n",
		"commands/plain.md":   "No frontmatter at all.\n",
		"commands/open.md":    "---\ndescription: never closed\nbody\n",
		"agents/helper.md":    "---\nname: helper\ndescription: helps\n---\nYou help.\n",
		"agents/empty.md":     "---\nname: empty\ndescription: nothing after\n---\n",
		"commands/badutf8.md": "---\ndescription: d\n---\nbad \xff\xfe\xfd byte\n",
		"skills/s/SKILL.md":   "---\nname: s\ndescription: a skill\n---\r\nSkill text.\n",
	}
	for rel, data := range files {
		testtree.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644)
	}
	p := LoadPlugin(dir, Options{})
	if n := checkBodySpans(t, p); n != 7 {
		t.Errorf("checked %d body spans, want 7 (every non-empty body but the invalid UTF-8 one)", n)
	}
	for _, c := range p.Components {
		if c.BodyFile == "commands/badutf8.md" && c.BodyEnd > c.BodyStart {
			t.Errorf("the converted body of %s claims a span [%d:%d]", c.BodyFile, c.BodyStart, c.BodyEnd)
		}
	}
}

// Every case and example loads with spans that hold.
func TestBodySpansOnFixtures(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/cases/*")
	ex, _ := filepath.Glob("../../examples/claude-code/*")
	n := 0
	for _, d := range append(dirs, ex...) {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		for _, p := range Load(d, Options{}) {
			n += checkBodySpans(t, p)
		}
	}
	if n == 0 {
		t.Fatal("no fixture has a body to check")
	}
}

// FuzzMarkdownBody feeds arbitrary bytes as a command file: its span, when it claims one,
// holds its body.
func FuzzMarkdownBody(f *testing.F) {
	for _, s := range []string{
		"---\ndescription: d\n---\nbody\n", "---\r\ndescription: d\r\n---\r\nbody\r\n", "\uFEFF---\nx: 1\n---\n",
		"plain text", "---\nunclosed\n", "---\n---", "bad \xff", "",
	} {
		f.Add([]byte(s))
	}
	dir := fuzzDir(f)
	os.WriteFile(filepath.Join(dir, manifestFile), []byte(`{"name": "fuzz"}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "commands"), 0o755)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "commands", "x.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p := LoadPlugin(dir, Options{})
		checkInvariants(t, p)
		checkBodySpans(t, p)
	})
}

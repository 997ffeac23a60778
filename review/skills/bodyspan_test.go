package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

// The body's offsets let a console drop the text and read it back from the file, so they
// must name exactly the bytes Body holds, whatever the file's shape.
func TestParseBodySpan(t *testing.T) {
	for name, data := range map[string]string{
		"frontmatter":    "---\nname: x\ndescription: d\n---\n# Body\n\nText.\n",
		"crlf":           "---\r\nname: x\r\ndescription: d\r\n---\r\n# Body\r\n\r\nText.\r\n",
		"bom":            "\uFEFF---\nname: x\ndescription: d\n---\nbody\n",
		"no frontmatter": "# Just text\n\nNo header.\n",
		"unterminated":   "---\nname: x\ndescription: d\nbody without a closing line\n",
		"empty body":     "---\nname: x\ndescription: d\n---\n",
		"no newline":     "---\nname: x\ndescription: d\n---",
		"delim spaces":   "---\nname: x\ndescription: d\n--- \t\r\nafter\n",
		"invalid utf8":   "---\nname: x\ndescription: d\n---\nbad \xff byte\n",
		"empty":          "",
	} {
		sk, _ := Parse([]byte(data), "x", "SKILL.md")
		if sk.BodyStart < 0 || sk.BodyEnd > len(data) || sk.BodyStart > sk.BodyEnd {
			t.Errorf("%s: span [%d:%d] outside %d bytes", name, sk.BodyStart, sk.BodyEnd, len(data))
			continue
		}
		if got := data[sk.BodyStart:sk.BodyEnd]; got != sk.Body {
			t.Errorf("%s: data[%d:%d] = %q, body %q", name, sk.BodyStart, sk.BodyEnd, got, sk.Body)
		}
	}
}

// Load carries the span to the component, on every fixture of this package: the bytes the
// span names in BodyFile are the body.
func TestLoadBodySpan(t *testing.T) {
	dir := t.TempDir()
	bad, err := filepath.Glob("testdata/bad/*.md")
	if err != nil || len(bad) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range bad {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		loadertest.WriteFile(t, filepath.Join(dir, name, "SKILL.md"), string(data))
	}
	good, _ := filepath.Glob("testdata/good/*")
	checked := 0
	for _, root := range append([]string{dir}, good...) {
		r := openRoot(t, root, fsguard.DefaultLimits())
		entries, _, err := r.ReadDir(".")
		if err != nil {
			t.Fatal(err)
		}
		dirs := []string{"."}
		if root == dir {
			dirs = nil
			for _, e := range entries {
				dirs = append(dirs, e.Name)
			}
		}
		for _, d := range dirs {
			c := Load(r, d)
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.BodyFile)))
			if err != nil {
				continue // no SKILL.md to read: nothing to check
			}
			if c.BodyEnd < c.BodyStart || c.BodyEnd > len(data) {
				t.Errorf("%s: span [%d:%d] outside %d bytes", c.BodyFile, c.BodyStart, c.BodyEnd, len(data))
				continue
			}
			if got := string(data[c.BodyStart:c.BodyEnd]); got != c.Body {
				t.Errorf("%s %s: span [%d:%d] = %q, body %q", root, c.BodyFile, c.BodyStart, c.BodyEnd, got, c.Body)
			}
			checked++
		}
	}
	if checked < len(bad) {
		t.Errorf("checked %d skills, want at least %d", checked, len(bad))
	}
}

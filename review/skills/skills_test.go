package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

func doc(fields string) []byte {
	return []byte("---\n" + fields + "---\n# Body\n\nText.\n")
}

func codes(ds []model.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func hasErrors(ds []model.Diagnostic) bool {
	for _, d := range ds {
		if d.IsError() {
			return true
		}
	}
	return false
}

func TestParseRules(t *testing.T) {
	const desc = "description: Does things. Use when testing.\n"
	tests := []struct {
		name  string
		data  []byte
		dir   string
		want  []string // codes that must appear
		valid bool     // no error diagnostics
	}{
		{"minimal", doc("name: my-skill\n" + desc), "my-skill", nil, true},
		{"all fields", doc("name: pdf-processing\n" + desc + "license: Apache-2.0\ncompatibility: Requires git\nallowed-tools: Bash(git:*) Read\nmetadata:\n  author: example-org\n  version: \"1.0\"\n"), "pdf-processing", nil, true},
		{"digits only name", doc("name: \"123\"\n" + desc), "123", nil, true},
		{"missing name", doc(desc), "x", []string{"skill-name-missing"}, false},
		{"empty name", doc("name: \"\"\n" + desc), "x", []string{"skill-name-empty"}, false},
		{"blank name", doc("name: \"   \"\n" + desc), "x", []string{"skill-name-empty"}, false},
		{"uppercase", doc("name: PDF-Processing\n" + desc), "PDF-Processing", []string{"skill-name-uppercase"}, false},
		{"leading hyphen", doc("name: -pdf\n" + desc), "-pdf", []string{"skill-name-hyphen"}, false},
		{"trailing hyphen", doc("name: pdf-\n" + desc), "pdf-", []string{"skill-name-hyphen"}, false},
		{"consecutive hyphens", doc("name: pdf--processing\n" + desc), "pdf--processing", []string{"skill-name-consecutive-hyphens"}, false},
		{"underscore", doc("name: pdf_processing\n" + desc), "pdf_processing", []string{"skill-name-invalid-characters"}, false},
		{"space inside", doc("name: pdf processing\n" + desc), "pdf processing", []string{"skill-name-invalid-characters"}, false},
		{"name 64", doc("name: " + strings.Repeat("a", 64) + "\n" + desc), strings.Repeat("a", 64), nil, true},
		{"name 65", doc("name: " + strings.Repeat("a", 65) + "\n" + desc), strings.Repeat("a", 65), []string{"skill-name-too-long"}, false},
		{"name not dir", doc("name: my-skill\n" + desc), "other", []string{"skill-name-mismatch"}, false},
		{"no dir check", doc("name: my-skill\n" + desc), "", nil, true},
		{"name is list", doc("name: [a]\n" + desc), "a", []string{"skill-field-type"}, false},
		{"name is number", doc("name: 123\n" + desc), "123", []string{"skill-field-not-string"}, true},
		// skills-ref leniency: accepted with a warning naming the difference.
		{"fullwidth NFKC", doc("name: ｍｙ-ｓｋｉｌｌ\n" + desc), "my-skill", []string{"skill-name-unicode"}, true},
		{"decomposed vs composed", doc("name: \"cafe\u0301\"\n" + desc), "caf\u00e9", []string{"skill-name-unicode"}, true},
		{"cyrillic", doc("name: мой-навык\n" + desc), "мой-навык", []string{"skill-name-unicode"}, true},
		{"chinese", doc("name: 技能\n" + desc), "技能", []string{"skill-name-unicode"}, true},
		{"ligature", doc("name: ﬁle-tool\n" + desc), "file-tool", []string{"skill-name-unicode"}, true},
		{"quoted padded", doc("name: \"  my-skill  \"\n" + desc), "my-skill", []string{"skill-name-whitespace"}, true},
		{"padded and fullwidth", doc("name: \" ｍｙ-ｓｋｉｌｌ\"\n" + desc), "my-skill", []string{"skill-name-whitespace", "skill-name-unicode"}, true},
		{"ascii name, fullwidth dir", doc("name: my-skill\n" + desc), "ｍｙ-ｓｋｉｌｌ", []string{"skill-name-unicode"}, true},
		{"roman numeral uppercase", doc("name: Ⅻ\n" + desc), "xii", []string{"skill-name-uppercase", "skill-name-mismatch"}, false},
		{"cyrillic upper", doc("name: НАВЫК\n" + desc), "НАВЫК", []string{"skill-name-uppercase"}, false},
		{"combining without precomposed", doc("name: \"x\u0301\"\n" + desc), "x\u0301", []string{"skill-name-invalid-characters"}, false},
		{"ligature x33 too long", doc("name: " + strings.Repeat("ﬀ", 33) + "\n" + desc), strings.Repeat("ff", 33), []string{"skill-name-too-long"}, false},
		{"ligature x32 ok", doc("name: " + strings.Repeat("ﬀ", 32) + "\n" + desc), strings.Repeat("ff", 32), []string{"skill-name-unicode"}, true},
		// description
		{"missing description", doc("name: x\n"), "x", []string{"skill-description-missing"}, false},
		{"empty description", doc("name: x\ndescription:\n"), "x", []string{"skill-description-empty"}, false},
		{"blank description", doc("name: x\ndescription: \"  \"\n"), "x", []string{"skill-description-empty"}, false},
		{"description 1024 multibyte", doc("name: x\ndescription: " + strings.Repeat("é", 1024) + "\n"), "x", nil, true},
		// 1024 characters is within the limit, but 2048 UTF-16 units: JavaScript clients skip it.
		{"description 1024 emoji", doc("name: x\ndescription: " + strings.Repeat("😀", 1024) + "\n"), "x", []string{"skill-description-utf16-long"}, true},
		{"description 1024 BMP", doc("name: x\ndescription: " + strings.Repeat("中", 1024) + "\n"), "x", nil, true},
		{"description 1025 multibyte", doc("name: x\ndescription: " + strings.Repeat("é", 1025) + "\n"), "x", []string{"skill-description-too-long"}, false},
		{"description mapping", doc("name: x\ndescription:\n  a: b\n"), "x", []string{"skill-field-type"}, false},
		// compatibility
		{"compat 500", doc("name: x\n" + desc + "compatibility: " + strings.Repeat("ü", 500) + "\n"), "x", nil, true},
		{"compat 501", doc("name: x\n" + desc + "compatibility: " + strings.Repeat("ü", 501) + "\n"), "x", []string{"skill-compatibility-too-long"}, false},
		{"compat empty", doc("name: x\n" + desc + "compatibility: \"\"\n"), "x", []string{"skill-compatibility-empty"}, true},
		{"compat list", doc("name: x\n" + desc + "compatibility:\n  - a\n"), "x", []string{"skill-field-type"}, false},
		// metadata
		{"metadata float", doc("name: x\n" + desc + "metadata:\n  version: 1.0\n"), "x", []string{"skill-metadata-value-not-string"}, true},
		{"metadata nested", doc("name: x\n" + desc + "metadata:\n  author:\n    name: a\n"), "x", []string{"skill-metadata-value-type"}, false},
		{"metadata list value", doc("name: x\n" + desc + "metadata:\n  tags:\n    - a\n"), "x", []string{"skill-metadata-value-type"}, false},
		{"metadata scalar", doc("name: x\n" + desc + "metadata: hello\n"), "x", []string{"skill-metadata-type"}, false},
		{"metadata empty", doc("name: x\n" + desc + "metadata:\n"), "x", []string{"skill-metadata-empty"}, true},
		// allowed-tools and license
		{"allowed-tools mapping", doc("name: x\n" + desc + "allowed-tools:\n  Bash: yes\n"), "x", []string{"skill-field-type"}, false},
		{"allowed-tools list", doc("name: x\n" + desc + "allowed-tools:\n  - Read\n  - Bash(git:*)\n"), "x", []string{"skill-allowed-tools-list"}, true},
		{"license mapping", doc("name: x\n" + desc + "license:\n  a: b\n"), "x", []string{"skill-field-type"}, false},
		// structure
		{"unknown field", doc("name: x\n" + desc + "hooks: run\n"), "x", []string{"skill-unknown-field"}, false},
		{"duplicate key", doc("name: x\nname: y\n" + desc), "x", []string{"skill-frontmatter-duplicate-key"}, false},
		{"missing frontmatter", []byte("# Just markdown\n"), "x", []string{"skill-frontmatter-missing"}, false},
		{"empty file", []byte(""), "x", []string{"skill-frontmatter-missing"}, false},
		{"unterminated", []byte("---\nname: x\n" + desc), "x", []string{"skill-frontmatter-unterminated"}, false},
		{"only opener", []byte("---"), "x", []string{"skill-frontmatter-unterminated"}, false},
		{"empty frontmatter", []byte("---\n---\nbody\n"), "x", []string{"skill-frontmatter-not-mapping"}, false},
		{"list frontmatter", []byte("---\n- a\n- b\n---\n"), "x", []string{"skill-frontmatter-not-mapping"}, false},
		{"invalid yaml", []byte("---\nname: x\ndescription: a: b\n---\n"), "x", []string{"skill-frontmatter-invalid-yaml"}, false},
		{"bom", append([]byte("\uFEFF"), doc("name: x\n"+desc)...), "x", []string{"skill-bom"}, false},
		{"crlf", []byte("---\r\nname: x\r\n" + strings.TrimSuffix(desc, "\n") + "\r\n---\r\nbody\r\n"), "x", nil, true},
		{"dashes in value", doc("name: x\ndescription: before---after\n"), "x", []string{"skill-frontmatter-dashes"}, true},
		{"anchor", doc("name: &n x\n" + desc), "x", []string{"skill-frontmatter-yaml-alias"}, false},
		{"flow metadata", doc("name: x\n" + desc + "metadata: {a: b}\n"), "x", []string{"skill-frontmatter-flow-style"}, true},
		{"tag", doc("name: !!str x\n" + desc), "x", []string{"skill-frontmatter-yaml-tag"}, true},
		{"nul byte", doc("name: x\n" + desc + "license: a\x00b\n"), "x", []string{"skill-nul-byte"}, false},
		{"invalid utf8", []byte("---\nname: x\n" + desc + "---\nbad \xff byte\n"), "x", []string{"skill-invalid-utf8"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sk, ds := Parse(tc.data, tc.dir, "skills/x/SKILL.md")
			if sk == nil {
				t.Fatal("nil skill")
			}
			got := codes(ds)
			for _, w := range tc.want {
				if !loadertest.HasCode(ds, w) {
					t.Errorf("missing %s; got %v", w, got)
				}
			}
			if hasErrors(ds) == tc.valid {
				t.Errorf("valid=%v, diagnostics %v", !hasErrors(ds), got)
			}
			for _, d := range ds {
				if !strings.HasSuffix(d.Message, ".") || d.Spec == "" || d.File != "skills/x/SKILL.md" {
					t.Errorf("badly formed diagnostic %+v", d)
				}
			}
		})
	}
}

// TestParseUTF16Warning: the exact message, and no warning at exactly 1024 units.
func TestParseUTF16Warning(t *testing.T) {
	desc := func(s string) []byte { return []byte("---\nname: x\ndescription: " + s + "\n---\n") }
	_, ds := Parse(desc(strings.Repeat("a", 1022)+"😀"), "x", "SKILL.md")
	if len(ds) != 0 {
		t.Errorf("1024 units: %v", codes(ds))
	}
	_, ds = Parse(desc(strings.Repeat("a", 1023)+"😀"), "x", "SKILL.md")
	const want = "Description has 1024 characters but 1025 UTF-16 code units; clients written in JavaScript (Pi) count .length and skip a skill over 1024, so shorten it."
	if len(ds) != 1 || ds[0].Code != "skill-description-utf16-long" || ds[0].Severity != model.SeverityWarning || ds[0].Message != want {
		t.Errorf("1025 units: %+v", ds)
	}
}

func TestParseFieldsAndLines(t *testing.T) {
	data := []byte("---\nname: pdf-processing\ndescription: >\n  Extract text.\n  Use for PDFs.\nlicense: MIT\nmetadata:\n  author: me\n  version: 1.0\nallowed-tools: Bash(git status:*) Read\nextra: 1\n---\n# Title\n")
	sk, ds := Parse(data, "pdf-processing", "SKILL.md")
	fm := sk.Frontmatter
	if fm.Name != "pdf-processing" || fm.Description != "Extract text. Use for PDFs.\n" || fm.License != "MIT" {
		t.Errorf("fields: %+v", fm)
	}
	if fm.Metadata["version"] != "1.0" || strings.Join(fm.MetadataKeys, ",") != "author,version" {
		t.Errorf("metadata: %v %v", fm.Metadata, fm.MetadataKeys)
	}
	if strings.Join(fm.Present, ",") != "name,description,license,metadata,allowed-tools,extra" {
		t.Errorf("present: %v", fm.Present)
	}
	if sk.BodyLine != 13 || sk.Body != "# Title\n" {
		t.Errorf("body line %d body %q", sk.BodyLine, sk.Body)
	}
	if d := loadertest.Find(ds, "skill-unknown-field"); d == nil || d.Line != 11 || d.Pointer != "/extra" {
		t.Errorf("unknown field diag %+v", d)
	}
	if d := loadertest.Find(ds, "skill-metadata-value-not-string"); d == nil || d.Line != 9 || d.Pointer != "/metadata/version" {
		t.Errorf("metadata diag %+v", d)
	}
	if got := SplitAllowedTools(fm.AllowedTools); strings.Join(got, "|") != "Bash(git status:*)|Read" {
		t.Errorf("allowed tools %q", got)
	}
	// A YAML error points at the file line, not the frontmatter line.
	_, ds = Parse([]byte("---\nname: x\ndescription: ok\nbad: a: b\n---\n"), "x", "SKILL.md")
	if d := loadertest.Find(ds, "skill-frontmatter-invalid-yaml"); d == nil || d.Line != 4 {
		t.Errorf("yaml error line %+v", d)
	}
}

// TestParseNameWarnings: a name skills-ref accepts but the specification does not is a
// warning whose message says what is off. A fullwidth name (NFKC folds it to the folder's
// name) breaks the a-z/0-9 rule; a padded but otherwise valid name is a whitespace finding
// only, and its message must not claim the characters break that rule.
func TestParseNameWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, field, code string
		has               []string
		not               string // a code that must not be reported beside code
		lacks             string // text the message must not hold
	}{
		{"fullwidth", "name: ｍｙ-ｓｋｉｌｌ", "skill-name-unicode",
			[]string{"accepted by skills-ref but the specification allows only a-z, 0-9 and hyphens", "'my-skill'"}, "", ""},
		{"padded", `name: "  my-skill "`, "skill-name-whitespace",
			[]string{"whitespace", "'my-skill'"}, "skill-name-unicode", "a-z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse(doc(tc.field+"\ndescription: d\n"), "my-skill", "SKILL.md")
			d := loadertest.Find(ds, tc.code)
			if d == nil || d.Severity != model.SeverityWarning {
				t.Fatalf("want a %s warning, got %v", tc.code, codes(ds))
			}
			if tc.not != "" && loadertest.HasCode(ds, tc.not) {
				t.Errorf("also reported as %s: %v", tc.not, codes(ds))
			}
			for _, h := range tc.has {
				if !strings.Contains(d.Message, h) {
					t.Errorf("message %q lacks %q", d.Message, h)
				}
			}
			if tc.lacks != "" && strings.Contains(d.Message, tc.lacks) {
				t.Errorf("message %q holds %q", d.Message, tc.lacks)
			}
		})
	}
}

func TestYAMLBomb(t *testing.T) {
	// Billion laughs: refused on the anchor before any alias is expanded.
	var b strings.Builder
	b.WriteString("name: x\ndescription: d\nmetadata:\n  a0: &a0 \"lol\"\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "  a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	var ds []model.Diagnostic
	bomb := doc(b.String())
	_, allocated := testtree.AllocatedBy(func() { _, ds = Parse(bomb, "x", "SKILL.md") })
	if !loadertest.HasCode(ds, "skill-frontmatter-yaml-alias") {
		t.Errorf("bomb not refused: %v", codes(ds))
	}
	// Expanded, the bomb is 10^9 strings; refused on the anchor, it costs about what
	// parsing its own text does.
	if max := uint64(1 << 20); allocated > max {
		t.Errorf("the bomb allocated %d bytes (%d bytes of input); refused before expansion it stays under %d", allocated, len(bomb), max)
	}

	// Oversized frontmatter is refused without parsing.
	big := "name: x\ndescription: d\nlicense: " + strings.Repeat("a", MaxFrontmatter) + "\n"
	_, ds = Parse(doc(big), "x", "SKILL.md")
	if !loadertest.HasCode(ds, "skill-frontmatter-too-large") {
		t.Errorf("large frontmatter: %v", codes(ds))
	}

	// Deep nesting stops at the YAML library's depth limit, not with a crash.
	deep := "name: x\ndescription: d\nmetadata: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	_, ds = Parse(doc(deep), "x", "SKILL.md")
	if !hasErrors(ds) {
		t.Errorf("deep nesting accepted")
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "pdf-processing": true, "a1-b2": true, "123": true,
		"": false, "-a": false, "a-": false, "a--b": false, "A": false, "a_b": false,
		"é": false, strings.Repeat("a", 64): true, strings.Repeat("a", 65): false, "a b": false,
	} {
		if ValidName(name) != want {
			t.Errorf("ValidName(%q) = %v", name, !want)
		}
	}
}

// TestBadCorpus runs testdata/bad/<code>[-n].md and asserts each produces its code.
func TestBadCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad corpus: %v", err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".md")
		code := base
		if i := strings.LastIndex(base, "."); i >= 0 {
			code = base[:i]
		}
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, ds := Parse(data, "bad-skill", "SKILL.md")
			if !loadertest.HasCode(ds, code) {
				t.Errorf("want %s, got %v", code, codes(ds))
			}
		})
	}
}

func TestGoodExamples(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/good/*")
	if len(dirs) == 0 {
		t.Fatal("no good examples")
	}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		_, ds := Parse(data, filepath.Base(d), "SKILL.md")
		if len(ds) != 0 {
			t.Errorf("%s: %v", d, codes(ds))
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: x\ndescription: d\n---\nbody\n"), "x")
	f.Add([]byte("---\nname: &a x\nmetadata: {a: *a}\n---\n"), "x")
	f.Add([]byte("---\r\nname: ｍｙ\r\n---"), "my")
	f.Add([]byte("<!-- c -->\n[a]: b\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, dir string) {
		sk, ds := Parse(data, dir, "SKILL.md")
		if sk == nil {
			t.Fatal("nil skill")
		}
		if sk.BodyStart < 0 || sk.BodyStart > sk.BodyEnd || sk.BodyEnd > len(data) || string(data[sk.BodyStart:sk.BodyEnd]) != sk.Body {
			t.Fatalf("body span [%d:%d] of %d bytes does not hold the body %q", sk.BodyStart, sk.BodyEnd, len(data), sk.Body)
		}
		for _, d := range ds {
			if d.Code == "" || d.Message == "" {
				t.Fatalf("empty diagnostic %+v", d)
			}
		}
	})
}

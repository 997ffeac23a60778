package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

const goodSkill = "---\nname: review\ndescription: Reviews code. Use when asked for a review.\nallowed-tools: Bash(git diff:*) Read\nlicense: MIT\nmetadata:\n  author: me\n---\n# Review\n\n<!-- hidden note -->\nSteps.\n"

func openRoot(t *testing.T, dir string, lim fsguard.Limits) *fsguard.Root {
	t.Helper()
	r, err := fsguard.Open(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func diagCodes(c *model.Component) string { return strings.Join(codes(c.Diagnostics), ",") }

func TestLoadFullSkill(t *testing.T) {
	dir := testtree.Make(t, map[string]string{
		"skills/review/SKILL.md":            goodSkill,
		"skills/review/scripts/run.sh":      "#!/bin/sh\necho hi\n",
		"skills/review/references/guide.md": "guide",
		"skills/review/shared.txt":          "->../../shared/data.txt",
		"shared/data.txt":                   "shared bytes",
		"skills/review/lib":                 "->../../shared",
		"skills/review/pipe":                "<fifo>",
		"skills/review/up":                  "->..",
		"skills/other/x.md":                 "other",
		"README.md":                         "not part of the skill",
	})
	root := openRoot(t, dir, fsguard.DefaultLimits())
	c := Load(root, "skills/review")
	if c.Validity != model.Valid || c.Contract == nil {
		t.Fatalf("validity %s, diagnostics %s", c.Validity, diagCodes(c))
	}
	if c.Kind != model.KindSkill || c.ID != "review" || c.BodyFile != "skills/review/SKILL.md" {
		t.Errorf("identity %s %s %s", c.Kind, c.ID, c.BodyFile)
	}
	// Links are bound as links; what a contained link leads to is bound at its real path
	// (a link to the parent brings in the sibling skill, which the skill's scripts can reach).
	want := map[string]model.File{
		"skills/review/SKILL.md":            {Size: int64(len(goodSkill)), SHA256: sha(goodSkill)},
		"shared/data.txt":                   {Size: 12, SHA256: sha("shared bytes")},
		"skills/review/lib":                 {Link: "../../shared"},
		"skills/review/references/guide.md": {Size: 5, SHA256: sha("guide")},
		"skills/review/scripts/run.sh":      {Size: 18, SHA256: sha("#!/bin/sh\necho hi\n"), Exec: true},
		"skills/review/shared.txt":          {Link: "../../shared/data.txt"},
		"skills/review/up":                  {Link: ".."},
		"skills/other/x.md":                 {Size: 5, SHA256: sha("other")},
	}
	if len(c.Files) != len(want) {
		t.Errorf("files %+v", c.Files)
	}
	for _, f := range c.Files {
		w, ok := want[f.Path]
		if !ok || f.Size != w.Size || f.SHA256 != w.SHA256 || f.Exec != w.Exec || f.Link != w.Link {
			t.Errorf("file %+v, want %+v", f, w)
		}
	}
	if len(c.Contract.Files) != len(c.Files) {
		t.Errorf("contract files differ")
	}
	if !loadertest.HasCode(c.Diagnostics, "skill-file-special") {
		t.Errorf("missing skill-file-special in %s", diagCodes(c))
	}
	sum := strings.Join(c.Summary, " ")
	for _, s := range []string{"Adds instructions the agent loads when a task matches: Reviews code. Use when asked for a review.", "pre-approve these tools: Bash(git diff:*), Read", "scripts/run.sh"} {
		if !strings.Contains(sum, s) {
			t.Errorf("summary %q lacks %q", sum, s)
		}
	}
	if len(c.Capabilities) == 0 || c.Capabilities[0].Kind != model.CapModelContext {
		t.Errorf("capabilities %+v", c.Capabilities)
	}
	if v, _ := c.Details.Get("license"); v != "MIT" {
		t.Errorf("details %+v", c.Details)
	}
	if v, _ := c.Contract.Fields.Get("allowed-tools"); strings.Join(v.([]string), "|") != "Bash(git diff:*)|Read" {
		t.Errorf("contract allowed-tools %v", v)
	}
	if _, ok := c.Contract.Fields.Get("license"); ok {
		t.Errorf("license is not security-relevant")
	}
	found := false
	for _, h := range c.Hidden {
		if h.Kind == HiddenComment && h.Line == 11 {
			found = true
		}
	}
	if !found {
		t.Errorf("hidden %+v", c.Hidden)
	}
	if _, err := c.Contract.Digest(); err != nil {
		t.Errorf("digest: %v", err)
	}
}

func TestLoadDigestBinding(t *testing.T) {
	dir := testtree.Make(t, map[string]string{
		"skills/a/SKILL.md":        "---\nname: a\ndescription: d\n---\n",
		"skills/a/scripts/x.py":    "print(1)",
		"skills/b/SKILL.md":        "---\nname: b\ndescription: d\n---\n",
		"README.md":                "x",
		"skills/a/references/r.md": "r",
	})
	digest := func() string {
		c := Load(openRoot(t, dir, fsguard.DefaultLimits()), "skills/a")
		if c.Contract == nil {
			t.Fatalf("no contract: %s", diagCodes(c))
		}
		return c.Contract.MustDigest()
	}
	d0 := digest()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed"), 0o644)
	os.WriteFile(filepath.Join(dir, "skills/b/SKILL.md"), []byte("---\nname: b\ndescription: e\n---\n"), 0o644)
	if digest() != d0 {
		t.Error("files outside the skill changed its digest")
	}
	os.WriteFile(filepath.Join(dir, "skills/a/scripts/x.py"), []byte("print(2)"), 0o644)
	d1 := digest()
	if d1 == d0 {
		t.Error("script change kept the digest")
	}
	os.Chmod(filepath.Join(dir, "skills/a/scripts/x.py"), 0o755)
	if digest() == d1 {
		t.Error("exec bit change kept the digest")
	}
}

func TestLoadSkillMDRules(t *testing.T) {
	big := "---\nname: s\ndescription: d\n---\n" + strings.Repeat("x", MaxSkillFile)
	tests := []struct {
		name  string
		files map[string]string
		code  string
		valid bool
	}{
		{"missing", map[string]string{"skills/s/other.md": "x"}, "skill-md-missing", false},
		{"no directory", map[string]string{"skills/t/SKILL.md": "x"}, "skill-dir-missing", false},
		{"directory escapes", map[string]string{"skills/s": "->/tmp"}, "skill-md-escape", false},
		{"lowercase name", map[string]string{"skills/s/skill.md": "x"}, "skill-md-missing", false},
		{"directory", map[string]string{"skills/s/SKILL.md/": ""}, "skill-md-not-regular", false},
		{"fifo", map[string]string{"skills/s/SKILL.md": "<fifo>"}, "skill-md-not-regular", false},
		{"escape", map[string]string{"skills/s/SKILL.md": "->/etc/hostname"}, "skill-md-escape", false},
		{"dangling", map[string]string{"skills/s/SKILL.md": "->missing.md"}, "skill-md-dangling", false},
		{"loop", map[string]string{"skills/s/SKILL.md": "->SKILL.md"}, "skill-md-loop", false},
		{"too large", map[string]string{"skills/s/SKILL.md": big}, "skill-md-too-large", false},
		{"bad frontmatter", map[string]string{"skills/s/SKILL.md": "no frontmatter"}, "skill-frontmatter-missing", false},
		{"name mismatch", map[string]string{"skills/s/SKILL.md": "---\nname: t\ndescription: d\n---\n"}, "skill-name-mismatch", false},
		{"symlink inside root", map[string]string{"skills/s/SKILL.md": "->../../docs/s.md", "docs/s.md": "---\nname: s\ndescription: d\n---\n"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := openRoot(t, testtree.Make(t, tc.files), fsguard.DefaultLimits())
			c := testtree.Returns(t, "Load", func() *model.Component { return Load(root, "skills/s") })
			if tc.code != "" && !loadertest.HasCode(c.Diagnostics, tc.code) {
				t.Errorf("want %s, got %s", tc.code, diagCodes(c))
			}
			if (c.Validity == model.Valid) != tc.valid || (c.Contract != nil) != tc.valid {
				t.Errorf("validity %s contract %v: %s", c.Validity, c.Contract != nil, diagCodes(c))
			}
			if c.ID != "s" || c.Kind != model.KindSkill {
				t.Errorf("id %q kind %q", c.ID, c.Kind)
			}
		})
	}
}

// TestLoadHostileLinks: a link in a skill that leaves the package, dangles, loops or holds
// an absolute path blocks the skill (valid, no contract), naming the link and its target.
func TestLoadHostileLinks(t *testing.T) {
	for name, target := range map[string]string{
		"skill-file-absolute-link": "/etc/passwd",
		"skill-file-escape":        "../../../outside",
		"skill-file-dangling":      "nowhere",
		"skill-file-loop":          "loop",
	} {
		t.Run(name, func(t *testing.T) {
			dir := testtree.Make(t, map[string]string{"skills/review/SKILL.md": goodSkill, "skills/review/loop": "->loop", "skills/review/link": "->" + target})
			if target != "loop" {
				os.Remove(filepath.Join(dir, "skills/review/loop"))
			}
			c := Load(openRoot(t, dir, fsguard.DefaultLimits()), "skills/review")
			d := loadertest.Find(c.Diagnostics, name)
			if c.Validity != model.Valid || c.Contract != nil || d == nil || !d.IsError() {
				t.Fatalf("validity %s contract %v diagnostics %s", c.Validity, c.Contract != nil, diagCodes(c))
			}
			if !strings.Contains(d.Message, "skills/review/") || (target != "loop" && !strings.Contains(d.Message, target)) {
				t.Errorf("the diagnostic must name the link and its target: %q", d.Message)
			}
			if !strings.HasPrefix(c.Summary[len(c.Summary)-1], "Blocked:") {
				t.Errorf("summary %q", c.Summary)
			}
		})
	}
}

func TestLoadLimits(t *testing.T) {
	files := map[string]string{"skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n"}
	for i := 0; i < 40; i++ {
		files["skills/s/refs/f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".md"] = "x"
	}
	dir := testtree.Make(t, files)
	lim := fsguard.DefaultLimits()
	lim.MaxEntries = 20
	c := Load(openRoot(t, dir, lim), "skills/s")
	if !loadertest.HasCode(c.Diagnostics, "skill-files-limit") || c.Validity != model.Invalid || c.Contract != nil {
		t.Errorf("entries limit: %s %s", c.Validity, diagCodes(c))
	}
	lim = fsguard.DefaultLimits()
	lim.MaxTotalBytes = 50
	c = Load(openRoot(t, dir, lim), "skills/s")
	if !loadertest.HasCode(c.Diagnostics, "skill-files-limit") || c.Contract != nil {
		t.Errorf("total limit: %s", diagCodes(c))
	}
	lim = fsguard.DefaultLimits()
	lim.MaxFileBytes = 1
	files2 := map[string]string{"skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n"}
	c = Load(openRoot(t, testtree.Make(t, files2), lim), "skills/s")
	if c.Contract != nil || c.Validity != model.Invalid {
		t.Errorf("file limit: %s", diagCodes(c))
	}
}

package agentplugins

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

func supportOf(c *model.Component, client string) model.Support {
	for _, s := range c.Support {
		if s.Provider == client {
			return s
		}
	}
	return model.Support{}
}

// TestSkillSupportPiJudgesFrontmatterName: Pi reads the frontmatter name, so a skill in an
// ASCII directory whose name skills-ref accepts only leniently is unsupported by Pi, and
// the detail says which leniency.
func TestSkillSupportPiJudgesFrontmatterName(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", manifestText("names"))
	skill := func(d, name string) {
		loadertest.WriteFile(t, dir+"/skills/"+d+"/SKILL.md", "---\nname: "+name+"\ndescription: Does things.\n---\nBody.\n")
	}
	skill("notes", "notes")
	skill("file-tool", "ﬁle-tool") // ligature: equal to the directory after NFKC
	skill("padded", `"  padded "`) // surrounding whitespace
	skill("ｍｙ-ｓｋｉｌｌ", "my-skill")  // ASCII name, fullwidth directory
	skill("café", "café")          // non-ASCII both
	pkg := Load(dir, Options{})
	for _, tc := range []struct {
		id     string
		status model.SupportStatus
		detail string
	}{
		{"notes", model.Supported, ""},
		{"file-tool", model.NotSupported, "non-ASCII"},
		{"padded", model.NotSupported, "whitespace"},
		{"ｍｙ-ｓｋｉｌｌ", model.NotSupported, "NFKC"},
		{"café", model.NotSupported, "non-ASCII"},
	} {
		c := pkg.Component(model.KindSkill, tc.id)
		if c == nil || c.Validity != model.Valid {
			t.Fatalf("skill %s: %+v", tc.id, c)
		}
		pi := supportOf(c, clientPi)
		if pi.Status != tc.status || !strings.Contains(pi.Detail, tc.detail) {
			t.Errorf("%s: Pi support %+v, want %s with %q", tc.id, pi, tc.status, tc.detail)
		}
		for _, other := range []string{clientDSH, clientLola} {
			if s := supportOf(c, other); s.Status != model.Supported {
				t.Errorf("%s: %s support %+v", tc.id, other, s)
			}
		}
	}
}

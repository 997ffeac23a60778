package codex

import (
	"slices"
	"testing"

	"vouch/model"
)

// TestSkillsPathReplacesDefault: a manifest skills path replaces skills/ (Codex 0.169.0
// and 0.171.0, run on a folder holding both, list only the named folder's skills); a
// skills field that names no usable path leaves skills/ read.
func TestSkillsPathReplacesDefault(t *testing.T) {
	for _, tc := range []struct {
		name, skills string
		want         []string
	}{
		{"named folder", `"./extra/"`, []string{"extra/fmt"}},
		{"list naming skills/ too", `["./extra/", "./skills/"]`, []string{"extra/fmt", "lint"}},
		{"absent", ``, []string{"lint"}},
		{"not a path", `3`, []string{"lint"}},
		{"refused path", `"../elsewhere"`, []string{"lint"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			field := ""
			if tc.skills != "" {
				field = `, "skills": ` + tc.skills
			}
			writeFiles(t, dir, map[string]string{
				".codex-plugin/plugin.json": `{"name": "p", "version": "1.0.0"` + field + `}`,
				"skills/lint/SKILL.md":      "---\nname: lint\ndescription: Lints.\n---\nbody\n",
				"extra/fmt/SKILL.md":        "---\nname: fmt\ndescription: Formats.\n---\nbody\n",
			})
			var got []string
			for _, c := range Load(dir, Options{}).Components {
				if c.Kind == model.KindSkill {
					got = append(got, c.ID)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("skills %v, want %v", got, tc.want)
			}
		})
	}
}

package review

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/model"
)

// TestFolderMarkersDecide: a folder's own markers decide which clients read it. A root
// plugin.json that is not an Agent Plugins manifest takes the folder away from neither
// Claude Code (its default layout still loads) nor Codex (which reads
// .codex-plugin/plugin.json), and is named in a warning; a Codex folder holding Claude
// Code's default layout gives a Claude Code package too; a root SKILL.md gives an Agent
// Skills package beside any other format.
func TestFolderMarkersDecide(t *testing.T) {
	for _, tc := range []struct {
		dir string
		// want maps each format expected to the diagnostic codes and component refs
		// (kind:id) it must carry.
		want map[model.Format][]string
	}{
		{"catalogue-lsp", map[model.Format][]string{
			model.FormatClaudeCode: {"root-manifest-foreign", "lsp-server:zig"},
		}},
		{"catalogue-codex", map[model.Format][]string{
			model.FormatCodex:      {"root-manifest-foreign", "skill:tidy"},
			model.FormatClaudeCode: {"root-manifest-foreign", "claude-reads-codex-folder", "skill:tidy"},
		}},
		{"agent-plugins-codex", map[model.Format][]string{
			model.FormatAgentPlugins: {"codex-prefers-root-manifest"},
			model.FormatCodex:        {"codex-manifest-shadowed"},
		}},
		{"root-skill-claude", map[model.Format][]string{
			model.FormatClaudeCode:  {"skill:root-skill-claude"},
			model.FormatAgentSkills: {"skill:root-skill-claude"},
		}},
		{"lone-foreign", map[model.Format][]string{
			model.FormatAgentPlugins: {"manifest-missing-schema"},
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			res := mustOpen(t, Options{}, filepath.Join("testdata", "markers", tc.dir))
			got := map[model.Format][]string{}
			for _, p := range res.Packages {
				var have []string
				for _, d := range p.Diagnostics {
					have = append(have, d.Code)
				}
				for _, c := range p.Components {
					have = append(have, string(c.Kind)+":"+c.ID)
				}
				got[p.Format] = have
			}
			var formats []string
			for f := range got {
				formats = append(formats, string(f))
			}
			sort.Strings(formats)
			if len(got) != len(tc.want) {
				t.Fatalf("formats %v, want %d: %v", formats, len(tc.want), tc.want)
			}
			for f, items := range tc.want {
				have, ok := got[f]
				if !ok {
					t.Errorf("no %s package (have %v)", f, formats)
					continue
				}
				for _, it := range items {
					if !contains(have, it) {
						t.Errorf("%s package lacks %s: has %s", f, it, strings.Join(have, ", "))
					}
				}
			}
		})
	}
}

// TestSpliceSkillDocumentIsNotASkill: a Splice package's SKILL.md is its own skill
// document, so the folder gives no Agent Skills package beside it.
func TestSpliceSkillDocumentIsNotASkill(t *testing.T) {
	res := mustOpen(t, Options{}, "../examples/splice/example")
	for _, p := range res.Packages {
		if p.Format != model.FormatSplice {
			t.Errorf("%s package beside the Splice package", p.Format)
		}
	}
}

package agentplugins

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestExtensionSummariesNameTheReader: a namespace a known client reads is never called
// inert; each summary names the client and what it reads there (Codex 0.169.0: only
// onboardingSkill under com.openai, no hooks; Lola: commands, agents, instructions).
func TestExtensionSummariesNameTheReader(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "extensions": {
		"com.openai": {"onboardingSkill": "./skills/a", "hooks": {"Stop": []}},
		"dev.getlola": {"commands": "./c"},
		"dev.pi.agent": {"prompts": "./p"},
		"com.example.other": {"x": 1}}}`)
	loadertest.WriteFile(t, dir+"/com.anthropic.claude/x.md", "x")
	pkg := Load(dir, Options{})
	cases := []struct {
		ns      string
		want    []string
		inert   bool
		codex   model.SupportStatus
		hookMsg bool
	}{
		{"com.openai", []string{"Lola reads commands, agents and instructions from com.openai", "Codex 0.169.0 reads only onboardingSkill", "runs no hooks"}, false, model.Supported, true},
		{"dev.getlola", []string{"Lola reads commands, agents and instructions from dev.getlola"}, false, model.NotApplicable, false},
		{"dev.pi.agent", []string{"Pi reads dev.pi.agent."}, false, model.NotApplicable, false},
		{"com.anthropic.claude", []string{"Lola reads com.anthropic.claude only from the manifest's extensions object"}, false, model.NotApplicable, false},
		{"com.example.other", []string{"No client vouch knows reads this namespace"}, true, model.NotApplicable, false},
	}
	for _, tc := range cases {
		c := pkg.Component(model.KindExtension, tc.ns)
		if c == nil {
			t.Fatalf("%s not listed", tc.ns)
		}
		sum := strings.Join(c.Summary, "\n")
		for _, w := range tc.want {
			if !strings.Contains(sum, w) {
				t.Errorf("%s: summary lacks %q:\n%s", tc.ns, w, sum)
			}
		}
		if strings.Contains(sum, "inert") != tc.inert {
			t.Errorf("%s: inert in summary = %v, want %v:\n%s", tc.ns, !tc.inert, tc.inert, sum)
		}
		if s := supportOf(c, clientCodex); s.Status != tc.codex {
			t.Errorf("%s: Codex support %+v, want %s", tc.ns, s, tc.codex)
		}
		found := false
		for _, d := range c.Diagnostics {
			found = found || d.Code == "extension-codex-hooks-not-run"
		}
		if found != tc.hookMsg {
			t.Errorf("%s: extension-codex-hooks-not-run = %v, want %v", tc.ns, found, tc.hookMsg)
		}
	}
	// Without onboardingSkill Codex reads nothing there.
	dir = t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "extensions": {"com.openai": {"hooks": "./h.json"}}}`)
	c := Load(dir, Options{}).Component(model.KindExtension, "com.openai")
	if s := supportOf(c, clientCodex); s.Status != model.NotApplicable || !strings.Contains(s.Detail, "only onboardingSkill") {
		t.Errorf("Codex support without onboardingSkill: %+v", s)
	}
}

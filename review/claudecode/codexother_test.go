package claudecode

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

// TestCodexAlsoLoadsDefaultFiles: in a folder with both manifests, Codex (0.169.0,
// 0.171.0) reads .codex-plugin/plugin.json, which still loads hooks/hooks.json, .mcp.json
// and skills/ unless its own fields replace them. The Claude package's Codex answer says
// Codex loads a component from such a file, and says it does not only when it does not.
func TestCodexAlsoLoadsDefaultFiles(t *testing.T) {
	const hooks = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}], "Notification": [{"hooks": [{"type": "command", "command": "echo n"}]}]}}`
	for _, tc := range []struct {
		name, claude, codex string
		hook, server, skill model.SupportStatus
	}{
		{"codex manifest without component fields", `{"name": "p"}`, `{"name": "p"}`, model.Supported, model.Supported, model.Supported},
		{"codex hooks {} is none at all", `{"name": "p"}`, `{"name": "p", "hooks": {}}`, model.NotSupported, model.Supported, model.Supported},
		{"codex hooks another file", `{"name": "p"}`, `{"name": "p", "hooks": "./other.json"}`, model.NotSupported, model.Supported, model.Supported},
		{"codex hooks lists the default", `{"name": "p"}`, `{"name": "p", "hooks": ["./hooks/hooks.json"]}`, model.Supported, model.Supported, model.Supported},
		{"codex hooks of a kind Codex ignores", `{"name": "p"}`, `{"name": "p", "hooks": 5}`, model.Supported, model.Supported, model.Supported},
		{"codex mcpServers inline", `{"name": "p"}`, `{"name": "p", "mcpServers": {}}`, model.Supported, model.NotSupported, model.Supported},
		{"the Claude manifest's hooks do not decide for Codex", `{"name": "p", "hooks": "./other.json"}`, `{"name": "p"}`, model.Supported, model.Supported, model.Supported},
		{"a codex manifest that is not JSON", `{"name": "p"}`, `{`, model.NotSupported, model.NotSupported, model.NotSupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), tc.claude, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, ".codex-plugin", "plugin.json"), tc.codex, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), hooks, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "other.json"), `{"hooks": {}}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, mcpFile), `{"mcpServers": {"s": {"command": "node", "args": ["x.js"]}}}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "skills", "k", "SKILL.md"), "---\nname: k\ndescription: d\n---\nbody\n", 0o644)
			p := LoadPlugin(dir, Options{})
			for _, w := range []struct {
				kind model.Kind
				id   string
				want model.SupportStatus
			}{
				{model.KindHook, "PreToolUse:0:0", tc.hook},
				{model.KindMCPServer, "s", tc.server},
				{model.KindSkill, "k", tc.skill},
				{model.KindHook, "Notification:0:0", model.NotSupported}, // Codex has no such event
			} {
				c := p.Component(w.kind, w.id)
				if c == nil {
					t.Fatalf("no %s:%s", w.kind, w.id)
				}
				for _, s := range c.Support {
					if s.Provider != clientCodex {
						continue
					}
					if s.Status != w.want {
						t.Errorf("%s:%s: codex %s (%s), want %s", w.kind, w.id, s.Status, s.Detail, w.want)
					}
					if s.Status == model.Supported && strings.Contains(s.Detail, "does not") {
						t.Errorf("%s:%s: supported, but it says %q", w.kind, w.id, s.Detail)
					}
				}
			}
		})
	}
}

// TestCodexRunsWhatClaudeRefusesOverShell: Claude Code (2.1.328, 2.1.332) refuses a
// handler whose shell is not bash or powershell, and its fail-closed rule then applies
// none of a PreToolUse handler's file; Codex (0.169.0, 0.171.0) ignores shell and has no
// such rule, so each hook it runs stays valid and supported by Codex only. A handler that
// Codex would not run either stays invalid.
func TestCodexRunsWhatClaudeRefusesOverShell(t *testing.T) {
	const stop = `"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]`
	for _, tc := range []struct {
		name, hooks, id string
		validity        model.Validity
		claude, codex   model.SupportStatus
	}{
		{"zsh on PreToolUse", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "shell": "zsh"}]}]}`, "PreToolUse:0:0", model.Valid, model.NotSupported, model.Supported},
		{"the file's other hook under Claude's gate", `{"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "shell": "zsh"}]}], ` + stop + `}`, "Stop:0:0", model.Valid, model.NotSupported, model.Supported},
		{"zsh and a negative timeout", `{"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "shell": "zsh", "timeout": -1}]}]}`, "PreToolUse:0:0", model.Invalid, model.NotSupported, model.NotSupported},
		{"zsh on an event Codex drops", `{"Notification": [{"hooks": [{"type": "command", "command": "true", "shell": "zsh"}]}]}`, "Notification:0:0", model.Invalid, model.NotSupported, model.NotSupported},
		{"bash", `{"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "shell": "bash"}]}]}`, "PreToolUse:0:0", model.Valid, model.Supported, model.Supported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "p"}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": `+tc.hooks+`}`, 0o644)
			c := LoadPlugin(dir, Options{}).Component(model.KindHook, tc.id)
			if c == nil {
				t.Fatalf("no hook %s", tc.id)
			}
			if c.Validity != tc.validity {
				t.Errorf("validity %s, want %s", c.Validity, tc.validity)
			}
			if s := supportOf(c, clientClaude); s.Status != tc.claude {
				t.Errorf("Claude %s (%s), want %s", s.Status, s.Detail, tc.claude)
			}
			if s := supportOf(c, clientCodex); s.Status != tc.codex {
				t.Errorf("Codex %s (%s), want %s", s.Status, s.Detail, tc.codex)
			}
			if tc.validity == model.Valid && c.Contract == nil {
				t.Errorf("a valid hook Codex runs has no contract to approve")
			}
		})
	}
}

// TestCodexReadsInlineHooksAsAHooksFile: Claude Code (2.1.328, 2.1.332) reads inline
// manifest hooks as the event map itself and ignores a {"hooks": ...} wrapper; Codex
// (0.169.0, 0.171.0) reads them only in that wrapper, a hooks file's form, which then
// replaces hooks/hooks.json, and ignores a bare event map, reading hooks/hooks.json
// instead.
func TestCodexReadsInlineHooksAsAHooksFile(t *testing.T) {
	const post = `"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "true"}]}]`
	for _, tc := range []struct {
		name, hooks                 string
		inlineClaude, inlineCodex   model.SupportStatus // plugin.json:PostToolUse:0:0; "" when absent
		defaultClaude, defaultCodex model.SupportStatus // hooks/hooks.json's Stop:0:0
	}{
		{"a bare event map", `{` + post + `}`, model.Supported, model.NotSupported, model.Supported, model.Supported},
		{"a hooks-file wrapper", `{"hooks": {` + post + `}}`, model.NotSupported, model.Supported, model.Supported, model.NotSupported},
		{"a wrapper with a description", `{"description": "d", "hooks": {` + post + `}}`, model.NotSupported, model.Supported, model.Supported, model.NotSupported},
		{"an empty object", `{}`, "", "", model.Supported, model.NotSupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "p", "hooks": `+tc.hooks+`}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
			p := LoadPlugin(dir, Options{})
			for _, w := range []struct {
				id            string
				claude, codex model.SupportStatus
			}{{"plugin.json:PostToolUse:0:0", tc.inlineClaude, tc.inlineCodex}, {"Stop:0:0", tc.defaultClaude, tc.defaultCodex}} {
				c := p.Component(model.KindHook, w.id)
				if w.claude == "" {
					if c != nil {
						t.Errorf("%s listed, want none", w.id)
					}
					continue
				}
				if c == nil || c.Validity != model.Valid {
					t.Fatalf("%s: %+v, want a valid hook", w.id, c)
				}
				if s := supportOf(c, clientClaude); s.Status != w.claude {
					t.Errorf("%s: Claude %s (%s), want %s", w.id, s.Status, s.Detail, w.claude)
				}
				if s := supportOf(c, clientCodex); s.Status != w.codex {
					t.Errorf("%s: Codex %s (%s), want %s", w.id, s.Status, s.Detail, w.codex)
				}
			}
		})
	}
}

// TestCodexRefusesClaudeManifest: Codex (0.169.0, 0.171.0) reads a Claude Code plugin's
// own plugin.json by its typed rules and refuses the install when a typed field has
// another type, although Claude Code only ignores the field (a keywords string): nothing
// of the plugin is then supported by Codex, and a diagnostic says why.
func TestCodexRefusesClaudeManifest(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		codex    model.SupportStatus
	}{
		{`{"name": "p", "keywords": "git"}`, model.NotSupported},
		{`{"name": "p", "keywords": ["git"]}`, model.Supported},
	} {
		dir := t.TempDir()
		testtree.WriteFile(t, filepath.Join(dir, manifestFile), tc.manifest, 0o644)
		testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
		testtree.WriteFile(t, filepath.Join(dir, "skills", "k", "SKILL.md"), "---\nname: k\ndescription: d\n---\nbody\n", 0o644)
		p := LoadPlugin(dir, Options{})
		if got := hasCode(p, "codex-refuses-manifest"); got != (tc.codex == model.NotSupported) {
			t.Errorf("%s: codex-refuses-manifest emitted = %v", tc.manifest, got)
		}
		for _, ref := range []string{"hook:Stop:0:0", "skill:k"} {
			c := mustListed(t, p, ref)
			if s := supportOf(c, clientCodex); s.Status != tc.codex {
				t.Errorf("%s: %s Codex %s (%s), want %s", tc.manifest, ref, s.Status, s.Detail, tc.codex)
			}
			if s := supportOf(c, clientClaude); s.Status != model.Supported {
				t.Errorf("%s: %s Claude %s, want supported", tc.manifest, ref, s.Status)
			}
		}
	}
}

// TestCodexLoadsWhatClaudeRejects: a plugin.json Claude Code (2.1.328, 2.1.332) rejects is
// read by Codex (0.169.0, 0.171.0) by its own rules: without a name, or with a commands or
// agents path Claude refuses, Codex installs the plugin and runs hooks/hooks.json, so the
// rejected Claude package lists that hook as Codex's and not Claude's. Where Codex refuses
// the manifest too, or reads another one, nothing is listed.
func TestCodexLoadsWhatClaudeRejects(t *testing.T) {
	for _, tc := range []struct {
		name, manifest string
		codexManifest  bool // a .codex-plugin/plugin.json beside it
		codexRuns      bool
	}{
		{"no name", `{"version": "1.0.0"}`, false, true},
		{"a commands path without ./", `{"name": "p", "commands": "cmds"}`, false, true},
		{"an agents path with ..", `{"name": "p", "agents": "./../agents"}`, false, true},
		{"a name Codex refuses too", `{"name": "my plugin"}`, false, false},
		{"not JSON", `{"name": `, false, false},
		{"Codex reads .codex-plugin instead", `{"version": "1.0.0"}`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), tc.manifest, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
			if tc.codexManifest {
				testtree.WriteFile(t, filepath.Join(dir, ".codex-plugin", "plugin.json"), `{"name": "p"}`, 0o644)
			}
			p := LoadPlugin(dir, Options{})
			if !p.Rejected {
				t.Fatalf("Claude package not rejected: %v", codes(p))
			}
			if got := len(p.Components) == 1; got != tc.codexRuns {
				t.Fatalf("%d components, want Codex's hook: %v", len(p.Components), tc.codexRuns)
			}
			if !tc.codexRuns {
				return
			}
			c := p.Components[0]
			if c.Kind != model.KindHook || c.Validity != model.Valid || c.Contract == nil {
				t.Errorf("%s:%s %s, want a valid hook with a contract", c.Kind, c.ID, c.Validity)
			}
			if s := supportOf(c, clientCodex); s.Status != model.Supported {
				t.Errorf("Codex %s (%s)", s.Status, s.Detail)
			}
			if s := supportOf(c, clientClaude); s.Status != model.NotSupported {
				t.Errorf("Claude %s (%s)", s.Status, s.Detail)
			}
			if !hasCode(p, "codex-reads-rejected-manifest") {
				t.Errorf("no codex-reads-rejected-manifest: %v", codes(p))
			}
		})
	}
}

// TestCodexSkillsAndServersOfAClaudeManifest: Codex (0.169.0, 0.171.0) reading a Claude
// Code plugin's own plugin.json scans skills/ unless a skills path it accepts replaces it
// (Claude Code adds such a path to skills/), never a SKILL.md at the plugin's top, and
// takes mcpServers as one path or one object only, ignoring a list and reading .mcp.json
// instead.
func TestCodexSkillsAndServersOfAClaudeManifest(t *testing.T) {
	type want struct {
		kind  model.Kind
		id    string
		codex model.SupportStatus
	}
	for _, tc := range []struct {
		name, manifest string
		files          []string // SKILL.md folders beside skills/a
		wants          []want
	}{
		{"skills/ alone", `{"name": "p"}`, nil, []want{{model.KindSkill, "a", model.Supported}, {model.KindMCPServer, "dot", model.Supported}}},
		{"a skills path replaces skills/", `{"name": "p", "skills": "./more"}`, []string{"more/b"},
			[]want{{model.KindSkill, "a", model.NotSupported}, {model.KindSkill, "b", model.Supported}}},
		{"a list of skills paths", `{"name": "p", "skills": ["./more", "./skills"]}`, []string{"more/b"},
			[]want{{model.KindSkill, "a", model.Supported}, {model.KindSkill, "b", model.Supported}}},
		{"a list of servers", `{"name": "p", "mcpServers": ["./extra.json", {"inline": {"command": "y"}}]}`, nil,
			[]want{{model.KindMCPServer, "file", model.NotSupported}, {model.KindMCPServer, "inline", model.NotSupported}, {model.KindMCPServer, "dot", model.Supported}}},
		{"one server path", `{"name": "p", "mcpServers": "./extra.json"}`, nil,
			[]want{{model.KindMCPServer, "file", model.Supported}, {model.KindMCPServer, "dot", model.NotSupported}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.WriteFile(t, filepath.Join(dir, manifestFile), tc.manifest, 0o644)
			for _, d := range append([]string{"skills/a"}, tc.files...) {
				testtree.WriteFile(t, filepath.Join(dir, filepath.FromSlash(d), "SKILL.md"), "---\nname: "+filepath.Base(d)+"\ndescription: d\n---\nbody\n", 0o644)
			}
			testtree.WriteFile(t, filepath.Join(dir, mcpFile), `{"mcpServers": {"dot": {"command": "x"}}}`, 0o644)
			testtree.WriteFile(t, filepath.Join(dir, "extra.json"), `{"mcpServers": {"file": {"command": "z"}}}`, 0o644)
			p := LoadPlugin(dir, Options{})
			for _, w := range tc.wants {
				c := p.Component(w.kind, w.id)
				if c == nil {
					t.Fatalf("no %s %s", w.kind, w.id)
				}
				if s := supportOf(c, clientClaude); s.Status != model.Supported {
					t.Errorf("%s: Claude %s (%s)", w.id, s.Status, s.Detail)
				}
				if s := supportOf(c, clientCodex); s.Status != w.codex {
					t.Errorf("%s: Codex %s (%s), want %s", w.id, s.Status, s.Detail, w.codex)
				}
			}
		})
	}
	// A SKILL.md at the top of a plugin without skills/ is Claude's skill, not Codex's.
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "top"}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: top\ndescription: d\n---\nbody\n", 0o644)
	c := LoadPlugin(dir, Options{}).Component(model.KindSkill, "top")
	if c == nil || supportOf(c, clientClaude).Status != model.Supported || supportOf(c, clientCodex).Status != model.NotSupported {
		t.Errorf("root SKILL.md: %+v, want Claude's and not Codex's", c)
	}
}

package claudecode

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestRulesByVersion: the components 2.1.332 added, each answered for the release asked
// for, and the pieces every modelled release loads (hooks-file modules, Codex-only events,
// onFailure) shown rather than hidden.
func TestRulesByVersion(t *testing.T) {
	type want struct {
		ref            string // kind:id
		validity       model.Validity
		claude, codex  model.SupportStatus
		detailContains string
	}
	for _, tc := range []struct {
		dir, claude string
		wants       []want
		codes       []string // package diagnostics expected
		noCodes     []string // package diagnostics that must be absent
	}{
		{"pre-skill-shell", "2.1.332", []want{
			{"hook:PreSkillShellCommand:0:0", model.Valid, model.Supported, model.NotSupported, ""},
			{"hook:PreModelRequest:0:0", model.Valid, model.NotSupported, model.Supported, "Codex runs it before every request"},
			{"hook:Interrupt:0:0", model.Valid, model.NotSupported, model.NotSupported, "skips prompt handlers"},
		}, nil, []string{"manifest-unknown-field"}},
		{"pre-skill-shell", "2.1.328", []want{
			{"hook:PreSkillShellCommand:0:0", model.Valid, model.NotSupported, model.NotSupported, "Claude Code 2.1.328 ignores PreSkillShellCommand"},
		}, nil, nil},
		{"hook-modules", "2.1.332", []want{
			// Three entries: Claude refuses the whole file, and Codex rejects its modules key.
			{"hook-module:lib/audit.mjs", model.Valid, model.NotSupported, model.NotSupported, "a second entry is refused"},
			{"hook-module:lib/missing.mjs", model.Invalid, model.NotSupported, model.NotSupported, ""},
			{"hook:Stop:0:0", model.Valid, model.NotSupported, model.NotSupported, "refuse the whole of hooks/hooks.json"},
		}, []string{"hook-module-type", "hook-modules-refused"}, nil},
		{"manifest-newer", "2.1.332", []want{
			{"dependency:formatter-extras", model.Valid, model.Supported, model.NotSupported, ""},
			{"dependency:lint-extras", model.Valid, model.Supported, model.NotSupported, ""},
		}, []string{"manifest-network-shown"}, []string{"manifest-unknown-field", "manifest-field-newer"}},
		{"manifest-newer", "2.1.328", nil, []string{"manifest-field-newer"}, []string{"manifest-unknown-field"}},
	} {
		t.Run(tc.dir+"@"+tc.claude, func(t *testing.T) {
			p := LoadPlugin("testdata/cases/"+tc.dir, Options{ClaudeVersion: tc.claude})
			for _, w := range tc.wants {
				kind, id, _ := strings.Cut(w.ref, ":")
				c := p.Component(model.Kind(kind), id)
				if c == nil {
					t.Errorf("%s is not listed", w.ref)
					continue
				}
				if c.Validity != w.validity {
					t.Errorf("%s validity %s, want %s", w.ref, c.Validity, w.validity)
				}
				details := ""
				for _, s := range c.Support {
					details += s.Detail + " " + strings.Join(c.Summary, " ")
					want := map[string]model.SupportStatus{clientClaude: w.claude, clientCodex: w.codex}[s.Provider]
					if s.Status != want {
						t.Errorf("%s %s: %s (%s), want %s", w.ref, s.Provider, s.Status, s.Detail, want)
					}
					if s.Provider == clientClaude && s.Version != tc.claude {
						t.Errorf("%s answers for Claude Code %s, asked for %s", w.ref, s.Version, tc.claude)
					}
				}
				if !strings.Contains(details, w.detailContains) {
					t.Errorf("%s: no %q in %s", w.ref, w.detailContains, details)
				}
			}
			codes := map[string]bool{}
			for _, d := range p.Diagnostics {
				codes[d.Code] = true
			}
			for _, c := range tc.codes {
				if !codes[c] {
					t.Errorf("no %s diagnostic (have %v)", c, codes)
				}
			}
			for _, c := range tc.noCodes {
				if codes[c] {
					t.Errorf("unexpected %s diagnostic", c)
				}
			}
		})
	}
}

// TestCodexSkipsGithubEntries: Codex (0.169.0, 0.171.0) reads a Claude marketplace but
// does not offer its github entries; Claude Code does.
func TestCodexSkipsGithubEntries(t *testing.T) {
	mk, _, _ := LoadMarketplace("testdata/cases/marketplace", Options{})
	c := mk.Component(model.KindPlugin, "from-github")
	if c == nil {
		t.Fatal("no from-github entry")
	}
	for _, s := range c.Support {
		want := map[string]model.SupportStatus{clientClaude: model.Supported, clientCodex: model.NotSupported}[s.Provider]
		if s.Status != want {
			t.Errorf("%s: %s (%s), want %s", s.Provider, s.Status, s.Detail, want)
		}
	}
}

// TestCodexKeepsPluginRootInArgs: Codex (0.169.0, 0.171.0) passes ${CLAUDE_PLUGIN_ROOT}
// in MCP args through literally and still starts the server (plugin/read lists both), so
// the server whose args name the bundled file is supported with a warning that says what
// it gets; a server without the variable has no warning.
func TestCodexKeepsPluginRootInArgs(t *testing.T) {
	p := LoadPlugin("testdata/cases/codex-literal-root", Options{})
	for id, warned := range map[string]bool{"docs": true, "plain": false} {
		c := p.Component(model.KindMCPServer, id)
		if c == nil {
			t.Fatalf("no %s", id)
		}
		for _, s := range c.Support {
			if s.Status != model.Supported {
				t.Errorf("%s: %s %s (%s), want supported", id, s.Provider, s.Status, s.Detail)
			}
			if s.Provider == clientCodex && warned != strings.Contains(s.Detail, "literally") {
				t.Errorf("%s: Codex detail %q", id, s.Detail)
			}
		}
		var w *model.Diagnostic
		for i, d := range c.Diagnostics {
			if d.Code == "mcp-codex-literal-root" {
				w = &c.Diagnostics[i]
			}
		}
		if warned != (w != nil) || w != nil && (w.Severity != model.SeverityWarning || !strings.Contains(w.Message, "${CLAUDE_PLUGIN_ROOT}/server/index.mjs") || !strings.Contains(w.Message, "Codex 0.169.0 and 0.171.0")) {
			t.Errorf("%s: warning %+v", id, w)
		}
	}
}

// TestURLWithoutTypeRunsInCodex: a server with a url and no type is dropped by Claude
// Code (read as stdio, it has no command) but listed and connected to by Codex 0.169.0
// and 0.171.0, so the server is valid, unsupported by Claude Code, supported by Codex,
// and the warning names both clients.
func TestURLWithoutTypeRunsInCodex(t *testing.T) {
	p := LoadPlugin("testdata/cases/mcp-url-without-type", Options{})
	c := p.Component(model.KindMCPServer, "remote")
	if c == nil || c.Validity != model.Valid {
		t.Fatalf("remote: %+v", c)
	}
	want := map[string]model.SupportStatus{clientClaude: model.NotSupported, clientCodex: model.Supported}
	for _, s := range c.Support {
		if s.Status != want[s.Provider] {
			t.Errorf("%s: %s (%s), want %s", s.Provider, s.Status, s.Detail, want[s.Provider])
		}
	}
	if len(c.Support) != 2 {
		t.Errorf("support: %+v", c.Support)
	}
	if len(c.Diagnostics) != 1 || c.Diagnostics[0].Severity != model.SeverityWarning || !strings.Contains(c.Diagnostics[0].Message, "Codex 0.169.0 and 0.171.0 connect") {
		t.Errorf("diagnostics: %+v", c.Diagnostics)
	}
}

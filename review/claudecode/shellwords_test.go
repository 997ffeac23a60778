package claudecode

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/closure/closuretest"
)

// hookWith writes a plugin whose one PreToolUse hook runs line and loads it.
func hookWith(t *testing.T, line string) *model.Component {
	t.Helper()
	dir := hostilePlugin(t)
	cmd, _ := json.Marshal(line)
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": `+string(cmd)+`}]}]}}`, 0o644)
	c := LoadPlugin(dir, Options{}).Component(model.KindHook, "PreToolUse:0:0")
	if c == nil {
		t.Fatalf("%q: no hook", line)
	}
	return c
}

// notCoveredAs is c's not_covered list, each entry its kind and subject joined by sep.
func notCoveredAs(c *model.Component, sep string) []string {
	var out []string
	for _, n := range c.NotCovered {
		out = append(out, n.Kind+sep+n.Subject)
	}
	return out
}

func hasKind(c *model.Component, kind string) bool {
	for _, n := range c.NotCovered {
		if n.Kind == kind {
			return true
		}
	}
	return false
}

// TestHookShellWords: a hook word that reaches outside the plugin through the shell's
// expansion is listed as not covered, in both spellings of the root (the placeholder
// Claude substitutes, and the variable it exports).
func TestHookShellWords(t *testing.T) {
	for _, w := range closuretest.ShellWords() {
		t.Run(w.Name, func(t *testing.T) {
			c := hookWith(t, w.Expand("CLAUDE_PLUGIN_ROOT"))
			if !hasKind(c, w.Kind) {
				t.Errorf("%q: not covered %q, want a %s", w.Expand("CLAUDE_PLUGIN_ROOT"), notCoveredAs(c, ":"), w.Kind)
			}
		})
	}
	for _, tc := range []struct{ line, want string }{
		// Claude runs hooks in the project: a bare script name is the project's file.
		{`node x.js`, "outside-path:./x.js"},
		{`./../x.sh`, "outside-path:./../x.sh"},
		{`"${CLAUDE_PLUGIN_ROOT}"/../x.sh`, "outside-path:${CLAUDE_PLUGIN_ROOT}/../x.sh"},
		{`'$CLAUDE_PLUGIN_ROOT'/run.sh`, "outside-path:$CLAUDE_PLUGIN_ROOT/run.sh"},
		{`node ${PLUGIN_ROOT}/x.js`, "unresolved-word:${PLUGIN_ROOT}/x.js"},
	} {
		if got := notCoveredAs(hookWith(t, tc.line), ":"); !strings.Contains(strings.Join(got, ","), tc.want) {
			t.Errorf("%q: not covered %q, want %s", tc.line, got, tc.want)
		}
	}
	// The root, however it is spelled, is the plugin: only run.sh's #! program is listed.
	for _, tc := range []struct{ line, want string }{
		{`"${CLAUDE_PLUGIN_ROOT}"/run.sh`, "path-program:/bin/sh"},
		{`"$CLAUDE_PLUGIN_ROOT/run.sh"`, "path-program:/bin/sh"},
		{`${CLAUDE_PLUGIN_ROOT:-$PLUGIN_ROOT}/run.sh`, "path-program:/bin/sh"},
		{`cd "${CLAUDE_PLUGIN_ROOT}" && node x.js`, "path-program:node"},
		{`command -v jq >/dev/null || exit 0`, ""},
		{`case "$X" in */y) continue;; esac`, ""},
	} {
		if got := strings.Join(notCoveredAs(hookWith(t, tc.line), ":"), ","); got != tc.want {
			t.Errorf("%q: not covered %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestExecFormsCleaned: a stdio server, an LSP server whose program is
// ${CLAUDE_PLUGIN_ROOT}/../x is outside the plugin, and a server's ${VAR} words and cwd
// are the user's environment.
func TestExecFormsCleaned(t *testing.T) {
	dir := hostilePlugin(t)
	testtree.WriteFile(t, filepath.Join(dir, mcpFile), `{"mcpServers": {
		"up": {"command": "${CLAUDE_PLUGIN_ROOT}/../x"},
		"env": {"command": "node", "args": ["${TMPDIR:-/tmp}/x.js"]},
		"cwd": {"command": "node", "args": ["x.js"], "cwd": "/tmp"},
		"rel": {"command": "./bin/../../x"},
		"in": {"command": "./run.sh"}}}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, ".lsp.json"), `{"go": {"command": "${CLAUDE_PLUGIN_ROOT}/../gopls", "extensionToLanguage": {".go": "go"}}}`, 0o644)
	p := LoadPlugin(dir, Options{})
	for _, tc := range []struct {
		kind model.Kind
		id   string
		want string
	}{
		{model.KindMCPServer, "up", "outside-path:${CLAUDE_PLUGIN_ROOT}/../x"},
		{model.KindMCPServer, "env", "unresolved-word:${TMPDIR:-/tmp}/x.js"},
		{model.KindMCPServer, "cwd", "outside-path:/tmp"},
		{model.KindLSPServer, "go", "outside-path:${CLAUDE_PLUGIN_ROOT}/../gopls"},
		{model.KindMCPServer, "rel", "outside-path:./bin/../../x"},
		{model.KindMCPServer, "in", "path-program:/bin/sh"}, // bundled: only its #! program
	} {
		c := p.Component(tc.kind, tc.id)
		if c == nil {
			t.Fatalf("no %s:%s: %v", tc.kind, tc.id, codes(p))
		}
		if got := notCoveredAs(c, ":"); !strings.Contains(strings.Join(got, ","), tc.want) {
			t.Errorf("%s: not covered %q, want %s", tc.id, got, tc.want)
		}
	}
}

// TestHookPluginRootDefault: ${CLAUDE_PLUGIN_ROOT:-$PLUGIN_ROOT} is the plugin in Claude
// Code (it sets CLAUDE_PLUGIN_ROOT for hooks, so the default is never used): no warning
// that ${PLUGIN_ROOT} collapses, while a bare ${PLUGIN_ROOT} still gets it.
func TestHookPluginRootDefault(t *testing.T) {
	for _, tc := range []struct {
		line string
		warn bool
	}{
		{`"${CLAUDE_PLUGIN_ROOT:-$PLUGIN_ROOT}"/run.sh`, false},
		{`"${CLAUDE_PLUGIN_ROOT:-${PLUGIN_ROOT:-.}}"/run.sh`, false},
		{`"${CLAUDE_PLUGIN_ROOT:-x}/run.sh" "$PLUGIN_ROOT"`, true},
		{`"${PLUGIN_ROOT}"/run.sh`, true},
	} {
		c := hookWith(t, tc.line)
		got := false
		for _, d := range c.Diagnostics {
			got = got || d.Code == "hook-plain-plugin-root"
		}
		if got != tc.warn {
			t.Errorf("%q: hook-plain-plugin-root %v, want %v (%v)", tc.line, got, tc.warn, c.Diagnostics)
		}
	}
}

// TestHookMissingFileNotCovered: a bundled file the hook runs that is not there is listed
// as missing in the not-covered list, besides its warning.
func TestHookMissingFileNotCovered(t *testing.T) {
	c := hookWith(t, `node "${CLAUDE_PLUGIN_ROOT}/scripts/missing.js"`)
	got := strings.Join(notCoveredAs(c, ":"), ",")
	if !strings.Contains(got, "missing-file:${CLAUDE_PLUGIN_ROOT}/scripts/missing.js") {
		t.Fatalf("not covered %q", got)
	}
	if c := hookWith(t, `"${CLAUDE_PLUGIN_ROOT}"/run.sh`); hasKind(c, model.NotCoveredMissing) {
		t.Fatalf("a file that is there is listed as missing: %q", notCoveredAs(c, ":"))
	}
}

package codex

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure/closuretest"
)

func ncList(c *model.Component) string {
	var out []string
	for _, n := range c.NotCovered {
		out = append(out, n.Kind+":"+n.Subject)
	}
	return strings.Join(out, ",")
}

// TestHookShellWords: a Codex hook word that reaches outside the plugin through the
// shell's expansion is listed as not covered; a server whose program is ./../x is
// outside the plugin.
func TestHookShellWords(t *testing.T) {
	for _, w := range closuretest.ShellWords() {
		t.Run(w.Name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, _ := json.Marshal(w.Expand("PLUGIN_ROOT"))
			writeFiles(t, dir, map[string]string{manifestFile: `{"name":"x"}`,
				defaultHooksFile: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":` + string(cmd) + `}]}]}}`})
			c := Load(dir, Options{}).Component(model.KindHook, "hooks/hooks.json:stop:0:0")
			if c == nil || !strings.Contains(ncList(c), w.Kind+":") {
				t.Fatalf("%s: not covered %q, want a %s", cmd, ncListOf(c), w.Kind)
			}
		})
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{manifestFile: `{"name":"x"}`, "run": "x",
		".mcp.json": `{"mcpServers":{"up":{"command":"./../run"},"in":{"command":"./run"},"rel":{"command":"bin/../../run"},"cwd":{"command":"./run","cwd":"/tmp"}}}`})
	p := Load(dir, Options{})
	for id, want := range map[string]string{"up": "outside-path:./../run", "rel": "outside-path:bin/../../run", "cwd": "outside-path:./run"} {
		if got := ncList(p.Component(model.KindMCPServer, id)); !strings.Contains(got, want) {
			t.Errorf("%s: not covered %q, want %s", id, got, want)
		}
	}
	if got := ncList(p.Component(model.KindMCPServer, "in")); got != "" {
		t.Errorf("./run: not covered %q, want nothing", got)
	}
}

func ncListOf(c *model.Component) string {
	if c == nil {
		return "(no hook)"
	}
	return ncList(c)
}

package codex

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestHookMissingFile: a Codex hook that names a plugin file that is not there lists it as
// missing-file; a file or a directory that is there is not listed.
func TestHookMissingFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".codex-plugin/plugin.json": `{"name": "p"}`,
		"hooks/there.sh":            "#!/bin/sh\n",
		"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"hooks": [
		{"type": "command", "command": "sh \"${PLUGIN_ROOT}/hooks/missing.sh\""},
		{"type": "command", "command": "sh \"${PLUGIN_ROOT}/hooks/there.sh\" && cd $CLAUDE_PLUGIN_ROOT/hooks"}]}]}}`,
	})
	p := Load(dir, Options{})
	got := map[string][]string{}
	for _, c := range p.Components {
		for _, n := range c.NotCovered {
			if n.Kind == model.NotCoveredMissing {
				got[c.ID] = append(got[c.ID], n.Subject)
			}
		}
	}
	if len(got) != 1 || strings.Join(got["hooks/hooks.json:pre_tool_use:0:0"], ",") != "${PLUGIN_ROOT}/hooks/missing.sh" {
		t.Fatalf("missing files %v", got)
	}
}

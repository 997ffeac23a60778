package codex

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestEntryFileUnreadable: a hooks, MCP or apps file the plugin lacks by default is no
// finding, while one the manifest names and the plugin lacks, or a default that is not a
// file, is a warning naming the file, and Codex takes nothing from it.
func TestEntryFileUnreadable(t *testing.T) {
	codes := []string{"hooks-file-unreadable", "mcp-file-unreadable", "apps-file-unreadable"}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		code     string // "" for none of codes
		sentence string
	}{
		{"defaults absent", map[string]string{manifestFile: `{"name":"x"}`}, "", ""},
		{"named hooks file absent", map[string]string{manifestFile: `{"name":"x","hooks":"./h.json"}`}, "hooks-file-unreadable", "The hooks file h.json "},
		{"named MCP file absent", map[string]string{manifestFile: `{"name":"x","mcpServers":"./m.json"}`}, "mcp-file-unreadable", "The MCP file m.json "},
		{"named apps file absent", map[string]string{manifestFile: `{"name":"x","apps":"./a.json"}`}, "apps-file-unreadable", "The apps file a.json "},
		{"default MCP file a folder", map[string]string{manifestFile: `{"name":"x"}`, defaultMCPFile + "/x": "{}"}, "mcp-file-unreadable", "The MCP file .mcp.json "},
		{"default apps file a folder", map[string]string{manifestFile: `{"name":"x"}`, defaultAppsFile + "/x": "{}"}, "apps-file-unreadable", "The apps file .app.json "},
		{"default hooks file a folder", map[string]string{manifestFile: `{"name":"x"}`, defaultHooksFile + "/x": "{}"}, "hooks-file-unreadable", "The hooks file hooks/hooks.json "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			p := Load(dir, Options{})
			for _, code := range codes {
				var found []model.Diagnostic
				for _, d := range loadertest.Diagnostics(p) {
					if d.Code == code {
						found = append(found, d)
					}
				}
				if code != tc.code {
					if len(found) != 0 {
						t.Fatalf("unexpected %s: %+v", code, found)
					}
					continue
				}
				if len(found) != 1 || found[0].Severity != model.SeverityWarning || !strings.HasPrefix(found[0].Message, tc.sentence) || !strings.Contains(found[0].Message, codexSeen) {
					t.Fatalf("%s: %+v", code, found)
				}
			}
			if len(p.Components) != 0 {
				t.Fatalf("components from an unreadable file: %d", len(p.Components))
			}
		})
	}
}

package foreign

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/review/internal/loadertest"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		rel, client string
	}{
		{".cursor-plugin/plugin.json", "Cursor"},
		{".kimi-plugin/plugin.json", "Kimi"},
		{".devin-plugin/plugin.json", "Devin"},
		{"gemini-extension.json", "Gemini CLI"},
		{"POWER.md", "Kiro"},
	} {
		d := t.TempDir()
		p := filepath.Join(d, tc.rel)
		loadertest.WriteFile(t, p, "{}")
		ds := Scan(d)
		if len(ds) != 1 || ds[0].Code != "manifest-not-read" || !strings.Contains(ds[0].Message, tc.client) || ds[0].File != p {
			t.Errorf("%s: %+v", tc.rel, ds)
		}
	}
	// Claude Code and Codex manifests are read by their loaders: not named here.
	d := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(d, ".claude-plugin", "plugin.json"), "{}")
	if ds := Scan(d); len(ds) != 0 {
		t.Errorf("%+v", ds)
	}
	for _, n := range []string{".cursor-plugin", ".kimi-plugin", ".devin-plugin"} {
		if !IsClientDir(n) {
			t.Errorf("%s", n)
		}
	}
	// The manifest folders of the formats vouch reads are review's format table's.
	if IsClientDir("plugin") || IsClientDir(".agents") || IsClientDir(".claude-plugin") || IsClientDir(".codex-plugin") {
		t.Error("not client manifest folders")
	}
}

package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"

	"github.com/charmbracelet/x/ansi"
)

// The package Overview's Manifest section shows the manifest's own component fields as
// written: Codex's "hooks": {} (no hooks at all there) and the Claude manifest's
// mcpServers and lspServers, each with its value.
func TestManifestShowsComponentFields(t *testing.T) {
	for _, tc := range []struct {
		src    string
		format model.Format
		want   []string
	}{
		{filepath.Join("..", "examples", "codex", "empty-hooks-two-clients"), model.FormatCodex, []string{"hooks: {}"}},
		{filepath.Join("testdata", "manifest-fields"), model.FormatClaudeCode, []string{`hooks: {}`, `mcpServers: ./servers.json`, `lspServers: {"go":{"command":"gopls"`}},
	} {
		pkgs := openedPackages(t, tc.src, func(p *model.Package) bool { return p.Format == tc.format })
		if len(pkgs) != 1 {
			t.Fatalf("%s: %d %s packages", tc.src, len(pkgs), tc.format)
		}
		m := newTestModel(t, pkgs, 160, 60)
		press(t, m, "1") // the package row is selected first; its Overview
		view := ansi.Strip(m.View().Content)
		if !strings.Contains(view, "Manifest") {
			t.Fatalf("%s: no Manifest section:\n%s", tc.src, view)
		}
		for _, w := range tc.want {
			if !strings.Contains(view, w) {
				t.Errorf("%s: the Manifest section lacks %q:\n%s", tc.src, w, view)
			}
		}
	}
}

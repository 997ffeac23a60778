package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// TestClientTargets: --claude and --codex answer for the installed release when its
// metadata says which, else for the newest modelled, and say which in a note.
func TestClientTargets(t *testing.T) {
	root := t.TempDir()
	mk := func(version string) string {
		dir := filepath.Join(root, version, "versions")
		os.MkdirAll(dir, 0o755)
		p := filepath.Join(dir, version)
		os.WriteFile(p, nil, 0o755)
		return p
	}
	claude, _ := model.LookupClient(model.ClientClaudeCode)
	for _, tc := range []struct {
		bin, want, severity, says string
	}{
		{mk("2.1.328"), "2.1.328", "info", "Claude Code 2.1.328 is installed"},
		{mk("2.1.340"), "2.1.340", "warning", "a release vouch has not observed"},
		{"", claude.Newest(), "info", "the newest release vouch models"},
	} {
		look := func(string) (string, error) {
			if tc.bin == "" {
				return "", errors.New("not found")
			}
			return tc.bin, nil
		}
		v, notes := clientTargets([]string{model.ClientClaudeCode}, look)
		if v[model.ClientClaudeCode] != tc.want || len(notes) != 1 || string(notes[0].Severity) != tc.severity || !strings.Contains(notes[0].Message, tc.says) {
			t.Errorf("bin %q: versions %v, notes %+v", tc.bin, v, notes)
		}
	}
}

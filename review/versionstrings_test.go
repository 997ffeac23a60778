package review

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// TestLoadersNameNoRelease: no loader writes a client release of its own. Every release
// a rule is observed on or keyed by is a constant of the model's client registry, so a
// new release is added there and every sentence that names the releases follows.
func TestLoadersNameNoRelease(t *testing.T) {
	releases := []string{model.ClaudeCodeDalo, model.ClaudeCode328, model.ClaudeCode331, model.ClaudeCode332, model.CodexDalo, model.Codex169, model.Codex171}
	for _, c := range model.Clients() {
		releases = append(releases, c.Versions...)
	}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, r := range releases {
				if strings.Contains(line, r) {
					t.Errorf("%s:%d names the release %s itself; use the registry's constant (model.Releases for a sentence)", p, i+1, r)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

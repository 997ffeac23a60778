package gen

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHeavyPlugin(t *testing.T) {
	dir := t.TempDir()
	n, err := HeavyPlugin(dir, 230)
	if err != nil {
		t.Fatal(err)
	}
	if n < 400 || n > 450 {
		t.Errorf("%d files, want the shape of a 422-file plugin", n)
	}
	for _, rel := range []string{".claude-plugin/plugin.json", ".codex-plugin/plugin.json", "skills/skill-229/SKILL.md"} {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Error(err)
		}
	}
	if out := os.Getenv("VOUCH_HEAVY_OUT"); out != "" {
		HeavyPlugin(out, 230)
	}
}

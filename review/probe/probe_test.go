package probe

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestAnswersAsLstat builds a folder with every shape detection meets and checks each
// answer of a probe against os.Lstat of the same path.
func TestAnswersAsLstat(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("plugin.json")
	mk(".claude-plugin/plugin.json")
	mk(".codex-plugin/plugin.json/inner") // a directory where a file is expected
	mk("other/real/marketplace.json")
	mk("SKILL.md")
	if err := os.Symlink("other/real", filepath.Join(root, ".agents")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(root, "dangling.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	rels := []string{
		"plugin.json", "PLUGIN.json", "manifest.json", "SKILL.md", "skill.md",
		".claude-plugin", ".claude-plugin/plugin.json", ".claude-plugin/marketplace.json",
		".codex-plugin/plugin.json", ".codex-plugin/plugin.json/inner",
		".agents", ".agents/marketplace.json", ".agents/plugins/marketplace.json",
		"plugin.json/x", "dangling.json", "hooks", "hooks/hooks.json", "nope/deeper/still",
	}
	check := func(t *testing.T, d *Dir) {
		for _, rel := range rels {
			st, err := os.Lstat(filepath.Join(d.Path(), filepath.FromSlash(rel)))
			exists, isDir := err == nil, err == nil && st.IsDir()
			if got := d.Exists(rel); got != exists {
				t.Errorf("Exists(%q) = %v, Lstat says %v", rel, got, exists)
			}
			if got := d.IsDir(rel); got != isDir {
				t.Errorf("IsDir(%q) = %v, Lstat says %v", rel, got, isDir)
			}
			if got := d.IsFileOrOther(rel); got != (exists && !isDir) {
				t.Errorf("IsFileOrOther(%q) = %v, Lstat says %v", rel, got, exists && !isDir)
			}
		}
	}
	t.Run("fresh probe per question", func(t *testing.T) {
		for _, rel := range rels {
			d := New(root)
			st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
			if d.Exists(rel) != (err == nil) || New(root).IsDir(rel) != (err == nil && st.IsDir()) {
				t.Errorf("a fresh probe answers %q unlike Lstat", rel)
			}
		}
	})
	t.Run("one probe for all", func(t *testing.T) { check(t, New(root)) })
	t.Run("missing folder", func(t *testing.T) { check(t, New(filepath.Join(root, "absent"))) })
	t.Run("a file, not a folder", func(t *testing.T) { check(t, New(filepath.Join(root, "plugin.json"))) })
	t.Run("through a symlinked folder", func(t *testing.T) { check(t, New(filepath.Join(root, ".agents"))) })
}

// TestLargeFolderFallsBack: past the listing bound an absent name is not taken as
// absent; the probe asks Lstat.
func TestLargeFolderFallsBack(t *testing.T) {
	root := t.TempDir()
	for i := 0; i <= maxEntries; i++ {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf("f%05d", maxEntries) // may be beyond what the listing kept
	d := New(root)
	if !d.Exists(last) || !d.Exists("f00000") || d.Exists("plugin.json") {
		t.Fatal("a folder over the bound is answered wrongly")
	}
	if l := d.lists[""]; l.ok {
		t.Fatal("a listing over the bound claims to be complete")
	}
}

// TestListsOnce: a probe lists a folder once however many names are asked of it.
func TestListsOnce(t *testing.T) {
	root := t.TempDir()
	d := New(root)
	for _, n := range []string{"a", "b", "c/d", "e"} {
		d.Exists(n)
	}
	if len(d.lists) != 1 {
		t.Fatalf("listed %d folders, want 1 (the root)", len(d.lists))
	}
}

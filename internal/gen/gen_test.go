package gen

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir, 3); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Fatalf("%d packages, want 3", len(entries))
	}
	for _, rel := range []string{"plugin.json", "mcp.json", "skills/deploy/SKILL.md", "bin/server"} {
		if _, err := os.Stat(filepath.Join(dir, "plugin-0002", rel)); err != nil {
			t.Error(err)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "plugin-0000", "bin", "server")); st.Mode().Perm()&0o100 == 0 {
		t.Error("bin/server is not executable")
	}
}

func TestMinimal(t *testing.T) {
	dir := t.TempDir()
	if err := Minimal(dir, 3); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 || entries[2].Name() != "plugin-00002" {
		t.Fatalf("entries %v", entries)
	}
	files, _ := os.ReadDir(filepath.Join(dir, "plugin-00002"))
	if len(files) != 1 || files[0].Name() != "plugin.json" {
		t.Fatalf("files %v", files)
	}
}

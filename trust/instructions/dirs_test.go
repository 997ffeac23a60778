package instructions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// DirsToCreate names exactly the directories a commit of a new target creates.
func TestDirsToCreate(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, rel string
		want      []string
		err       string
	}{
		{"directory exists", "AGENTS.md", nil, ""},
		{"one missing", ".codex/AGENTS.md", []string{".codex"}, ""},
		{"two missing", "a/b/AGENTS.md", []string{"a", "a/b"}, ""},
		{"a file in the way", "file/sub/AGENTS.md", nil, "is not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target, err := ResolveTarget(filepath.Join(root, tc.rel))
			if err != nil {
				t.Fatal(err)
			}
			got, err := DirsToCreate(target)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, filepath.Join(root, w))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("DirsToCreate = %q, want %q", got, want)
			}
			// The commit creates them, with DirMode.
			p, err := PreviewApply(target, BlockID("pkg", "x"), "Be careful.\n", "")
			if err != nil {
				t.Fatal(err)
			}
			if err := Commit(p, false); err != nil {
				t.Fatal(err)
			}
			for _, d := range want {
				st, err := os.Stat(d)
				if err != nil || !st.IsDir() || st.Mode().Perm() != DirMode {
					t.Fatalf("%s after commit: %v %v", d, st, err)
				}
			}
			if again, _ := DirsToCreate(target); len(again) != 0 {
				t.Fatalf("after the commit, still to create: %q", again)
			}
		})
	}
}

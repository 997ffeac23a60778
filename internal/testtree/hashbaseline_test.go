package testtree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestHashBaselines(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		if err := os.WriteFile(p, []byte(fmt.Sprint("body ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	missing := append(files[:1:1], filepath.Join(dir, "missing"))
	_, noTool := exec.LookPath("sha256sum")
	for _, tc := range []struct {
		name     string
		baseline func(tb testing.TB, files []string)
	}{
		{"HashFiles", HashFiles},
		{"Sha256sum", func(tb testing.TB, files []string) {
			if !Sha256sum(tb, files) && noTool == nil {
				t.Error("Sha256sum reported sha256sum missing though it is installed")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if runHelper(func(tb testing.TB) { tc.baseline(tb, files) }) {
				t.Error("readable files failed the baseline")
			}
			if tc.name == "Sha256sum" && noTool != nil {
				t.Skip("sha256sum is not installed: nothing runs that could fail")
			}
			if !runHelper(func(tb testing.TB) { tc.baseline(tb, missing) }) {
				t.Error("a missing file did not fail the baseline")
			}
		})
	}
}

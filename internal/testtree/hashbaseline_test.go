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
			if Fails(func(tb testing.TB) { tc.baseline(tb, files) }) {
				t.Error("readable files failed the baseline")
			}
			if tc.name == "Sha256sum" && noTool != nil {
				t.Skip("sha256sum is not installed: nothing runs that could fail")
			}
			if !Fails(func(tb testing.TB) { tc.baseline(tb, missing) }) {
				t.Error("a missing file did not fail the baseline")
			}
		})
	}
}

// TestAgainstHashing: a benchmark measured against the baselines reports its ratios and
// times per iteration under its own name, the program's only where it is installed, and
// runs what it measures once per iteration after a first warming run.
func TestAgainstHashing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark for its full benchmark time")
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, []byte("body"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := 0
	res := testing.Benchmark(func(b *testing.B) {
		runs = 0
		AgainstHashing(b, "noop", []string{file}, func() { runs++ })
	})
	if res.N == 0 || runs != res.N+1 {
		t.Errorf("%d runs over %d iterations, want one per iteration and one first", runs, res.N)
	}
	_, noTool := exec.LookPath("sha256sum")
	for metric, want := range map[string]bool{
		"noop/sha256": true, "noop-ms/op": true, "sha256-ms/op": true,
		"noop/sha256sum": noTool == nil, "sha256sum-ms/op": noTool == nil,
	} {
		if _, got := res.Extra[metric]; got != want {
			t.Errorf("metric %s reported %v, want %v (all: %v)", metric, got, want, res.Extra)
		}
	}
}

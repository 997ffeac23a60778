package review

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

const manifest = `{"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":"p"}`

func roots(res *Result) []string {
	var out []string
	for _, p := range res.Packages {
		out = append(out, p.Root)
	}
	return out
}

func TestDiscovery(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "b", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "a", "x", "y", "plugin.json"), manifest)
	// A package root is never searched for further packages.
	loadertest.WriteFile(t, filepath.Join(dir, "b", "nested", "plugin.json"), manifest)
	// Depth 5 is beyond the search bound of 4.
	loadertest.WriteFile(t, filepath.Join(dir, "d1", "d2", "d3", "d4", "d5", "plugin.json"), manifest)
	// Symlinked directories are not followed while searching.
	if err := os.Symlink(filepath.Join(dir, "b"), filepath.Join(dir, "c-link")); err != nil {
		t.Fatal(err)
	}
	res := mustOpen(t, Options{}, dir)
	got := roots(res)
	want := []string{filepath.Join(dir, "a", "x", "y"), filepath.Join(dir, "b")}
	if len(got) != len(want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	for i := range want {
		if filepath.Base(got[i]) != filepath.Base(want[i]) {
			t.Fatalf("found %v, want %v (stable order)", got, want)
		}
	}
	for _, p := range res.Packages {
		if p.Format != model.FormatAgentPlugins {
			t.Fatalf("format %q", p.Format)
		}
	}
}

func TestMissingPathIsAnError(t *testing.T) {
	_, err := Open(Options{}, filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestNothingFound(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "notes.txt"), "hello")
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 0 || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "no-packages" {
		t.Fatalf("packages %d, diagnostics %+v", len(res.Packages), res.Diagnostics)
	}
}

func TestUnrecognizedFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "notes.txt")
	loadertest.WriteFile(t, f, "hello")
	res := mustOpen(t, Options{}, f)
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "unrecognized-source" {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
}

// A Dalo package directory (the path reports print) can be given on its own: it is loaded
// with its source, so its references resolve, and reported alone.
func TestDaloPackageDirectoryAsSource(t *testing.T) {
	res := mustOpen(t, Options{}, "../examples/dalo/security-review/plugins/guardrails")
	if len(res.Packages) != 1 || res.Packages[0].Name != "guardrails" {
		t.Fatalf("packages: %d %+v", len(res.Packages), res.Diagnostics)
	}
	for _, r := range res.Packages[0].Dependencies {
		if r.Ref == "plugin:base" && r.Status != "resolved" {
			t.Fatalf("a same-source dependency did not resolve: %+v", r)
		}
	}
}

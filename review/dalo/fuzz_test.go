package dalo

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzPluginTOML feeds arbitrary bytes to the manifest parser and, when they parse, to
// the whole loader: it must never panic, hang or read past the limits.
func FuzzPluginTOML(f *testing.F) {
	for _, glob := range []string{"testdata/package-schema/*.toml", "testdata/bad/*.toml", "../../examples/dalo/design-review/plugins/*/PLUGIN.toml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	dir := f.TempDir()
	pkg := filepath.Join(dir, "plugins", "design-review")
	if err := os.CopyFS(dir, os.DirFS(exampleSource)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _, diags := parseManifest(data, "PLUGIN.toml")
		if m == nil && len(diags) == 0 {
			t.Fatal("rejected without a diagnostic")
		}
		if m == nil {
			return
		}
		if err := os.WriteFile(filepath.Join(pkg, "PLUGIN.toml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range Load(dir, Options{}) {
			for _, c := range p.Components {
				if c.Contract != nil && c.Contract.MustDigest() == "" {
					t.Fatalf("%s: contract cannot be serialized", c.ID)
				}
			}
		}
	})
}

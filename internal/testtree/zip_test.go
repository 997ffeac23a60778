package testtree

import (
	"archive/zip"
	"io"
	"path/filepath"
	"testing"
)

func TestZip(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"manifest.json": "{}", "server/index.js": "#!/usr/bin/env node\n"}
	WriteFiles(t, dir, files)
	out := filepath.Join(t.TempDir(), "b.mcpb")
	Zip(t, dir, out)
	r, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File) != len(files) {
		t.Errorf("%d entries, want %d", len(r.File), len(files))
	}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if want, ok := files[f.Name]; !ok || err != nil || string(b) != want || f.Method != zip.Deflate {
			t.Errorf("%s: %q, %v, method %d; want %q deflated", f.Name, b, err, f.Method, want)
		}
		if exec := f.Mode()&0o100 != 0; exec != (f.Name == "server/index.js") {
			t.Errorf("%s: mode %v: the exec bit must be kept as written", f.Name, f.Mode())
		}
	}
	if !Fails(func(tb testing.TB) { Zip(tb, filepath.Join(dir, "missing"), filepath.Join(t.TempDir(), "x.zip")) }) {
		t.Error("a missing folder did not fail Zip")
	}
}

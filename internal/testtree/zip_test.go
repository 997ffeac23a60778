package testtree

import (
	"archive/zip"
	"io"
	"path/filepath"
	"testing"
)

func TestZip(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, sampleFiles)
	out := filepath.Join(t.TempDir(), "p.mcpb")
	Zip(t, dir, out)
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != len(sampleFiles) {
		t.Errorf("%d entries, want one per file (%d)", len(zr.File), len(sampleFiles))
	}
	for _, zf := range zr.File {
		want, ok := sampleFiles[zf.Name]
		if !ok {
			t.Errorf("entry %q is not a file of the folder", zf.Name)
			continue
		}
		if zf.Method != zip.Deflate {
			t.Errorf("%s: method %d, want deflate", zf.Name, zf.Method)
		}
		wantExec := zf.Name == "bin/run"
		if exec := zf.Mode().Perm()&0o100 != 0; exec != wantExec {
			t.Errorf("%s: mode %v, executable %v, want %v", zf.Name, zf.Mode(), exec, wantExec)
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", zf.Name, got, err, want)
		}
	}
	if Fails(func(tb testing.TB) { Zip(tb, filepath.Join(dir, "missing"), filepath.Join(t.TempDir(), "x.zip")) }) == false {
		t.Error("Zip of a missing folder did not fail the test")
	}
}

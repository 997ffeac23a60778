package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSparse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(p, []byte("old bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	Sparse(t, p, 2<<30)
	st, err := os.Stat(p)
	if err != nil || st.Size() != 2<<30 {
		t.Fatalf("%s: %v, %v; want 2 GiB", p, st, err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 9)
	if _, err := f.Read(head); err != nil || string(head) != string(make([]byte, 9)) {
		t.Errorf("the old bytes are still there: %q, %v", head, err)
	}
	if !Fails(func(tb testing.TB) { Sparse(tb, filepath.Join(t.TempDir(), "no-such-folder", "f"), 1) }) {
		t.Error("a path that cannot be created did not fail Sparse")
	}
}

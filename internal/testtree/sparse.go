package testtree

import (
	"os"
	"testing"
)

// Sparse makes a file of size bytes at path that holds no data (a hole the file system
// does not store), for tests of limits a reader must refuse without reading. A file
// system that cannot size the file skips the test; a path that cannot be created fails it.
func Sparse(t testing.TB, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a sparse file of %d bytes at %s: %v", size, path, err)
	}
}

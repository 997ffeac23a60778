package boundedread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBoundedSizeFromFstat reads a file whose size fstat may have reported before it
// changed: the result is always the file's bytes as they are (up to the limit), whether
// the read that sees the end is skipped (the size matched) or needed (it did not).
func TestReadBoundedSizeFromFstat(t *testing.T) {
	content := "0123456789abcdef"
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		size, max int64
		want      string
	}{
		{"size as fstat said", 16, 100, content},
		{"grew since fstat", 4, 100, content},
		{"shrank since fstat", 40, 100, content},
		{"grew past the limit", 4, 10, content[:11]}, // max+1 bytes: the caller reports it
		{"empty per fstat", 0, 100, content},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := Read(f, tc.size, tc.max)
			if err != nil || string(got) != tc.want {
				t.Fatalf("Read(size %d, max %d) = %q, %v; want %q", tc.size, tc.max, got, err, tc.want)
			}
		})
	}
	// A file larger than one read's worth is read to its end.
	big := strings.Repeat("x", 3<<20)
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := Read(f, 1<<20, 8<<20)
	if err != nil || len(got) != len(big) {
		t.Fatalf("read %d of %d bytes: %v", len(got), len(big), err)
	}
}

//go:build (linux || darwin || freebsd) && !vouch_osroot

package fsguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
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
			fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			got, err := readBounded(fileHandle(fd), tc.size, tc.max)
			if err != nil || string(got) != tc.want {
				t.Fatalf("readBounded(size %d, max %d) = %q, %v; want %q", tc.size, tc.max, got, err, tc.want)
			}
		})
	}
	// A file larger than one read's worth is read to its end.
	big := strings.Repeat("x", 3<<20)
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	got, err := readBounded(fileHandle(fd), 1<<20, 8<<20)
	if err != nil || len(got) != len(big) {
		t.Fatalf("read %d of %d bytes: %v", len(got), len(big), err)
	}
}

package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBounded reads files around the limit: up to it they come back whole, past it
// they are refused, and the buffer sized from fstat changes nothing of that.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		size, limit int
		ok          bool
	}{{0, 10, true}, {9, 10, true}, {10, 10, true}, {11, 10, false}, {5000, 4096, false}, {70000, 1 << 20, true}} {
		p := filepath.Join(dir, "f")
		want := strings.Repeat("x", tc.size)
		if err := os.WriteFile(p, []byte(want), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readBounded(p, int64(tc.limit))
		if tc.ok && (err != nil || string(got) != want) {
			t.Errorf("size %d, limit %d: %d bytes, %v", tc.size, tc.limit, len(got), err)
		}
		if !tc.ok && err == nil {
			t.Errorf("size %d, limit %d: read, want refused", tc.size, tc.limit)
		}
	}
}

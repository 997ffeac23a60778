package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
		got, err := ReadRegular(p, int64(tc.limit))
		if tc.ok && (err != nil || string(got) != want) {
			t.Errorf("size %d, limit %d: %d bytes, %v", tc.size, tc.limit, len(got), err)
		}
		if !tc.ok && err == nil {
			t.Errorf("size %d, limit %d: read, want refused", tc.size, tc.limit)
		}
	}
}

// TestEdit: a missing file is created with perm; an existing one keeps its mode and is
// replaced whole; returning the same bytes or ErrUnchanged writes nothing; an error from
// change leaves the file as it was; no temporary file is left behind.
func TestEdit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "settings.json")
	lock := filepath.Join(dir, "lock")
	add := func(suffix string) func([]byte, bool) ([]byte, error) {
		return func(old []byte, _ bool) ([]byte, error) { return append(old, suffix...), nil }
	}
	if err := Edit(p, lock, 1<<20, 0o640, add("a")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("new file: %v %v", st, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Edit(p, lock, 1<<20, 0o644, add("b")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if st, _ := os.Stat(p); string(got) != "ab" || st.Mode().Perm() != 0o600 {
		t.Fatalf("second edit: %q mode %v", got, st.Mode().Perm())
	}
	before, _ := os.Stat(p)
	for _, change := range []func([]byte, bool) ([]byte, error){
		func(old []byte, _ bool) ([]byte, error) { return old, nil },
		func([]byte, bool) ([]byte, error) { return nil, ErrUnchanged },
	} {
		if err := Edit(p, lock, 1<<20, 0o644, change); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := os.Stat(p); !os.SameFile(before, after) {
		t.Error("an edit that changed nothing replaced the file")
	}
	boom := errors.New("does not parse")
	if err := Edit(p, lock, 1<<20, 0o644, func([]byte, bool) ([]byte, error) { return []byte("x"), boom }); !errors.Is(err, boom) {
		t.Fatalf("change error: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "ab" {
		t.Errorf("a failed change wrote %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "sub", ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestEditSerializes: edits from many goroutines, each under the lock, lose none of each
// other's changes.
func TestEditSerializes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Edit(p, p+".lock", 1<<20, 0o600, func(old []byte, _ bool) ([]byte, error) { return append(old, 'x'), nil }); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, _ := os.ReadFile(p); len(got) != 16 {
		t.Errorf("%d of 16 edits kept", len(got))
	}
}

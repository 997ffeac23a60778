//go:build linux

package dirent

import (
	"encoding/binary"
	"io/fs"
	"testing"
)

// dirent builds one linux_dirent64 record.
func dirent(name string, typ byte) []byte {
	n := 19 + len(name) + 1
	n = (n + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint64(b[0:8], 1)
	binary.NativeEndian.PutUint16(b[16:18], uint16(n))
	b[18] = typ
	copy(b[19:], name)
	return b
}

func TestParseDirents(t *testing.T) {
	var buf []byte
	for _, e := range []struct {
		name string
		typ  byte
	}{{".", 4}, {"..", 4}, {"plugin.json", 8}, {"skills", 4}, {"link", 10}} {
		buf = append(buf, dirent(e.name, e.typ)...)
	}
	types := map[string]fs.FileMode{}
	collect := func(m map[string]fs.FileMode) func(string, fs.FileMode) bool {
		return func(n string, t fs.FileMode) bool { m[n] = t; return true }
	}
	if !Parse(buf, collect(types)) {
		t.Fatal("well-formed records refused")
	}
	if len(types) != 3 || types["plugin.json"] != 0 || types["skills"] != fs.ModeDir || types["link"] != fs.ModeSymlink {
		t.Fatalf("types %v", types)
	}
	// A record longer than its buffer, or too short to hold a header, is refused.
	for _, bad := range [][]byte{buf[:len(buf)-3], buf[:10], append(dirent("x", 8)[:16], 0xff, 0xff, 8)} {
		if Parse(bad, collect(map[string]fs.FileMode{})) {
			t.Errorf("truncated records accepted: %x", bad)
		}
	}
}

// FuzzParseDirents: any bytes give an answer, never a panic, and an accepted listing
// holds no "." or "..".
func FuzzParseDirents(f *testing.F) {
	f.Add(append(dirent("plugin.json", 8), dirent("skills", 4)...))
	f.Add([]byte{})
	f.Add(make([]byte, 19))
	f.Fuzz(func(t *testing.T, buf []byte) {
		Parse(buf, func(n string, _ fs.FileMode) bool {
			if n == "." || n == ".." || n == "" {
				t.Fatalf("%q listed", n)
			}
			return true
		})
	})
}

// TestTypeOf: every d_type the kernel writes maps to the bits Lstat gives that type.
func TestTypeOf(t *testing.T) {
	for _, tc := range []struct {
		dt   byte
		want fs.FileMode
	}{{8, 0}, {4, fs.ModeDir}, {10, fs.ModeSymlink}, {1, fs.ModeNamedPipe}, {12, fs.ModeSocket},
		{2, fs.ModeDevice | fs.ModeCharDevice}, {6, fs.ModeDevice}, {0, Unknown}, {14, Unknown}, {255, Unknown}} {
		if got := typeOf(tc.dt); got != tc.want {
			t.Errorf("typeOf(%d) = %v, want %v", tc.dt, got, tc.want)
		}
	}
}

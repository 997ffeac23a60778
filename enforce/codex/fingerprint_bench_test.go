package codex

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// benchTree is a plugin-sized tree: 20 folders of 25 files of 4 KiB (2 MiB in 500 files).
func benchTree(b *testing.B) string {
	root := b.TempDir()
	data := make([]byte, 4096)
	for d := 0; d < 20; d++ {
		for f := 0; f < 25; f++ {
			p := filepath.Join(root, fmt.Sprintf("dir%02d", d), fmt.Sprintf("file%02d.js", f))
			os.MkdirAll(filepath.Dir(p), 0o755)
			data[0] = byte(f)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

// BenchmarkFingerprint is the streaming fingerprint; the baselines in the same run are
// the in-memory construction the tests compare it with, and a bare SHA-256 of every
// file's bytes (what any content check has to read and hash anyway).
func BenchmarkFingerprint(b *testing.B) {
	root := benchTree(b)
	b.Run("streaming", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Fingerprint(root); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline-in-memory", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := memoryFingerprint(root); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline-sha256-of-files", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			h := sha256.New()
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					data, _ := os.ReadFile(p)
					h.Write(data)
				}
				return err
			})
			h.Sum(nil)
		}
	})
}

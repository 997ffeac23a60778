package instructions

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// benchTarget writes a target of about size bytes of distinct lines.
func benchTarget(b *testing.B, size int) Target {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString("line " + strconv.Itoa(i) + " of the user's own notes\n")
	}
	path := filepath.Join(b.TempDir(), "AGENTS.md")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return Target{Path: path}
}

// BenchmarkPreviewApply: the baseline is a 64 KiB target; the 15 MiB one is close to
// MaxTargetSize. Compare ns/op between the two in the same run.
func BenchmarkPreviewApply(b *testing.B) {
	for _, size := range []int{64 << 10, 15 << 20} {
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			tg := benchTarget(b, size)
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := PreviewApply(tg, "p#instruction:i", "Body text.\n", ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

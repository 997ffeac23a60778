package review

import (
	"testing"

	"vouch/internal/gen"
)

// BenchmarkHeavyPlugin loads one plugin both Claude Code and Codex read, with 230
// skills (gen.HeavyPlugin), in process: where the time of validate on such a plugin goes.
// The whole-process figure against sha256sum is internal/clibench's BenchmarkHeavyPlugin.
func BenchmarkHeavyPlugin(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.HeavyPlugin(dir, 230); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Open(Options{}, dir)
		if err != nil || len(res.Packages) != 2 {
			b.Fatalf("%v: %d packages", err, len(res.Packages))
		}
	}
}

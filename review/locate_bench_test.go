package review

import (
	"testing"
)

// BenchmarkLocate: one ref in a folder of 1,000 packages (the gate's SOURCE at its widest).
func BenchmarkLocate(b *testing.B) {
	src := generated(b, 1000)
	b.ResetTimer()
	for range b.N {
		res, err := Locate(Options{}, src, "plugin-0500#mcp-server:indexer")
		if err != nil || len(res.Packages) != 1 {
			b.Fatalf("%v, %d packages", err, len(res.Packages))
		}
	}
}

package review

import (
	"strings"
	"testing"

	"vouch/model"
)

// BenchmarkHeavyPlugin loads one plugin both Claude Code and Codex read, with 230
// skills (gen.HeavyPlugin), in process: where the time of validate on such a plugin goes.
// The whole-process figure against sha256sum is internal/clibench's BenchmarkHeavyPlugin.
func BenchmarkHeavyPlugin(b *testing.B) {
	dir := heavyPlugin(b, 230)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Open(Options{}, dir)
		if err != nil || len(res.Packages) != 2 {
			b.Fatalf("%v: %d packages", err, len(res.Packages))
		}
	}
}

// BenchmarkHeavyPluginPostPass is the part of BenchmarkHeavyPlugin's load that the
// post-pass takes (network risk, not-covered order), beside the load itself in the same
// run: the post-pass runs over packages already loaded.
func BenchmarkHeavyPluginPostPass(b *testing.B) {
	dir := heavyPlugin(b, 230)
	res := mustOpen(b, Options{}, dir)
	b.Run("post-pass", func(b *testing.B) {
		for b.Loop() {
			for _, p := range res.Packages {
				for _, c := range p.Components { // as loaded: without the capabilities added
					c.Capabilities = withoutRisk(c.Capabilities)
				}
				postPass(p)
			}
		}
	})
	b.Run("baseline=load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Open(Options{}, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func withoutRisk(caps []model.Capability) []model.Capability {
	out := caps[:0]
	for _, c := range caps {
		if c.Kind != model.CapRemoteCode && !(c.Kind == model.CapNetwork && strings.HasPrefix(c.Detail, "Reaches the network:")) {
			out = append(out, c)
		}
	}
	return out
}

package dalo

import "testing"

// BenchmarkLoadExamples measures loading the upstream example (1 package, 4 components)
// and the richer source (2 packages, 19 components); the ratio shows how cost scales.
func BenchmarkLoadExamples(b *testing.B) {
	for _, src := range []string{exampleSource, "../../examples/dalo/security-review"} {
		b.Run(src[len("../../examples/dalo/"):], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if len(Load(src, Options{})) == 0 {
					b.Fatal("no packages")
				}
			}
		})
	}
}

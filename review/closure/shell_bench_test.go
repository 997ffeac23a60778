package closure

import "testing"

// benchLine is a typical hook: a guard, a bundled script, a pipe and a fallback.
const benchLine = `command -v node >/dev/null || exit 0; cd "$ROOT" && node "$ROOT/hooks/check.js" --event pre | tee -a "$ROOT/log" 2>/dev/null || echo "check failed: $?" >&2`

// BenchmarkShellParsed is the parser-based classification of one hook line; its
// baseline, BenchmarkShellLexical, is the lexical split it replaced, in the same run.
func BenchmarkShellParsed(b *testing.B) {
	base := Process{Root: "/p", Vars: map[string]string{"ROOT": "/p"}}
	b.ReportAllocs()
	for b.Loop() {
		NotCoveredByShell(benchLine, base, nil)
	}
}

func BenchmarkShellLexical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		SplitShell(benchLine)
	}
}

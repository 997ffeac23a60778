package main

import (
	"io"
	"testing"

	"vouch/internal/gen"
)

// BenchmarkValidateHeavyInProcess: validate --json of gen.HeavyPlugin (one plugin both
// Claude Code and Codex read, 230 skills), the whole command in process (no process
// start), for profiling what the command does after start-up. The whole-process figure
// against sha256sum is internal/clibench's BenchmarkHeavyPlugin.
func BenchmarkValidateHeavyInProcess(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.HeavyPlugin(dir, 230); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	for b.Loop() {
		a := &app{stdout: io.Discard, stderr: io.Discard}
		if code := a.run([]string{"--home", home, "--no-config", "validate", "--json", dir}); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

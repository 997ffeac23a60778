package main

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkGuardInProcess: the guard's decision for one approved MCP call, in process
// (no process start): what the handler itself costs, for profiling. The whole-process
// figure against a minimal Go program is internal/clibench's BenchmarkGuardPreToolUse.
func BenchmarkGuardInProcess(b *testing.B) {
	w := newEnforceWorldB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out, errb bytes.Buffer
		a := &app{stdout: &out, stderr: &errb, stdin: strings.NewReader(mcpCall)}
		if code := a.run([]string{"--home", w.home, "hook", "claude-pre-tool-use"}); code != 0 {
			b.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
		}
	}
}

package ui

import (
	"runtime/debug"
	"testing"
)

// TestConsoleCollector: the console collects at GOGC=50 unless the user set GOGC.
func TestConsoleCollector(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", 50}, {"200", 100}} {
		debug.SetGCPercent(100)
		t.Setenv("GOGC", tc.gogc)
		consoleCollector()
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: GC percent %d, want %d", tc.gogc, got, tc.want)
		}
	}
}

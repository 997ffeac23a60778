package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestBatchCollector: validate --json collects at a fixed heap bound unless the user set
// GOGC (kept as it is) or GOMEMLIMIT (then GOGC=400 under the user's limit).
func TestBatchCollector(t *testing.T) {
	origPercent := debug.SetGCPercent(100)
	origLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(origPercent); debug.SetMemoryLimit(origLimit) })
	for _, tc := range []struct {
		gogc, limit string
		wantPercent int
		wantLimit   int64
	}{
		{"", "", -1, validateHeapLimit},
		{"50", "", 100, math.MaxInt64},
		{"", "1GiB", 400, math.MaxInt64},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.limit)
		batchCollector()
		if p := debug.SetGCPercent(100); p != tc.wantPercent {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, want %d", tc.gogc, tc.limit, p, tc.wantPercent)
		}
		if l := debug.SetMemoryLimit(math.MaxInt64); l != tc.wantLimit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: memory limit %d, want %d", tc.gogc, tc.limit, l, tc.wantLimit)
		}
	}
}

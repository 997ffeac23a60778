package testtree

import "testing"

var sink []byte

func TestAllocatedBy(t *testing.T) {
	mallocs, bytes := AllocatedBy(func() { sink = make([]byte, 1<<20) })
	if mallocs < 1 || bytes < 1<<20 {
		t.Errorf("a 1 MiB slice: %d allocations, %d bytes", mallocs, bytes)
	}
	// The count is of f's work alone, not of what ran before it.
	if _, bytes := AllocatedBy(func() {}); bytes >= 1<<20 {
		t.Errorf("nothing allocated: %d bytes counted", bytes)
	}
}

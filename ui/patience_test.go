package ui

import (
	"testing"
	"time"
)

// patience is how long an end-to-end test waits for the program to draw or to end: until
// shortly before the test binary's own deadline (-timeout). A program that never gets
// there fails with teatest's message; a slow or loaded machine (-race, parallel packages)
// never fails a test that waits for what it must see.
func patience(t testing.TB) time.Duration {
	if tt, ok := t.(*testing.T); ok {
		if deadline, ok := tt.Deadline(); ok {
			return time.Until(deadline) * 9 / 10
		}
	}
	return time.Hour
}

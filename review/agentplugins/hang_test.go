package agentplugins

import (
	"testing"
	"time"
)

// hangAfter is how long a hang detector waits: until shortly before the test binary's
// own deadline (-timeout), so a load that blocks fails with a message while a slow
// machine never does.
func hangAfter(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil // no deadline: wait as long as the load takes
	}
	return time.After(time.Until(deadline) * 9 / 10)
}

package testtree

import (
	"fmt"
	"testing"
	"time"
)

// nearDeadline is a test whose deadline is moments away and whose Fatalf only records
// the message, so the failure Returns reports can be read.
type nearDeadline struct {
	*testing.T
	fatal string
}

func (n *nearDeadline) Deadline() (time.Time, bool) {
	return time.Now().Add(20 * time.Millisecond), true
}

func (n *nearDeadline) Fatalf(format string, args ...any) { n.fatal = fmt.Sprintf(format, args...) }

func TestReturns(t *testing.T) {
	if got := Returns(t, "adding", func() int { return 40 + 2 }); got != 42 {
		t.Errorf("Returns = %d, want what f returned, 42", got)
	}
	near := &nearDeadline{T: t}
	release := make(chan struct{})
	defer close(release)
	got := Returns(near, "reading the pipe", func() string { <-release; return "read" })
	if got != "" || near.fatal != "reading the pipe blocked until 90% of the test timeout" {
		t.Errorf("a call that never returns: Returns = %q, failure %q", got, near.fatal)
	}
}

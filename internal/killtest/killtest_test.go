package killtest

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain runs the child mode the tests below start: "acker" acknowledges KILLTEST_ACKS
// steps, prints a line that is not an acknowledgement, and then waits to be killed.
func TestMain(m *testing.M) {
	Main(m, "KILLTEST_CHILD", map[string]func() int{"acker": acker})
}

func acker() int {
	n, _ := strconv.Atoi(os.Getenv("KILLTEST_ACKS"))
	for i := range n {
		Ack(fmt.Sprintf("step-%d", i))
	}
	fmt.Println("acknowledged step-99") // not an "ack " line: passed over
	time.Sleep(time.Hour)
	return 0
}

func TestKillReturnsEveryAcknowledgement(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, n := range []int{1, 3} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			c := Start(t, Rerun("KILLTEST_CHILD=acker", "KILLTEST_ACKS="+strconv.Itoa(n)))
			c.AwaitFirst(10 * time.Second)
			if c.Acked() == 0 {
				c.Kill()
				t.Fatal("AwaitFirst returned before the first acknowledgement")
			}
			for deadline := time.Now().Add(10 * time.Second); c.Acked() < n && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			var want []string
			for i := range n {
				want = append(want, fmt.Sprintf("step-%d", i))
			}
			if got := c.Kill(); !slices.Equal(got, want) {
				t.Fatalf("Kill() = %q, want %q", got, want)
			}
		})
	}
}

// TestKillEndsAChildThatNeverAcknowledges: a child killed before its first step (here, one
// that makes none) is ended all the same and has acknowledged nothing.
func TestKillEndsAChildThatNeverAcknowledges(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	c := Start(t, Rerun("KILLTEST_CHILD=acker", "KILLTEST_ACKS=0"))
	c.AwaitFirst(20 * time.Millisecond)
	if got := c.Kill(); len(got) != 0 {
		t.Fatalf("Kill() = %q, want no acknowledgements", got)
	}
	if c.cmd.ProcessState == nil || c.cmd.ProcessState.Success() {
		t.Fatalf("the child was not killed: %v", c.cmd.ProcessState)
	}
}

// TestUnknownChildMode: a child started with a mode its TestMain does not know exits 3
// and runs no test.
func TestUnknownChildMode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	cmd := Rerun("KILLTEST_CHILD=nosuchmode")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("exit %v (%v), want 3; output %q", cmd.ProcessState, err, out)
	}
	if !strings.Contains(string(out), "unknown child mode KILLTEST_CHILD=nosuchmode") {
		t.Fatalf("output %q does not name the unknown mode", out)
	}
}

// Package killtest holds what the crash tests of several packages share: a child process
// (the test binary run again in a child mode) acknowledges each step it has made durable
// with a line "ack NOTE" on its standard output, and the parent kills it with SIGKILL at a
// moment it chooses, then holds what survived to what was acknowledged. Only tests import
// it.
package killtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// Rerun is the test binary run again with env added to its environment and no test
// selected, so that its TestMain (Main) can pick a child mode from env.
func Rerun(env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Main is the TestMain of a package with child modes: when the environment variable
// env names one of modes, the process runs it and exits with its status (an unknown name
// exits 3); when env is unset it runs the tests.
func Main(m *testing.M, env string, modes map[string]func() int) {
	name := os.Getenv(env)
	if name == "" {
		os.Exit(m.Run())
	}
	run, ok := modes[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown child mode %s=%s\n", env, name)
		os.Exit(3)
	}
	os.Exit(run())
}

// Ack is the child's side: it tells the parent that the step named note is durable.
func Ack(note string) {
	fmt.Printf("ack %s\n", note)
}

// Child is a started child process and the notes it has acknowledged so far.
type Child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the child's output has been read to its end
	mu   sync.Mutex    // guards acks
	acks []string
}

// Start starts cmd, whose Stdout must be unset, and collects the note of every "ack NOTE"
// line it prints; other lines are passed over. A failure to start ends the test.
func Start(t testing.TB, cmd *exec.Cmd) *Child {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Child{cmd: cmd, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if note, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
				c.mu.Lock()
				c.acks = append(c.acks, note)
				c.mu.Unlock()
			}
		}
		close(c.done)
	}()
	return c
}

// Acked is how many steps the child has acknowledged so far.
func (c *Child) Acked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.acks)
}

// AwaitFirst waits until the child has acknowledged a step, so it is in its loop, or
// until limit has passed (a child slow to start is then killed wherever it is).
func (c *Child) AwaitFirst(limit time.Duration) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Microsecond) {
		if c.Acked() > 0 {
			return
		}
	}
}

// Kill kills the child with SIGKILL (on Windows, TerminateProcess), waits for it, and
// returns every note it acknowledged, in the order it printed them.
func (c *Child) Kill() []string {
	c.cmd.Process.Kill()
	<-c.done
	c.cmd.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.acks...)
}

package goldenfile

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

func TestFirstDifference(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		line       int
		la, lb     string
	}{
		{"first line", "a\nb\n", "x\nb\n", 1, "a\n", "x\n"},
		{"a later line", "a\nb\nc\n", "a\nb\nd\n", 3, "c\n", "d\n"},
		{"only the line break", "a\r\nb\n", "a\nb\n", 1, "a\r\n", "a\n"},
		{"one is longer", "a\nb\n", "a\n", 2, "b\n", ""},
		{"no final line break", "a\nb", "a\nb\n", 2, "b", "b\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, la, lb := firstDifference([]byte(tc.a), []byte(tc.b))
			if line != tc.line || string(la) != tc.la || string(lb) != tc.lb {
				t.Fatalf("firstDifference = %d, %q, %q; want %d, %q, %q", line, la, lb, tc.line, tc.la, tc.lb)
			}
		})
	}
}

// recorder is a testing.TB that records failures instead of ending the test.
type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, "error: "+fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.msgs = append(r.msgs, "fatal: "+fmt.Sprintf(format, args...))
	runtime.Goexit() // as testing.T's Fatalf: Check must not go on after it
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%v", args...) }

// check runs Check on its own goroutine, which a fatal failure ends.
func check(r *recorder, path, got string, update bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(r, path, []byte(got), update, "run with -update")
	}()
	<-done
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "view.txt")

	r := &recorder{TB: t}
	check(r, path, "one\n", false)
	if len(r.msgs) != 1 || !strings.HasPrefix(r.msgs[0], "fatal: ") || !strings.Contains(r.msgs[0], "run with -update") {
		t.Fatalf("a missing golden file gave %q", r.msgs)
	}

	r = &recorder{TB: t}
	check(r, path, "one\ntwo\n", true)
	if data := testtree.ReadFile(t, path); data != "one\ntwo\n" || len(r.msgs) != 0 {
		t.Fatalf("update wrote %q and gave %q", data, r.msgs)
	}

	r = &recorder{TB: t}
	check(r, path, "one\ntwo\n", false)
	if len(r.msgs) != 0 {
		t.Fatalf("the same bytes gave %q", r.msgs)
	}

	r = &recorder{TB: t}
	check(r, path, "one\r\ntwo\n", false)
	if len(r.msgs) != 1 || !strings.HasPrefix(r.msgs[0], "error: ") || !strings.Contains(r.msgs[0], `line 1:`) || !strings.Contains(r.msgs[0], `"one\r\n"`) {
		t.Fatalf("a changed line break gave %q", r.msgs)
	}
}

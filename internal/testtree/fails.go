package testtree

import (
	"runtime"
	"testing"
)

// Fails reports whether fn fails the test it is handed: the tests of test helpers (these,
// internal/schematest's) use it to see a helper refuse bad input. fn gets a testing.TB
// whose Fatal and Fatalf end fn's goroutine, as testing.T's do; anything else it calls on
// that TB other than Helper panics, so a helper cannot pass by calling something Fails
// does not record.
func Fails(fn func(t testing.TB)) bool {
	f := &fatalTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.failed
}

// fatalTB records a fatal failure and stops the goroutine it happened in.
type fatalTB struct {
	testing.TB
	failed bool
}

func (f *fatalTB) Helper()               {}
func (f *fatalTB) Fatal(...any)          { f.failed = true; runtime.Goexit() }
func (f *fatalTB) Fatalf(string, ...any) { f.failed = true; runtime.Goexit() }

package main

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"
)

// checkedWriter remembers the first error writing standard output failed with. Printers
// write with fmt.Fprint and go on; a report cut short by a full disk or a closed pipe
// must still end in an error exit that names where the write went, never exit 0.
type checkedWriter struct {
	w    io.Writer
	name string
	err  error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// checkStdout wraps a.stdout unless it is a terminal (the console draws on it directly,
// and a terminal does not fill up).
func (a *app) checkStdout() *checkedWriter {
	name := "standard output"
	if f, ok := a.stdout.(*os.File); ok {
		if term.IsTerminal(f.Fd()) {
			return nil
		}
		name = "standard output (" + f.Name() + ")"
	}
	c := &checkedWriter{w: a.stdout, name: name}
	a.stdout = c
	return c
}

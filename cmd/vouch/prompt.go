package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// stdinIsTerminal reports whether stdin is a terminal a person can answer on.
func (a *app) stdinIsTerminal() bool {
	f, ok := a.stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// ask prints a yes/no question and reports whether the person typed y or yes.
func (a *app) ask(q string) bool {
	fmt.Fprint(a.stdout, q)
	// Byte by byte: a buffered reader could swallow the answer to the next question.
	var line []byte
	buf := make([]byte, 1)
	for len(line) < 1024 {
		n, err := a.stdin.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			line = append(line, buf[0])
		}
		if err != nil {
			break
		}
	}
	ans := strings.ToLower(strings.TrimSpace(string(line)))
	return ans == "y" || ans == "yes"
}

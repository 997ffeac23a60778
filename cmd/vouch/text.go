package main

import (
	"os"
	"path/filepath"
	"strings"

	"vouch/ui/display"
)

// safe makes package text harmless on a terminal. Every string that came from a package
// passes through it before it is printed.
func safe(s string) string { return display.Line(s) }

// rel shortens absolute paths under the working directory for reading.
func rel(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return p
}

package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's --help shows an example of running it, as gh's and golangci-lint's do.
func TestEveryCommandHasAnExample(t *testing.T) {
	a := &app{stdout: &strings.Builder{}, stderr: &strings.Builder{}, stdin: strings.NewReader("")}
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		n++
		if !strings.Contains(c.Example, "vouch ") {
			t.Errorf("%q has no example in its help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCommand())
	if n < 15 {
		t.Errorf("walked %d commands; the tree is not what this test expects", n)
	}
}

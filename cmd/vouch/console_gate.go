//go:build vouch_gate

package main

import "fmt"

// The gate build (go build -tags vouch_gate, shipped as vouch-gate) is vouch without the
// console: every command but the interactive review, and none of the console's markdown
// and highlighting libraries, whose package initialization is most of vouch's start-up.
// A harness that runs `check` before every tool call pays that start-up each time.

// runConsole prints the status report, what review prints without a terminal, and says
// where the console is.
func (a *app) runConsole(sources []string, home string) error {
	fmt.Fprintln(a.stderr, "vouch-gate has no console (it is vouch built for harnesses and CI); this is the status report. Run vouch review for the console.")
	_, _, err := statusData(&statusOptions{app: a, reportFlags: reportFlags{sourceID: "validation", format: "text"}}, sources)
	return err
}

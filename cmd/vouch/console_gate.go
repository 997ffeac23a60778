//go:build vouch_gate

package main

// The gate build (go build -tags vouch_gate, shipped as vouch-gate) is vouch without the
// console: every command but the interactive review, and none of the console's markdown
// and highlighting libraries, whose package initialization is most of vouch's start-up.
// A harness that runs `check` before every tool call pays that start-up each time.

func (a *app) runConsole(sources []string, home string) error {
	return a.fail(2, "no-console", "This is vouch-gate, the build of vouch without the console (for harnesses and CI); run vouch review for the console, or redirect stdout to get the status report.")
}

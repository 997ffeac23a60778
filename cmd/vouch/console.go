//go:build !vouch_gate

package main

import (
	"os"

	tea "charm.land/bubbletea/v2"

	"vouch/ui"
)

// runConsole opens the review console on the sources.
func (a *app) runConsole(sources []string, home string) error {
	progOpts := ui.ProgramOptions(os.Getenv)
	progOpts = append(progOpts, tea.WithInput(a.stdin), tea.WithOutput(a.stdout))
	if err := ui.Run(ui.Options{Sources: sources, Home: home, Enforced: enforcedClients(home)}, progOpts...); err != nil {
		return a.fail(1, "console", "The console stopped: "+err.Error()+".")
	}
	return nil
}

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
	roots, err := signingRoots(home)
	if err != nil {
		return a.fail(2, "signing-roots", errSentence(err.Error()))
	}
	if err := ui.Run(ui.Options{Sources: sources, Home: home, SignatureRoots: roots, Enforced: enforcedClients(home), Exclude: a.exclude, ClaudeSkillsDir: a.loadBase.ClaudeSkillsDir}, progOpts...); err != nil {
		return a.fail(1, "console", "The console stopped: "+err.Error()+".")
	}
	return nil
}

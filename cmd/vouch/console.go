//go:build !vouch_gate

package main

import (
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

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
	opts := ui.Options{Sources: sources, Home: home, SignatureRoots: roots, Enforced: enforcedClients(home), Exclude: a.exclude, ClaudeSkillsDir: a.loadBase.ClaudeSkillsDir}
	if f, ok := a.stdout.(*os.File); ok {
		// The size now, so the first frame is drawn at it (the runtime sends it again).
		if w, h, err := term.GetSize(f.Fd()); err == nil {
			opts.Width, opts.Height = w, h
		}
	}
	if err := ui.Run(opts, progOpts...); err != nil {
		return a.fail(1, "console", "The console stopped: "+err.Error()+".")
	}
	return nil
}

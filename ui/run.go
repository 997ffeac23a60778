package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// ProgramOptions returns the program options the environment asks for. NO_COLOR with
// any non-empty value turns colour off (no-color.org); Bubble Tea's own detection only
// honours values strconv.ParseBool accepts, so vouch sets the profile itself.
func ProgramOptions(getenv func(string) string) []tea.ProgramOption {
	var opts []tea.ProgramOption
	if getenv("NO_COLOR") != "" {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return opts
}

// Run starts the console and blocks until the person quits.
func Run(opts Options, progOpts ...tea.ProgramOption) error {
	_, err := tea.NewProgram(New(opts), progOpts...).Run()
	return err
}

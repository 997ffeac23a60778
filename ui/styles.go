package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Styles is the console's one set of styles, built from the terminal background. Colour
// never carries meaning alone: every status also has a glyph and a word.
type Styles struct {
	IsDark bool

	App, Header, HeaderDim, Title lipgloss.Style
	Pane, PaneFocused             lipgloss.Style
	Cursor, Package, Component    lipgloss.Style
	Dim, Bold, Label              lipgloss.Style
	TabActive, TabInactive        lipgloss.Style
	Good, Warn, Bad, Info         lipgloss.Style
	Added, Removed, Hunk, Gutter  lipgloss.Style
	// AddedWord and RemovedWord mark the words that changed inside a changed line:
	// reversed as well as coloured, so NO_COLOR still shows them.
	AddedWord, RemovedWord lipgloss.Style
	Token                  lipgloss.Style // escaped hidden characters
	// Match and CursorMatch mark filter matches in tree rows (the selected row is in
	// reverse video already). Underlined as well as coloured: NO_COLOR keeps underline.
	// Plain SGR, not lipgloss: lipgloss underlines rune by rune, one sequence each.
	Match, CursorMatch  ansi.Style
	Dialog, DialogTitle lipgloss.Style
	Flash, Error        lipgloss.Style
	Help                help.Styles
}

// NewStyles builds the styles for a dark or light background.
func NewStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	accent := c("#5A3FC0", "#A48BFF")
	muted := c("#6B6B6B", "#8A8A8A")
	border := c("#B8B8B8", "#4A4A4A")
	good := c("#1A7F37", "#56D364")
	warn := c("#9A6700", "#E3B341")
	bad := c("#CF222E", "#FF7B72")
	info := c("#0969DA", "#79C0FF")

	s := Styles{IsDark: isDark}
	s.App = lipgloss.NewStyle()
	s.Header = lipgloss.NewStyle().Bold(true).Foreground(accent)
	s.HeaderDim = lipgloss.NewStyle().Foreground(muted)
	s.Title = lipgloss.NewStyle().Bold(true)
	s.Pane = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(border)
	s.PaneFocused = s.Pane.BorderForeground(accent)
	s.Cursor = lipgloss.NewStyle().Reverse(true).Bold(true)
	s.Package = lipgloss.NewStyle().Bold(true)
	s.Component = lipgloss.NewStyle()
	s.Dim = lipgloss.NewStyle().Foreground(muted)
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Label = lipgloss.NewStyle().Foreground(muted)
	s.TabActive = lipgloss.NewStyle().Bold(true).Underline(true).Foreground(accent)
	s.TabInactive = lipgloss.NewStyle().Foreground(muted)
	s.Good = lipgloss.NewStyle().Foreground(good)
	s.Warn = lipgloss.NewStyle().Foreground(warn)
	s.Bad = lipgloss.NewStyle().Foreground(bad).Bold(true)
	s.Info = lipgloss.NewStyle().Foreground(info)
	s.Added = lipgloss.NewStyle().Foreground(good)
	s.Removed = lipgloss.NewStyle().Foreground(bad)
	s.AddedWord = s.Added.Reverse(true)
	s.RemovedWord = s.Removed.Reverse(true)
	s.Hunk = lipgloss.NewStyle().Foreground(info)
	s.Gutter = lipgloss.NewStyle().Foreground(muted)
	s.Token = lipgloss.NewStyle().Foreground(warn).Bold(true)
	s.Match = ansi.Style{}.Bold().Underline(true).ForegroundColor(warn)
	s.CursorMatch = ansi.Style{}.Reverse(true).Bold().Underline(true)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(warn).Padding(0, 1)
	s.DialogTitle = lipgloss.NewStyle().Bold(true).Foreground(warn)
	s.Flash = lipgloss.NewStyle().Foreground(good)
	s.Error = lipgloss.NewStyle().Foreground(bad).Bold(true)
	s.Help = help.DefaultStyles(isDark)
	return s
}

// inputStyles are the text input styles: a steady cursor, since a blinking one redraws
// the screen twice a second for nothing.
func inputStyles(isDark bool) textinput.Styles {
	st := textinput.DefaultStyles(isDark)
	st.Cursor.Blink = false
	return st
}

// token styles one escaped hidden character or sequence.
func (s *Styles) token(t string) string { return s.Token.Render(t) }

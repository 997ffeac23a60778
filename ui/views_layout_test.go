package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The views this file's neighbours add keep the layout's promise at every size: exactly
// the window's height, no line wider than the window: the file view cut, wrapped, with
// its file list, and the marketplace table.
func TestNewViewsLayoutInvariants(t *testing.T) {
	states := []struct {
		model func(t *testing.T) *Model
		ref   string
		keys  []string
	}{
		{func(t *testing.T) *Model { return hookViewModel(t, 100, 30) }, hookScriptRef, []string{"f", "l", "l"}},
		{func(t *testing.T) *Model { return hookViewModel(t, 100, 30) }, hookScriptRef, []string{"f", "w"}},
		{func(t *testing.T) *Model { return hookViewModel(t, 100, 30) }, hookScriptRef, []string{"f", "o", "j"}},
		{func(t *testing.T) *Model { return hookViewModel(t, 100, 30) }, hookInlineRef, []string{"f"}},
		{func(t *testing.T) *Model { return marketModel(t, nil) }, marketRef, []string{"M", "j"}},
	}
	for _, st := range states {
		m := st.model(t)
		selectRef(t, m, st.ref)
		press(t, m, st.keys...)
		for w := MinWidth; w <= 220; w += 13 {
			for h := MinHeight; h <= 70; h += 9 {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				lines := strings.Split(m.View().Content, "\n")
				if len(lines) != h {
					t.Fatalf("%s %v %dx%d: %d lines", st.ref, st.keys, w, h, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%s %v %dx%d: line %d is %d wide: %q", st.ref, st.keys, w, h, i, lw, ansi.Strip(l))
					}
				}
			}
		}
	}
}

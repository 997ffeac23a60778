package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Given the terminal's size at start, the first frame, drawn before any message and so
// before loading has begun, is the console's layout saying it is loading: the header
// with the sources, the loading body and the way out.
func TestFirstFrameBeforeAnyMessage(t *testing.T) {
	m := New(Options{Sources: []string{"some/source"}, Home: t.TempDir(), Width: 100, Height: 30})
	v := ansi.Strip(m.View().Content)
	wantShown(t, "first frame", v, "vouch review", "some/source", "loading…", "Loading packages…", "q")
	if lines := strings.Split(v, "\n"); len(lines) != 30 {
		t.Errorf("first frame has %d lines, want the terminal's 30", len(lines))
	}
	// Without a size the frame is the bare word, as before.
	if v := ansi.Strip(New(Options{Sources: []string{"x"}, Home: t.TempDir()}).View().Content); v != "Loading…" {
		t.Errorf("sizeless first frame %q", v)
	}
}

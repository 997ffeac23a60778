package ui

import (
	"strings"
	"testing"
)

// Error messages wrap package text (refs, file names); the flash line escapes them at the
// sink, so no error path can put a raw escape sequence on the screen.
func TestFlashEscapesPackageText(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 100, 30)
	m.setFlash("cannot approve: f\x1b]52;c;UFdORUQ=\x07\x1b[2J changed on disk", true)
	v := m.View().Content
	for _, bad := range []string{"\x1b]52", "\x07", "\x1b[2J"} {
		if strings.Contains(v, bad) {
			t.Fatalf("raw %q reached the view", bad)
		}
	}
	if !strings.Contains(m.flash, "␛") {
		t.Fatalf("flash lost its visible token: %q", m.flash)
	}
}

package ui

import (
	"strings"
	"testing"

	"vouch/model"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestEnforcedShown: a package a client enforces says so on its tree row and in its
// Overview, with the client's id; the others, and a console told nothing, say nothing.
func TestEnforcedShown(t *testing.T) {
	pkgs := fixturePackages()
	first := pkgs[0]
	enforced := func(p *model.Package) []string {
		if p == first {
			return []string{"claude-code", "codex"}
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		enforced func(*model.Package) []string
		want     int // times the words appear: the tree row and the Overview
	}{
		{"told", enforced, 2},
		{"not told", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadedConsole(t, Options{Sources: []string{"examples"}, Home: t.TempDir(), Packages: pkgs, Enforced: tc.enforced}, 160, 48)
			out := downsample(t, m.View().Content, colorprofile.Ascii)
			if got := strings.Count(ansi.Strip(out), "enforced (claude-code, codex)"); got != tc.want {
				t.Fatalf("%q appears %d times, want %d:\n%s", "enforced (claude-code, codex)", got, tc.want, out)
			}
			if tc.enforced != nil {
				golden.RequireEqual(t, []byte(out))
			}
		})
	}
}

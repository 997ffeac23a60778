package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/trust"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

const daloExample = "../examples/dalo/design-review"

// loadExample opens the Dalo example from disk, through review.Open as vouch review does.
func loadExample(t *testing.T) *Model {
	t.Helper()
	return diskModel(t, 100, 30, daloExample)
}

// The round trip: the example's recommended instruction, activated with i in the
// file a provider alias names and removed with x, leaves that file byte for byte as it was.
func TestRoundTripProviderAliases(t *testing.T) {
	cases := []struct {
		alias, env, file, before string
	}{
		{"codex", "CODEX_HOME", "AGENTS.md", "# Global rules\r\n\r\nBe brief.\r\n"},
		{"claude", "CLAUDE_CONFIG_DIR", "CLAUDE.md", "\ufeffUse British spelling.\n\n\n<!-- dalo:start other -->\nkept\n<!-- dalo:end other -->"},
	}
	for _, tc := range cases {
		t.Run(tc.alias, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "provider home")
			t.Setenv("CODEX_HOME", filepath.Join(t.TempDir(), "unused-codex"))
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "unused-claude"))
			t.Setenv(tc.env, dir)
			target := filepath.Join(dir, tc.file)
			writeFile(t, target, tc.before)
			if err := os.Chmod(target, 0o600); err != nil {
				t.Fatal(err)
			}

			m := loadExample(t)
			selectRef(t, m, instrRef)
			if a := authIn(t, m, instrRef); a != model.Unreviewed {
				t.Fatalf("recommended instruction starts %s, want unreviewed", a)
			}
			askTarget(t, m, tc.alias)
			if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Target.Path != target {
				t.Fatalf("%s did not resolve to %s: %+v", tc.alias, target, m.prompt())
			}
			if !strings.Contains(screen(m), "every session of this user") {
				t.Errorf("the preview does not say what the alias applies to:\n%s", screen(m))
			}
			press(t, m, "y")
			applied := testtree.ReadFile(t, target)
			if !strings.Contains(applied, "<!-- vouch:start design-review#instruction:design-context -->") ||
				!strings.Contains(applied, "Preserve the project's established design language.") ||
				!strings.HasPrefix(applied, tc.before) {
				t.Fatalf("after i: %q", applied)
			}
			if got := activeTargets(t, m, instrRef); len(got) != 1 || got[0] != target {
				t.Fatalf("ledger activations %v", got)
			}

			press(t, m, "x")
			if m.prompt() == nil || m.prompt().preview == nil || m.prompt().preview.Conflict != nil {
				t.Fatalf("x did not preview a clean removal: %+v", m.prompt())
			}
			press(t, m, "y")
			if got := testtree.ReadFile(t, target); got != tc.before {
				t.Fatalf("after x the file is\n%q\nwant\n%q", got, tc.before)
			}
			if st, err := os.Stat(target); err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("mode after the round trip: %v %v", st.Mode(), err)
			}
			d := decisions(t, m)
			if len(d) != 2 || d[0].Action != trust.ActionRevoke || d[1].Action != trust.ActionApprove || d[0].Target != target || d[1].Target != target {
				t.Fatalf("ledger: %+v", d)
			}
			if a := ledgerAuth(t, m, instrRef); a != model.Revoked {
				t.Fatalf("ledger status %s after removal", a)
			}
		})
	}
}

// The same round trip through a running program: keys go in as a person types them.
func TestProgramInstructionRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CODEX_HOME", dir)
	target := filepath.Join(dir, "AGENTS.md")
	before := "Mine.\n"
	writeFile(t, target, before)
	m := New(Options{Sources: []string{daloExample}, Home: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitFor := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(patience(t)))
	}
	waitFor("instruction:design-context")
	typeKeys(tm, "G", "i")
	waitFor("Where should this instruction apply?")
	tm.Type("codex")
	typeKeys(tm, "enter")
	waitFor("y write this change")
	typeKeys(tm, "y")
	waitFor("x remove instruction")
	typeKeys(tm, "x")
	waitFor("(enter does nothing)") // the removal preview's footer
	typeKeys(tm, "enter", "y")
	waitFor("Removed design-review#instruction:design-context")
	typeKeys(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(patience(t))).(*Model)
	if got := testtree.ReadFile(t, target); got != before {
		t.Fatalf("file after the round trip %q, want %q", got, before)
	}
	if a := ledgerAuth(t, final, instrRef); a != model.Revoked {
		t.Fatalf("ledger %s", a)
	}
}

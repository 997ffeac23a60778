package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	instrSource = daloExample
	instrRef    = "design-review#instruction:design-context"
)

type listed struct {
	Instructions []struct {
		Ref, Target, State string
	} `json:"instructions"`
}

func listInstructions(t *testing.T, home string) listed {
	t.Helper()
	code, out, errs := runVouch(t, home, "instructions", "list", "--json")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var l listed
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	return l
}

func requireDaloLoader(t *testing.T) {
	t.Helper()
	code, _, errs := runVouch(t, t.TempDir(), "instructions", "preview", "--target", filepath.Join(t.TempDir(), "x.md"), instrSource, instrRef)
	if code != 0 {
		t.Skipf("the Dalo loader does not load the example source yet (review/dalo): %s", errs)
	}
}

// TestInstructionsRoundTrip: preview, apply, list, hand edit, overwrite and remove the
// Dalo example's recommended instruction, for an explicit file and both provider
// aliases, and check the file comes back byte for byte.
func TestInstructionsRoundTrip(t *testing.T) {
	requireDaloLoader(t)
	codexHome, claudeHome := t.TempDir(), filepath.Join(t.TempDir(), "claude-config")
	t.Setenv("CODEX_HOME", codexHome)
	t.Setenv("CLAUDE_CONFIG_DIR", claudeHome)
	explicit := filepath.Join(t.TempDir(), "project", "AGENTS.md")

	cases := []struct {
		name, target, path string
		orig               []byte // nil: the file does not exist
		applies            string
	}{
		{"explicit", explicit, explicit, []byte("\xef\xbb\xbf# Project rules\r\n\r\nUse the design system.\r\n<!-- dalo:start validation:design-review -->\r\nDalo's own text.\r\n<!-- dalo:end validation:design-review -->"), "or below"},
		{"codex", "codex", filepath.Join(codexHome, "AGENTS.md"), []byte("# My global Codex notes\n\nBe brief.\n\n"), "Codex"},
		{"claude", "claude", filepath.Join(claudeHome, "CLAUDE.md"), nil, "Claude Code"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.orig != nil {
				os.MkdirAll(filepath.Dir(c.path), 0o755)
				if err := os.WriteFile(c.path, c.orig, 0o640); err != nil {
					t.Fatal(err)
				}
			}
			fileIs := func(want []byte, what string) {
				t.Helper()
				got, err := os.ReadFile(c.path)
				if want == nil {
					if err == nil {
						t.Fatalf("%s: %s exists: %q", what, c.path, got)
					}
					return
				}
				if err != nil || string(got) != string(want) {
					t.Fatalf("%s: %s holds %q, want %q (%v)", what, c.path, got, want, err)
				}
			}
			// Approving the instruction (or anything else in the package) records a
			// decision but activates nothing: only instructions apply writes a block.
			if code, _, errs := runVouch(t, home, "approve", "--yes", instrSource, instrRef, "design-review#skill:design-review"); code != 0 {
				t.Fatalf("approve: exit %d: %s", code, errs)
			}
			fileIs(c.orig, "after approving the package's components")
			if l := listInstructions(t, home); len(l.Instructions) != 0 {
				t.Fatalf("a recommended instruction is active before apply: %+v", l)
			}

			code, out, errs := runVouch(t, home, "instructions", "preview", "--target", c.target, instrSource, instrRef)
			if code != 0 {
				t.Fatalf("preview: exit %d: %s", code, errs)
			}
			for _, want := range []string{"Target:     " + c.path, c.applies, "+<!-- vouch:start " + instrRef + " -->", "+Preserve the project's established design language."} {
				if !strings.Contains(out, want) {
					t.Errorf("preview lacks %q:\n%s", want, out)
				}
			}
			if c.name == "explicit" && !strings.Contains(out, "dalo validation:design-review, lines 4-6") {
				t.Errorf("preview does not list the dalo block:\n%s", out)
			}
			fileIs(c.orig, "after preview")

			code, _, errs = runVouch(t, home, "instructions", "apply", "--target", c.target, instrSource, instrRef)
			if code != 2 || !strings.Contains(errs, "--yes") {
				t.Fatalf("apply without a terminal or --yes: exit %d: %s", code, errs)
			}
			fileIs(c.orig, "after refused apply")

			code, out, errs = runVouch(t, home, "instructions", "apply", "--target", c.target, "--yes", instrSource, instrRef)
			if code != 0 {
				t.Fatalf("apply: exit %d: %s\n%s", code, errs, out)
			}
			applied, err := os.ReadFile(c.path)
			if err != nil || !strings.HasPrefix(string(applied), string(c.orig)) || !strings.Contains(string(applied), "<!-- vouch:end "+instrRef+" -->") {
				t.Fatalf("applied file: %q %v", applied, err)
			}
			if c.orig != nil {
				if st, _ := os.Stat(c.path); st.Mode().Perm() != 0o640 {
					t.Errorf("mode became %v", st.Mode().Perm())
				}
			}
			if c.name == "explicit" && !strings.Contains(string(applied), "\r\n<!-- vouch:start "+instrRef+" -->\r\n# Design context\r\n") {
				t.Errorf("CRLF not kept: %q", applied)
			}
			l := listInstructions(t, home)
			if len(l.Instructions) != 1 || l.Instructions[0].Ref != instrRef || l.Instructions[0].Target != c.path || l.Instructions[0].State != "present" {
				t.Fatalf("list after apply: %+v", l)
			}
			// Applying again: nothing to do.
			code, out, _ = runVouch(t, home, "instructions", "apply", "--target", c.target, "--yes", instrSource, instrRef)
			if code != 0 || !strings.Contains(out, "Nothing to do") {
				t.Fatalf("re-apply: exit %d\n%s", code, out)
			}

			// A hand edit inside the block is detected and never overwritten silently.
			edited := strings.Replace(string(applied), "explain any remaining", "EXPLAIN all", 1)
			os.WriteFile(c.path, []byte(edited), 0o640)
			if l := listInstructions(t, home); l.Instructions[0].State != "edited" {
				t.Fatalf("list after hand edit: %+v", l)
			}
			code, out, errs = runVouch(t, home, "instructions", "apply", "--target", c.target, "--yes", instrSource, instrRef)
			if code != 1 || !strings.Contains(errs, "--overwrite") || !strings.Contains(out, "--- now in the file") || !strings.Contains(out, "--- last written by vouch") {
				t.Fatalf("apply over a hand edit: exit %d\n%s\n%s", code, out, errs)
			}
			fileIs([]byte(edited), "after refused overwrite")
			code, _, errs = runVouch(t, home, "instructions", "remove", "--target", c.target, "--yes", instrSource, instrRef)
			if code != 1 || !strings.Contains(errs, "edited by hand") {
				t.Fatalf("remove over a hand edit: exit %d: %s", code, errs)
			}
			code, _, errs = runVouch(t, home, "instructions", "apply", "--target", c.target, "--yes", "--overwrite", instrSource, instrRef)
			if code != 0 {
				t.Fatalf("apply --overwrite: exit %d: %s", code, errs)
			}
			fileIs(applied, "after overwrite")

			code, _, errs = runVouch(t, home, "instructions", "remove", "--target", c.target, instrSource, instrRef)
			if code != 2 || !strings.Contains(errs, "--yes") {
				t.Fatalf("remove without --yes: exit %d: %s", code, errs)
			}
			code, out, errs = runVouch(t, home, "instructions", "remove", "--target", c.target, "--yes", instrSource, instrRef)
			if code != 0 {
				t.Fatalf("remove: exit %d: %s\n%s", code, errs, out)
			}
			want := c.orig
			if want == nil {
				want = []byte{} // the created file stays, empty
			}
			fileIs(want, "after remove")
			if l := listInstructions(t, home); len(l.Instructions) != 0 {
				t.Fatalf("list after remove: %+v", l)
			}
			// The ledger holds approve and revoke decisions with the target.
			ledger, _ := os.ReadFile(filepath.Join(home, "ledger.toml"))
			if strings.Count(string(ledger), "target = ") < 3 || !strings.Contains(string(ledger), `action = "revoke"`) {
				t.Errorf("ledger:\n%s", ledger)
			}
		})
	}
	// Provider aliases never share a file: each activation went to its own target.
	if got, _ := os.ReadFile(filepath.Join(codexHome, "AGENTS.md")); strings.Contains(string(got), "Design context") {
		t.Error("codex target still holds the instruction")
	}
}

func TestInstructionsUsageErrors(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"instructions", "preview", instrSource, instrRef}, 2, "target"},
		{[]string{"instructions", "preview", "--target", target, instrSource, "design-review#skill:design-review"}, 2, "not an instruction"},
		{[]string{"instructions", "preview", "--target", target, instrSource, "nonsense"}, 2, "<package>#instruction:<id>"},
		{[]string{"instructions", "preview", "--target", target, "/does/not/exist", instrRef}, 2, "does not exist"},
		{[]string{"instructions", "preview", "--target", t.TempDir(), instrSource, instrRef}, 2, "directory"},
	} {
		code, _, errs := runVouch(t, home, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("a preview created the target")
	}
}

func TestInstructionsDamagedTarget(t *testing.T) {
	requireDaloLoader(t)
	target := filepath.Join(t.TempDir(), "AGENTS.md")
	orig := "a\n<!-- vouch:start " + instrRef + " -->\nno end\n"
	os.WriteFile(target, []byte(orig), 0o644)
	code, _, errs := runVouch(t, t.TempDir(), "instructions", "apply", "--yes", "--target", target, instrSource, instrRef)
	if code != 1 || !strings.Contains(errs, "line 2") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got, _ := os.ReadFile(target); string(got) != orig {
		t.Fatalf("damaged target was written: %q", got)
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// The pre-commit hook as a user adds it: `pre-commit try-repo` on this repository runs
// vouch-validate in another repository. A changed file inside a package validates that
// package once (its skill folder is not validated again on its own), a broken package
// fails the hook, and a commit touching no package passes without running vouch.
func TestPreCommitTryRepo(t *testing.T) {
	for _, tool := range []string{"pre-commit", "git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found (CI installs Debian's pre-commit)", tool)
		}
	}
	hookRepo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// vouch on PATH, as after `go install`; the script builds one only when there is none.
	bin := buildVouch(t, "vouch_gate")
	user := t.TempDir()
	testtree.Copy(t, filepath.Join("..", "..", "examples", "dalo", "design-review"), filepath.Join(user, "pkgs", "design-review"))
	testtree.Copy(t, filepath.Join("..", "..", "examples", "skills", "broken-name"), filepath.Join(user, "skills", "broken-name"))
	testtree.WriteFiles(t, user, map[string]string{"README.md": "notes\n"})
	env := append(os.Environ(), "PRE_COMMIT_HOME="+t.TempDir(), "VOUCH_HOME="+t.TempDir(),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "NO_COLOR=1")
	run := func(name string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = user, env
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return 0, string(out)
	}
	if c, out := run("git", "init", "-q"); c != 0 {
		t.Fatal(out)
	}
	run("git", "add", "-A")
	tryRepo := func(files ...string) (int, string) {
		return run("pre-commit", append([]string{"try-repo", hookRepo, "vouch-validate", "--verbose", "--files"}, files...)...)
	}

	code, out := tryRepo("pkgs/design-review/plugins/design-review/context.mjs", "pkgs/design-review/skills/design-review/SKILL.md", "pkgs/design-review/instructions/design-context.md")
	if code != 0 || strings.Contains(out, "not found") {
		t.Fatalf("a valid package: exit %d\n%s", code, out)
	}
	if n := strings.Count(out, "dalo design-review"); n != 1 {
		t.Errorf("design-review validated %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "agent-skills design-review") {
		t.Errorf("the package's skill folder was validated again on its own:\n%s", out)
	}

	code, out = tryRepo("skills/broken-name/SKILL.md", "pkgs/design-review/plugins/design-review/PLUGIN.toml")
	if code != 1 || !strings.Contains(out, "skill-name-uppercase") || !strings.Contains(out, "dalo design-review") {
		t.Errorf("a broken package: exit %d, want 1 naming it\n%s", code, out)
	}

	if code, out = tryRepo("README.md"); code != 0 || !strings.Contains(out, "Passed") || strings.Contains(out, "component") {
		t.Errorf("no package changed: exit %d\n%s", code, out)
	}
}

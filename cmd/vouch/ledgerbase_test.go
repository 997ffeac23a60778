package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo is a real git repository in a temporary folder holding a copy of the Dalo
// example design-review and its team ledger, for the gate's base-ledger tests.
type gitRepo struct {
	t      *testing.T
	dir    string // the work tree
	src    string // the package source inside it
	ledger string // .vouch/ledger.toml
	home   string // a personal home with no decisions
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	r := &gitRepo{t: t, dir: t.TempDir(), home: t.TempDir()}
	r.src = filepath.Join(r.dir, "plugins", "design-review")
	r.ledger = filepath.Join(r.dir, ".vouch", "ledger.toml")
	from := filepath.Join("..", "..", "examples", "dalo", "design-review")
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		to := filepath.Join(r.src, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *gitRepo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

// approve records approvals in the team ledger; kind "human" rewrites the decisions just
// appended as a person's (without a terminal, --yes records automation).
func (r *gitRepo) approve(kind string, refs ...string) {
	r.t.Helper()
	before, _ := os.ReadFile(r.ledger)
	if c, _, e := runVouch(r.t, r.home, append([]string{"approve", "--yes", "--ledger", r.ledger, r.src}, refs...)...); c != 0 {
		r.t.Fatalf("approve %v: exit %d: %s", refs, c, e)
	}
	if kind == "human" {
		after, _ := os.ReadFile(r.ledger)
		added := strings.ReplaceAll(string(after[len(before):]), `reviewer_kind = "automation"`, `reviewer_kind = "human"`)
		if err := os.WriteFile(r.ledger, append(before, added...), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *gitRepo) gate(extra ...string) (int, string) {
	r.t.Helper()
	args := append([]string{"status", "--require-approved", "--ledger", r.ledger, "--trust-ledger"}, extra...)
	code, _, errOut := runVouch(r.t, r.home, append(args, r.src)...)
	return code, errOut
}

var designReviewRefs = []string{"design-review#tool:context", "design-review#hook:review-context", "design-review#skill:design-review"}

// A change that edits a hook's code and appends its own approval to the team ledger
// passes the gate that reads the ledger as the change has it, and fails the gate that
// counts only the base branch's decisions, which names the decision the change added.
func TestGateLedgerBaseRefusesSelfApproval(t *testing.T) {
	r := newGitRepo(t)
	r.approve("human", designReviewRefs...)
	r.commit("base: the package and its approvals")
	if code, e := r.gate("--ledger-base", "main"); code != 0 {
		t.Fatalf("gate on the base itself: exit %d\n%s", code, e)
	}

	r.git("checkout", "-q", "-b", "change")
	entry := filepath.Join(r.src, "plugins", "design-review", "context.mjs")
	if err := os.WriteFile(entry, []byte("process.stdout.write('exfiltrate');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.approve("human", "design-review#tool:context", "design-review#hook:review-context")
	r.commit("change: edit the hook's tool and approve it")

	if code, e := r.gate(); code != 0 {
		t.Fatalf("without a base the change approves itself (exit 0 expected, as before): exit %d\n%s", code, e)
	}
	code, e := r.gate("--ledger-base", "main")
	if code != 1 {
		t.Fatalf("gate with the base ledger: exit %d, want 1\n%s", code, e)
	}
	for _, want := range []string{
		"Approved in this change, needs review of the ledger diff: approve design-review#tool:context sha256:",
		"Approved in this change, needs review of the ledger diff: approve design-review#hook:review-context sha256:",
		"design-review#tool:context is changed: approved in this change",
	} {
		if !strings.Contains(e, want) {
			t.Errorf("the gate's reasons lack %q:\n%s", want, e)
		}
	}
	if code, e := r.gate("--ledger-base", "main", "--allow-new-approvals"); code != 0 || !strings.Contains(e, "approved in this change (counted under --allow-new-approvals): design-review#tool:context") {
		t.Errorf("--allow-new-approvals: exit %d, want 0 with the new decisions listed\n%s", code, e)
	}

	// The same base given as a file.
	base := filepath.Join(t.TempDir(), "base.toml")
	os.WriteFile(base, []byte(r.git("show", "main:.vouch/ledger.toml")), 0o644)
	if code, e := r.gate("--ledger-base", base); code != 1 || !strings.Contains(e, "Approved in this change") {
		t.Errorf("--ledger-base FILE: exit %d\n%s", code, e)
	}
}

// A revoke the change adds counts at once: it only takes an approval away.
func TestGateLedgerBaseCountsNewRevokes(t *testing.T) {
	r := newGitRepo(t)
	r.approve("human", designReviewRefs...)
	r.commit("base")
	if c, _, e := runVouch(t, r.home, "revoke", "--yes", "--ledger", r.ledger, r.src, "design-review#skill:design-review"); c != 0 {
		t.Fatalf("revoke: %d %s", c, e)
	}
	code, e := r.gate("--ledger-base", "main")
	if code != 1 || !strings.Contains(e, "design-review#skill:design-review is revoked") || strings.Contains(e, "Approved in this change") {
		t.Errorf("a revoke in the change: exit %d\n%s", code, e)
	}
}

// A ledger that did not exist on the base approves nothing; --refuse-automation leaves out
// approvals recorded as automation; bad bases are usage errors.
func TestGateLedgerBaseEdges(t *testing.T) {
	r := newGitRepo(t)
	os.WriteFile(filepath.Join(r.dir, "README"), []byte("x\n"), 0o644)
	r.commit("base without a ledger")
	r.git("checkout", "-q", "-b", "change")
	r.approve("automation", designReviewRefs...)
	r.commit("change: the first approvals")
	if code, e := r.gate("--ledger-base", "main"); code != 1 || strings.Count(e, "Approved in this change, needs review") != 3 {
		t.Errorf("no ledger on the base: exit %d\n%s", code, e)
	}
	if code, e := r.gate("--refuse-automation"); code != 1 || !strings.Contains(e, "recorded by automation (") {
		t.Errorf("--refuse-automation: exit %d\n%s", code, e)
	}
	if code, e := r.gate(); code != 0 {
		t.Errorf("plain gate: exit %d\n%s", code, e)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--ledger-base", "no-such-branch"}, "is neither a file nor a git revision"},
		{[]string{"--ledger-base", "--upload-pack=x"}, "is neither a file nor a git revision"},
		{[]string{"--allow-new-approvals"}, "--allow-new-approvals needs --ledger-base"},
	} {
		if code, e := r.gate(tc.args...); code != 2 || !strings.Contains(e, tc.msg) {
			t.Errorf("%v: exit %d, want 2 with %q\n%s", tc.args, code, tc.msg, e)
		}
	}
}

// The action's gate step (scripts/action-gate, as action.yml runs it) on a pull request:
// it takes the pull request's base commit as the base ledger, so a change approving its
// own edit fails; it writes the exit code's inputs and the annotation counts as outputs.
func TestActionGateUsesPullRequestBase(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	r := newGitRepo(t)
	r.approve("human", designReviewRefs...)
	r.commit("base")
	baseSHA := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("checkout", "-q", "-b", "change")
	os.WriteFile(filepath.Join(r.src, "plugins", "design-review", "context.mjs"), []byte("// changed\n"), 0o644)
	r.approve("human", "design-review#tool:context", "design-review#hook:review-context")
	r.commit("change")

	bin := buildVouch(t, "vouch_gate")
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "action-gate"))
	run := func(env ...string) (int, string, string) {
		outputs := filepath.Join(t.TempDir(), "outputs")
		cmd := exec.Command("bash", script)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), append([]string{"VOUCH=" + bin, "VOUCH_HOME=" + t.TempDir(),
			"VOUCH_LEDGER=.vouch/ledger.toml", "VOUCH_SARIF=" + filepath.Join(t.TempDir(), "v.sarif"),
			"SOURCES=plugins/design-review", "GITHUB_OUTPUT=" + outputs, "GITHUB_STEP_SUMMARY="}, env...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		got, _ := os.ReadFile(outputs)
		return code, string(out), string(got)
	}
	code, out, outputs := run("PR_BASE_SHA=" + baseSHA)
	if code != 1 || !strings.Contains(out, "Approved in this change, needs review of the ledger diff: approve design-review#tool:context") {
		t.Errorf("on a pull request: exit %d\n%s", code, out)
	}
	if !strings.Contains(outputs, "errors=") || strings.Contains(outputs, "errors=0") {
		t.Errorf("outputs %q: want a non-zero error count", outputs)
	}
	if code, out, _ := run("PR_BASE_SHA="+baseSHA, "LEDGER_BASE=none"); code != 0 {
		t.Errorf("ledger-base none: exit %d\n%s", code, out)
	}
	if code, out, _ := run(); code != 0 {
		t.Errorf("on a push (no pull request base): exit %d\n%s", code, out)
	}
}

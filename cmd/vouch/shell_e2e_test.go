package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// claudeHookPlugin is a Claude Code plugin named p whose PreToolUse hooks run lines.
func claudeHookPlugin(lines ...string) map[string]string {
	hs := make([]string, len(lines))
	for i, l := range lines {
		b, _ := json.Marshal(l)
		hs[i] = `{"type": "command", "command": ` + string(b) + `}`
	}
	return map[string]string{
		".claude-plugin/plugin.json": `{"name": "p"}`,
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [` + strings.Join(hs, ",") + `]}]}}`,
		"x.js":                       "1\n",
	}
}

// TestCheckNamesUnresolvedShellWords: a hook whose script path the shell computes at run
// time is approvable, and the grant, check and the JSON report (valid against the
// schema) name the word as not covered.
func TestCheckNamesUnresolvedShellWords(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, claudeHookPlugin(`node ${CLAUDE_PLUGIN_ROOT%[!a-z]*}/x.js`))
	ref := "p#hook:PreToolUse:0:0"
	out, _ := expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	if !strings.Contains(out, "${CLAUDE_PLUGIN_ROOT%[!a-z]*}/x.js") {
		t.Errorf("the grant does not name the unresolved word:\n%s", out)
	}
	out, errs := expectRun(t, home, "check", 0, "check", src, ref)
	if !strings.Contains(out+errs, "unresolved-word") {
		t.Errorf("check does not say what is not covered:\n%s\n%s", out, errs)
	}
	_, out, _ = runVouch(t, home, "status", "--json", src)
	validateReport(t, reportSchema(t), out)
}

// TestHooksOverBoundRefused: a hooks file of 1,025 handlers cannot be approved, and check
// fails for its first handler.
func TestHooksOverBoundRefused(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	lines := make([]string, 1025)
	for i := range lines {
		lines[i] = fmt.Sprintf(`"${CLAUDE_PLUGIN_ROOT}"/x.js %d`, i)
	}
	testtree.WriteFiles(t, src, claudeHookPlugin(lines...))
	ref := "p#hook:PreToolUse:0:0"
	if code, out, errs := trustRun(t, home, "approve", "--yes", src, ref); code == 0 {
		t.Fatalf("approve of a cut hooks file succeeded:\n%s\n%s", out, errs)
	}
	if code, out, errs := trustRun(t, home, "check", src, ref); code == 0 {
		t.Fatalf("check passed:\n%s\n%s", out, errs)
	}
}

package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/enforce"
)

// TestRecordedClaudeSessions holds vouch to what the real Claude Code did in
// scripts/claude-e2e (recorded in testdata/clients): the plugin's hook ran from the folder
// vouch stages it into, the guard's hooks were read from vouch's marketplace, an edit of
// the source changed nothing that ran, and after a revoke nothing of the plugin ran.
func TestRecordedClaudeSessions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "clients", "claude-"+Version+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Client               string `json:"client"`
		StatusNamesSkillsDir bool   `json:"status_names_skills_dir"`
		Steps                []struct {
			Step      string   `json:"step"`
			Marks     []string `json:"marks"`
			HooksRead []string `json:"hooks_read"`
			Guard     string   `json:"guard_session_start"`
			PreTool   string   `json:"guard_pre_tool_use"`
			Called    bool     `json:"called"`
			Result    string   `json:"tool_result"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec.Client, Version+" ") {
		t.Fatalf("recorded with %s, not %s", rec.Client, Version)
	}
	l := enforce.LayoutOf("$VOUCH_HOME")
	staged, guard := PluginDir(l, "p"), PluginDir(l, GuardName)
	steps := map[string]int{}
	for i, s := range rec.Steps {
		steps[s.Step] = i
	}
	for _, name := range []string{"added", "source-edited", "skills-dir"} {
		s := rec.Steps[steps[name]]
		if len(s.Marks) != 1 || s.Marks[0] != "approved "+staged {
			t.Errorf("%s: the hook ran as %q, want once from %s", name, s.Marks, staged)
		}
		if !containsPrefix(s.HooksRead, "Read hooks.json for plugin p (enabled=true): "+staged+"/") {
			t.Errorf("%s: Claude did not read p's hooks from %s: %q", name, staged, s.HooksRead)
		}
	}
	for _, s := range rec.Steps {
		if strings.HasPrefix(s.Step, "mcp-") {
			continue
		}
		if !containsPrefix(s.HooksRead, "Read hooks.json for plugin "+GuardName+" (enabled=true): "+guard+"/") || s.Guard != "status 0" {
			t.Errorf("%s: the guard was not loaded from %s, or its SessionStart failed (%q)", s.Step, guard, s.Guard)
		}
	}
	// A real turn: the guard let the approved server's call through, refused it once a
	// byte of the staged server changed (naming the component), and refused it when its
	// own ledger read failed; a refused call never reached the server.
	for _, want := range []struct {
		step, status string
		called       bool
		result       []string
	}{
		{"mcp-approved", "status 0", true, []string{"rows"}},
		{"mcp-changed", "status 2", false, []string{"p#mcp-server:db", "changed since it was approved", "server.py"}},
		{"mcp-guard-error", "status 2", false, []string{"vouch: Damaged ledger"}},
	} {
		i, ok := steps[want.step]
		if !ok {
			t.Errorf("no step %s recorded", want.step)
			continue
		}
		s := rec.Steps[i]
		if s.PreTool != want.status || s.Called != want.called {
			t.Errorf("%s: the guard exited %q and the call reached the server: %v; want %q, %v", want.step, s.PreTool, s.Called, want.status, want.called)
		}
		for _, w := range want.result {
			if !strings.Contains(s.Result, w) {
				t.Errorf("%s: Claude's tool result %q does not contain %q", want.step, s.Result, w)
			}
		}
	}
	rev := rec.Steps[steps["revoked"]]
	if len(rev.Marks) != 0 || containsPrefix(rev.HooksRead, "Read hooks.json for plugin p ") {
		t.Errorf("after the revoke something of p still ran: %q %q", rev.Marks, rev.HooksRead)
	}
	if !rec.StatusNamesSkillsDir {
		t.Error("vouch enforce status did not name the skills-dir plugin")
	}
}

func containsPrefix(xs []string, prefix string) bool {
	for _, x := range xs {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}

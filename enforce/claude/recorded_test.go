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
		if !containsPrefix(s.HooksRead, "Read hooks.json for plugin "+GuardName+" (enabled=true): "+guard+"/") || s.Guard != "status 0" {
			t.Errorf("%s: the guard was not loaded from %s, or its SessionStart failed (%q)", s.Step, guard, s.Guard)
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

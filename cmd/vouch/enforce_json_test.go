package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// TestEnforceClaudeJSON holds every --json document of the Claude Code side of enforce
// (add, status, sync, remove, and a refused add) to commands-v1 and to what was done.
func TestEnforceClaudeJSON(t *testing.T) {
	w := newEnforceWorld(t, true)
	t.Setenv("CODEX_HOME", t.TempDir()) // status and sync also ask Codex: an empty home

	// Nothing approved yet: a refusal, as a JSON error on stderr and nothing on stdout.
	code, out, errs := w.run(t, "enforce", "claude", "add", "--json", w.src)
	if code != 1 || out != "" || !strings.Contains(errs, `"not-approved"`) || !strings.Contains(errs, pDB) {
		t.Fatalf("add --json before approval: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := w.run(t, "approve", "--yes", w.src, pHook, pDB); code != 0 {
		t.Fatalf("approve: %s", errs)
	}
	m := jsonDoc(t, w.home, "enforce_claude_add", 0, "enforce", "claude", "add", "--json", w.src)
	if m["plugin_id"] != "p@vouch" || m["entries"].(float64) < float64(len(enforcedPlugin)) || len(m["disabled"].([]any)) != 1 || m["disabled"].([]any)[0] != "p@upstream" {
		t.Fatalf("add: %v", m)
	}
	if staged := m["staged"].(string); filepath.Base(staged) != "p" || !strings.HasPrefix(staged, w.home) {
		t.Fatalf("add staged into %s, not under the vouch home %s", staged, w.home)
	}
	m = jsonDoc(t, w.home, "enforce_status", 0, "enforce", "status", "--json")
	if ps := clientDoc(t, m, "claude-code")["plugins"].([]any); len(ps) != 1 || ps[0].(map[string]any)["state"] != "enforced" {
		t.Fatalf("status after add: %v", m)
	}
	m = jsonDoc(t, w.home, "enforce_sync", 0, "enforce", "sync", "--json")
	if ch := m["changes"].(map[string]any)["claude-code"].([]any); len(ch) != 1 || ch[0].(map[string]any)["plugin"] != "p" {
		t.Fatalf("sync: %v", m)
	}
	// A revoke withdraws the plugin: status exits 1 and still prints its document.
	if code, _, errs := w.run(t, "revoke", "--yes", w.src, pHook); code != 0 {
		t.Fatalf("revoke: %s", errs)
	}
	m = jsonDoc(t, w.home, "enforce_status", 1, "enforce", "status", "--json")
	if ps := clientDoc(t, m, "claude-code")["plugins"].([]any); len(ps) != 1 || ps[0].(map[string]any)["state"] != "withdrawn" {
		t.Fatalf("status after revoke: %v", m)
	}
	m = jsonDoc(t, w.home, "enforce_claude_remove", 0, "enforce", "claude", "remove", "--json", "p")
	if m["plugin"] != "p" || m["plugin_id"] != "p@vouch" {
		t.Fatalf("remove: %v", m)
	}
	if code, out, errs := w.run(t, "enforce", "claude", "remove", "--json", "p"); code != 1 || out != "" || !strings.Contains(errs, `"enforce"`) {
		t.Fatalf("remove --json of a plugin not enforced: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestEnforceCodexJSON: the same for Codex, with the fake codex program.
func TestEnforceCodexJSON(t *testing.T) {
	src, fake, _ := codexFixture(t)
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("PATH", filepath.Dir(fake)+string(os.PathListSeparator)+"/usr/bin:/bin")

	code, out, errs := runVouch(t, home, "enforce", "codex", "add", "--json", "--client", fake, src)
	if code != 1 || out != "" || !strings.Contains(errs, `"not-approved"`) || !strings.Contains(errs, "guard#mcp-server:db") {
		t.Fatalf("add --json before approval: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := runVouch(t, home, append([]string{"approve", "--yes", src}, guardRefs...)...); code != 0 {
		t.Fatalf("approve: %s", errs)
	}
	m := jsonDoc(t, home, "enforce_codex_add", 0, "enforce", "codex", "add", "--json", "--client", fake, src)
	if m["plugin_id"] != "guard@vouch" || len(m["trusted_hooks"].([]any)) != 2 || len(m["servers_off"].([]any)) != 0 || m["installed"] == nil {
		t.Fatalf("add: %v", m)
	}
	m = jsonDoc(t, home, "enforce_status", 0, "enforce", "status", "--json")
	if ps := clientDoc(t, m, "codex")["plugins"].([]any); len(ps) != 1 || ps[0].(map[string]any)["state"] != "enforced" {
		t.Fatalf("status after add: %v", m)
	}
	m = jsonDoc(t, home, "enforce_sync", 0, "enforce", "sync", "--json")
	if ch := m["changes"].(map[string]any)["codex"].([]any); len(ch) != 1 || ch[0].(map[string]any)["action"] != "unchanged" {
		t.Fatalf("sync: %v", m)
	}
	m = jsonDoc(t, home, "enforce_codex_remove", 0, "enforce", "codex", "remove", "--json", "--client", fake, "guard")
	if m["plugin_id"] != "guard@vouch" || m["done"] != true {
		t.Fatalf("remove: %v", m)
	}
}

// clientDoc is one client's report of an enforce status document.
func clientDoc(t *testing.T, m map[string]any, id string) map[string]any {
	t.Helper()
	for _, c := range m["clients"].([]any) {
		if c := c.(map[string]any); c["client"] == id {
			return c
		}
	}
	t.Fatalf("enforce status has no report of %s: %v", id, m)
	return nil
}

// TestEnforcedClients: the console's "enforced" comes from the record: the reviewed
// folder (also through a link) and the staged folder of a finished add, for that
// package name only; a console on a home with nothing enforced is told nothing.
func TestEnforcedClients(t *testing.T) {
	w := newEnforceWorld(t, true)
	t.Setenv("CODEX_HOME", t.TempDir())
	if enforcedClients(w.home) != nil {
		t.Fatal("a home with nothing enforced marks packages enforced")
	}
	for _, args := range [][]string{{"approve", "--yes", w.src, pHook, pDB}, {"enforce", "claude", "add", w.src}} {
		if code, out, errs := w.run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w.src, link); err != nil {
		t.Fatal(err)
	}
	staged := filepath.Join(w.home, "enforce", "claude-code", "plugins", "p")
	f := enforcedClients(w.home)
	for _, tc := range []struct {
		name, root string
		want       string
	}{
		{"p", w.src, "claude-code"},
		{"p", link, "claude-code"},
		{"p", staged, "claude-code"},
		{"other", w.src, ""},
		{"p", t.TempDir(), ""},
	} {
		if got := strings.Join(f(&model.Package{Name: tc.name, Root: tc.root}), ","); got != tc.want {
			t.Errorf("%s at %s: enforced by %q, want %q", tc.name, tc.root, got, tc.want)
		}
	}
}

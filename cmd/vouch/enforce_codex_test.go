package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// codexFixture copies enforce/codex's test plugin into a scratch folder and points
// CODEX_HOME at a scratch home; the fake codex CLI records its calls.
func codexFixture(t *testing.T) (src, fake, codexHome string) {
	t.Helper()
	from := filepath.Join("..", "..", "enforce", "codex", "testdata", "plugins", "guard")
	src = filepath.Join(t.TempDir(), "guard")
	testtree.Copy(t, from, src)
	fake, _ = filepath.Abs(filepath.Join("..", "..", "enforce", "codex", "testdata", "fake", "codex"))
	codexHome = t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	t.Setenv("FAKE_CODEX_LOG", filepath.Join(t.TempDir(), "calls"))
	return src, fake, codexHome
}

// guardRefs are the Codex package's components. The guard folder holds Claude Code's
// default layout too, so it is also a Claude Code package whose server and skill share
// these names: the refs name the format.
var guardRefs = []string{"codex:guard#hook:hooks/hooks.json:pre_tool_use:0:0", "codex:guard#hook:hooks/hooks.json:stop:0:0", "codex:guard#mcp-server:db", "codex:guard#skill:notes"}

func TestEnforceCodexAddSyncStatus(t *testing.T) {
	src, fake, codexHome := codexFixture(t)
	home := t.TempDir()
	if code, out, errs := runVouch(t, home, "enforce", "codex", "add", "--client", fake, src); code != 1 || !strings.Contains(errs, "guard#mcp-server:db (unreviewed)") {
		t.Fatalf("add before any approval: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runVouch(t, home, append([]string{"approve", "--yes", src}, guardRefs...)...); code != 0 {
		t.Fatalf("approve: %d %s", code, errs)
	}
	code, out, errs := runVouch(t, home, "enforce", "codex", "add", "--client", fake, src)
	if code != 0 || !strings.Contains(out, "trusted 2 hook(s)") || !strings.Contains(out, "the same bytes") {
		t.Fatalf("add: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runVouch(t, home, "enforce", "status"); code != 0 || !strings.Contains(out, "enforced  guard") {
		t.Fatalf("status after add: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runVouch(t, home, "revoke", "--yes", src, guardRefs[1]); code != 0 {
		t.Fatalf("revoke: %d %s", code, errs)
	}
	// The revoke alone re-synced: no codex on PATH, so vouch took the hooks' trust away and
	// switched the server off itself, and status says what is left to do.
	cfg, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if strings.Contains(string(cfg), `[hooks.state."guard@vouch:`) || !strings.Contains(string(cfg), "[plugins.\"guard@vouch\".mcp_servers.db]\nenabled = false") {
		t.Fatalf("config.toml after the revoke alone:\n%s", cfg)
	}
	code, out, _ = runVouch(t, home, "enforce", "status", "--json")
	if code != 1 || !strings.Contains(out, `"code": "half-done"`) || !strings.Contains(out, "codex plugin remove guard@vouch") {
		t.Fatalf("status after the revoke: exit %d\n%s", code, out)
	}
	t.Setenv("PATH", filepath.Dir(fake)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if code, out, errs := runVouch(t, home, "enforce", "sync"); code != 0 || !strings.Contains(out, "codex: guard removed") {
		t.Fatalf("sync: exit %d\n%s%s", code, out, errs)
	}
	cfg, _ = os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if strings.Contains(string(cfg), "guard@vouch") {
		t.Errorf("config.toml still names guard@vouch after the sync:\n%s", cfg)
	}
	if code, out, _ := runVouch(t, home, "enforce", "status"); code != 0 || strings.Contains(out, "guard") {
		t.Errorf("status after sync: exit %d\n%s", code, out)
	}
}

func TestEnforceCodexWithoutClient(t *testing.T) {
	src, _, _ := codexFixture(t)
	home := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	runVouch(t, home, append([]string{"approve", "--yes", src}, guardRefs...)...)
	code, out, errs := runVouch(t, home, "enforce", "codex", "add", src)
	if code != 0 || !strings.Contains(out, "no codex program was found; run:") || !strings.Contains(out, "codex plugin add guard@vouch --json") {
		t.Fatalf("add without a client: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runVouch(t, home, "enforce", "codex", "remove", "guard"); code != 0 || !strings.Contains(out, "no longer enforced") {
		t.Errorf("remove of a plugin Codex never installed: exit %d\n%s%s", code, out, errs)
	}
}

func TestEnforceCodexManagedAndHelp(t *testing.T) {
	code, out, _ := runVouch(t, t.TempDir(), "enforce", "codex", "managed")
	if code != 0 || !strings.Contains(out, "allow_managed_hooks_only") || !strings.Contains(out, "Codex 0.171.0") {
		t.Errorf("managed: exit %d\n%s", code, out)
	}
	for _, sub := range []string{"add", "remove", "managed"} {
		code, out, _ := runVouch(t, t.TempDir(), "enforce", "codex", sub, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("enforce codex %s --help: exit %d, no example\n%s", sub, code, out)
		}
	}
	if code, _, errs := runVouch(t, t.TempDir(), "enforce", "codex", "add", "/nonexistent/plugin"); code != 2 || !strings.Contains(errs, "not a folder") {
		t.Errorf("add of a missing folder: exit %d %s", code, errs)
	}
}

func TestCodexSourceOfAnInstalledPlugin(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	cp := filepath.Join(home, "plugins", "cache", "team", "lint", "2.0.0")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := codexSource("lint@team"); err != nil || got != cp {
		t.Errorf("codexSource(lint@team) = %q, %v; want %s", got, err, cp)
	}
	os.MkdirAll(filepath.Join(home, "plugins", "cache", "team", "lint", "2.1.0"), 0o755)
	if _, err := codexSource("lint@team"); err == nil || !strings.Contains(err.Error(), "2 copies") {
		t.Errorf("two cached versions: err = %v", err)
	}
	for _, bad := range []string{"nothing@here", "../x@y", "plain"} {
		if _, err := codexSource(bad); err == nil {
			t.Errorf("codexSource(%q) was accepted", bad)
		}
	}
}

// A plugin added with --partial keeps that rule in sync: its unapproved server stays off
// and the plugin stays enforced, where the default rule would remove it.
func TestEnforceCodexPartialSurvivesSync(t *testing.T) {
	src, fake, codexHome := codexFixture(t)
	home := t.TempDir()
	runVouch(t, home, "approve", "--yes", src, guardRefs[0], guardRefs[3])
	if code, out, errs := runVouch(t, home, "enforce", "codex", "add", "--partial", "--client", fake, src); code != 0 || !strings.Contains(out, "1 MCP server(s) switched off") {
		t.Fatalf("add --partial: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("PATH", filepath.Dir(fake)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if code, out, errs := runVouch(t, home, "enforce", "sync"); code != 0 || !strings.Contains(out, "codex: guard unchanged") {
		t.Fatalf("sync: exit %d\n%s%s", code, out, errs)
	}
	cfg, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if !strings.Contains(string(cfg), "pre_tool_use:0:0") || strings.Contains(string(cfg), "stop:0:0") || !strings.Contains(string(cfg), "mcp_servers.db]\nenabled = false") {
		t.Errorf("config.toml after sync:\n%s", cfg)
	}
	if code, out, _ := runVouch(t, home, "enforce", "status"); code != 0 {
		t.Errorf("status: exit %d\n%s", code, out)
	}
}

// status --codex settles a trusted definition with the installed copy's fingerprint:
// "trusted" while the copy is the one trusted, "modified" after a byte of it changed.
func TestStatusCodexUsesTheFingerprint(t *testing.T) {
	src, fake, codexHome := codexFixture(t)
	home := t.TempDir()
	runVouch(t, home, append([]string{"approve", "--yes", src}, guardRefs...)...)
	if code, out, errs := runVouch(t, home, "enforce", "codex", "add", "--client", fake, src); code != 0 {
		t.Fatalf("add: %d\n%s%s", code, out, errs)
	}
	staged := filepath.Join(home, "enforce", "codex", "marketplace", "plugins", "guard")
	code, out, errs := runVouch(t, home, "status", "--codex", staged)
	if code != 0 || strings.Count(out, "codex: trusted  guard@vouch:") != 2 {
		t.Fatalf("status --codex of the staged copy: exit %d\n%s%s", code, out, errs)
	}
	f, err := os.OpenFile(filepath.Join(codexHome, "plugins/cache/vouch/guard/1.2.0/skills/notes/SKILL.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n")
	f.Close()
	code, out, _ = runVouch(t, home, "status", "--codex", staged)
	if strings.Count(out, "codex: modified  guard@vouch:") != 2 {
		t.Fatalf("status --codex after a byte of the installed copy changed: exit %d\n%s", code, out)
	}
}

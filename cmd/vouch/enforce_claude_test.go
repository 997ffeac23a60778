package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

var updateEnforce = flag.Bool("update-enforce", false, "rewrite testdata/enforce golden files")

// A Claude Code plugin with a hook and an MCP server, both runnable.
var enforcedPlugin = map[string]string{
	".claude-plugin/plugin.json": `{"name": "p", "version": "1.0.0"}`,
	"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/check.sh"}]}]}}`,
	".mcp.json":        `{"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/server.mjs"]}}}`,
	"scripts/check.sh": "#!/bin/sh\nexit 0\n",
	"server.mjs":       "console.log('db')\n",
}

const (
	pHook = "p#hook:PreToolUse:0:0"
	pDB   = "p#mcp-server:db"
)

// A user settings file as Claude Code writes it, with keys vouch does not own, an
// original install of p and an unrelated plugin.
const userSettings = `{
  "theme": "dark",
  "enabledPlugins": {
    "p@upstream": true,
    "other@x": [
      "1.0"
    ]
  },
  "permissions": {
    "allow": ["Bash(ls:*)"]
  }
}
`

// enforceWorld is a scratch Claude Code configuration with p installed from another
// marketplace, the fake claude program on PATH, and a vouch home.
type enforceWorld struct {
	home, src, claude, log string
	guard                  string // the program the guard's hooks run
}

func newEnforceWorld(t *testing.T, withCLI bool) *enforceWorld {
	t.Helper()
	return makeEnforceWorld(t, withCLI)
}

// newEnforceWorldB is an enforced, approved p for benchmarks.
func newEnforceWorldB(b *testing.B) *enforceWorld {
	w := makeEnforceWorld(b, true)
	for _, args := range [][]string{{"approve", "--yes", w.src, pHook, pDB}, {"enforce", "claude", "add", w.src}} {
		if code, _, errs := runWithStdin(b, w.home, "", args...); code != 0 {
			b.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	return w
}

func makeEnforceWorld(t testing.TB, withCLI bool) *enforceWorld {
	t.Helper()
	w := &enforceWorld{home: t.TempDir(), src: t.TempDir(), claude: t.TempDir()}
	testtree.WriteFiles(t, w.src, enforcedPlugin)
	w.log = filepath.Join(t.TempDir(), "calls.log")
	orig := filepath.Join(w.claude, "plugins", "cache", "upstream", "p", "1.0.0")
	testtree.WriteFiles(t, orig, enforcedPlugin)
	testtree.WriteFiles(t, w.claude, map[string]string{
		"settings.json":                  userSettings,
		"plugins/.fake-installed":        "p@upstream\n",
		"plugins/installed_plugins.json": `{"version": 2, "plugins": {"p@upstream": [{"scope": "user", "installPath": "` + orig + `", "version": "1.0.0"}]}}`,
	})
	t.Setenv("CLAUDE_CONFIG_DIR", w.claude)
	t.Setenv("FAKE_CLAUDE_LOG", w.log)
	w.guard = filepath.Join(t.TempDir(), "vouch")
	if err := os.WriteFile(w.guard, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VOUCH_GUARD_PROGRAM", w.guard)
	path := t.TempDir() // no claude on it
	if withCLI {
		fake, _ := filepath.Abs("testdata/fake-claude")
		path = fake
	}
	t.Setenv("PATH", path+string(os.PathListSeparator)+"/usr/bin:/bin")
	t.Chdir(t.TempDir()) // no project files
	return w
}

func (w *enforceWorld) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return trustRun(t, w.home, args...)
}

func (w *enforceWorld) calls(t *testing.T) []string {
	b, _ := os.ReadFile(w.log)
	return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "\x00"))
}

// testdataDir is testdata's absolute path: the enforce tests change directory.
var testdataDir, _ = filepath.Abs("testdata")

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join(testdataDir, "enforce", name)
	if *updateEnforce {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update-enforce)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestEnforceClaudeAddRefusesUnapproved(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve hook", 0, "approve", "--yes", w.src, pHook)
	_, errs := expectRun(t, w.home, "add with the server unapproved", 1, "enforce", "claude", "add", w.src)
	if !strings.Contains(errs, pDB+" is unreviewed") {
		t.Fatalf("add does not name the unapproved server:\n%s", errs)
	}
	if _, err := os.Stat(filepath.Join(w.home, "enforce", "claude-code", "plugins", "p")); !os.IsNotExist(err) {
		t.Fatalf("a refused add staged the plugin (%v)", err)
	}
	if got := testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")); got != userSettings {
		t.Fatalf("a refused add changed settings.json:\n%s", got)
	}
	if len(w.calls(t)) != 0 {
		t.Fatalf("a refused add ran claude: %q", w.calls(t))
	}
}

func TestEnforceClaudeAddSyncRemove(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	expectRun(t, w.home, "add", 0, "enforce", "claude", "add", w.src)

	market := filepath.Join(w.home, "enforce", "claude-code")
	staged := filepath.Join(market, "plugins", "p")
	wantCalls := []string{"plugin\x00marketplace\x00add\x00" + market, "plugin\x00install\x00vouch-guard@vouch", "plugin\x00install\x00p@vouch"}
	if got := w.calls(t); strings.Join(got, "\n") != strings.Join(wantCalls, "\n") {
		t.Fatalf("claude calls:\n%q\nwant\n%q", got, wantCalls)
	}
	for rel, body := range enforcedPlugin {
		if got := testtree.ReadFile(t, filepath.Join(staged, rel)); got != body {
			t.Fatalf("staged %s = %q, want %q", rel, got, body)
		}
	}
	if st, err := os.Stat(filepath.Join(staged, "scripts", "check.sh")); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("the staged script lost its exec bit (%v)", err)
	}
	golden(t, "settings-after-add.json", testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")))
	golden(t, "marketplace.json", testtree.ReadFile(t, filepath.Join(market, ".claude-plugin", "marketplace.json")))
	golden(t, "guard-hooks.json", strings.NewReplacer(w.home, "$VOUCH_HOME", w.guard, "$VOUCH_PROGRAM").Replace(testtree.ReadFile(t, filepath.Join(market, "plugins", "vouch-guard", "hooks", "hooks.json"))))

	out, _ := expectRun(t, w.home, "status after add", 0, "enforce", "status")
	if !strings.Contains(out, "enforced  p") {
		t.Fatalf("status does not show p enforced:\n%s", out)
	}
	// A guard that cannot run lets calls through: status says so.
	os.Rename(w.guard, w.guard+".moved")
	out, _ = expectRun(t, w.home, "status with the guard's program gone", 1, "enforce", "status")
	if !strings.Contains(out, "is not an executable program here") {
		t.Fatalf("status does not say the guard cannot run:\n%s", out)
	}
	os.Rename(w.guard+".moved", w.guard)
	code, out, errs := w.run(t, "status", "--claude")
	if !strings.Contains(out, "Enforced: vouch staged this folder") {
		t.Fatalf("status --claude does not show p@vouch enforced (exit %d):\n%s%s", code, out, errs)
	}

	// The original install turned back on by hand: sync turns it off again.
	settings := filepath.Join(w.claude, "settings.json")
	afterAdd := testtree.ReadFile(t, settings)
	if err := os.WriteFile(settings, []byte(strings.Replace(afterAdd, `"p@upstream": false`, `"p@upstream": true`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ = expectRun(t, w.home, "sync after the original install was turned on", 0, "enforce", "sync")
	if got := testtree.ReadFile(t, settings); got != afterAdd {
		t.Fatalf("sync did not turn the original install off again:\n%s", got)
	}
	if !strings.Contains(out, "p settings") || !strings.Contains(out, "p@upstream false") {
		t.Fatalf("sync does not say what it changed:\n%s", out)
	}

	// An edit of the source changes nothing that runs.
	testtree.Replace(t, filepath.Join(w.src, "server.mjs"), "db", "EVIL")
	expectRun(t, w.home, "sync after an edit", 0, "enforce", "sync")
	if got := testtree.ReadFile(t, filepath.Join(staged, "server.mjs")); got != enforcedPlugin["server.mjs"] {
		t.Fatalf("an unapproved edit reached the staged folder: %q", got)
	}
	expectRun(t, w.home, "status after an edit", 0, "enforce", "status")

	// A hand edit of the staged folder is found, and sync puts the approved bytes back.
	if err := os.WriteFile(filepath.Join(staged, "server.mjs"), []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = expectRun(t, w.home, "status with the staged folder edited", 1, "enforce", "status")
	if !strings.Contains(out, "server.mjs differs from the approved bytes") {
		t.Fatalf("status does not name the edited file:\n%s", out)
	}
	expectRun(t, w.home, "sync restores", 0, "enforce", "sync")
	if got := testtree.ReadFile(t, filepath.Join(staged, "server.mjs")); got != enforcedPlugin["server.mjs"] {
		t.Fatalf("sync did not restore the approved bytes: %q", got)
	}

	// A revoke of one component (the source is edited, so revoke by the approved
	// digest's ref from the edited folder) leaves nothing of the plugin staged.
	testtree.Replace(t, filepath.Join(w.src, "server.mjs"), "EVIL", "db")
	_, errs = expectRun(t, w.home, "revoke", 0, "revoke", "--yes", w.src, pHook)
	if _, err := os.Stat(staged); !os.IsNotExist(err) {
		t.Fatalf("the staged folder survived a revoke (%v)", err)
	}
	if !strings.Contains(errs, "claude-code: p removed") {
		t.Fatalf("revoke does not say the enforced copy was removed:\n%s", errs)
	}
	out, _ = expectRun(t, w.home, "status after revoke", 1, "enforce", "status")
	if !strings.Contains(out, "withdrawn  p") {
		t.Fatalf("status does not show p withdrawn:\n%s", out)
	}

	// Approving again stages it again.
	expectRun(t, w.home, "approve again", 0, "approve", "--yes", w.src, pHook)
	if got := testtree.ReadFile(t, filepath.Join(staged, "server.mjs")); got != enforcedPlugin["server.mjs"] {
		t.Fatalf("approve did not stage the plugin again: %q", got)
	}

	expectRun(t, w.home, "remove", 0, "enforce", "claude", "remove", "p")
	if _, err := os.Stat(staged); !os.IsNotExist(err) {
		t.Fatalf("remove left the staged folder (%v)", err)
	}
	if got := w.calls(t); got[len(got)-1] != "plugin\x00uninstall\x00p@vouch" {
		t.Fatalf("remove did not uninstall p@vouch: %q", got)
	}
	golden(t, "settings-after-remove.json", testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")))
	var s struct {
		EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
	}
	_ = json.Unmarshal([]byte(testtree.ReadFile(t, filepath.Join(w.claude, "settings.json"))), &s)
	if string(s.EnabledPlugins["p@upstream"]) != "true" || s.EnabledPlugins["p@vouch"] != nil {
		t.Fatalf("remove did not turn the original install back on: %s", testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")))
	}
}

func TestEnforceClaudeAddWithoutClientPrintsCommands(t *testing.T) {
	w := newEnforceWorld(t, false)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	out, _ := expectRun(t, w.home, "add", 0, "enforce", "claude", "add", w.src)
	market := filepath.Join(w.home, "enforce", "claude-code")
	for _, want := range []string{"claude plugin marketplace add " + shellQuoteForTest(market), "claude plugin install vouch-guard@vouch", "claude plugin install p@vouch"} {
		if !strings.Contains(out, want) {
			t.Fatalf("add does not print %q:\n%s", want, out)
		}
	}
	// Until the person runs them, status says p is not installed.
	out, _ = expectRun(t, w.home, "status before install", 1, "enforce", "status")
	if !strings.Contains(out, "has not installed p@vouch") {
		t.Fatalf("status does not say p@vouch is not installed:\n%s", out)
	}
}

func shellQuoteForTest(s string) string {
	if strings.ContainsAny(s, " '") {
		return "'" + s + "'"
	}
	return s
}

func TestEnforceClaudeRefusesDamagedSettings(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	for _, bad := range []string{`{"enabledPlugins": {`, `{"a": 1, "a": 2}`, `[]`, `{"enabledPlugins": []}`} {
		if err := os.WriteFile(filepath.Join(w.claude, "settings.json"), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errs := expectRun(t, w.home, "add over "+bad, 1, "enforce", "claude", "add", w.src)
		if !strings.Contains(errs, filepath.Join(w.claude, "settings.json")) {
			t.Fatalf("the refusal does not name the file:\n%s", errs)
		}
		if got := testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")); got != bad {
			t.Fatalf("a damaged settings.json was rewritten: %q", got)
		}
		if _, err := os.Stat(filepath.Join(w.home, "enforce", "claude-code", "plugins", "p")); !os.IsNotExist(err) {
			t.Fatalf("add over %s staged the plugin before finding the settings damaged (%v)", bad, err)
		}
		if len(w.calls(t)) != 0 {
			t.Fatalf("add over %s ran claude: %q", bad, w.calls(t))
		}
	}
}

func TestEnforceClaudeDenyUnapprovedAllow(t *testing.T) {
	w := newEnforceWorld(t, true)
	out, _ := expectRun(t, w.home, "deny-unapproved", 0, "enforce", "claude", "deny-unapproved")
	if !strings.Contains(out, "denied plugin:p:db") || !strings.Contains(out, "turned off p@upstream") {
		t.Fatalf("deny-unapproved does not say what it did:\n%s", out)
	}
	golden(t, "settings-after-deny.json", testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")))
	// Twice is the same as once.
	expectRun(t, w.home, "deny-unapproved again", 0, "enforce", "claude", "deny-unapproved")
	golden(t, "settings-after-deny.json", testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")))

	out, _ = expectRun(t, w.home, "managed", 0, "enforce", "claude", "managed")
	golden(t, "managed-settings.json", strings.ReplaceAll(out, w.home, "$VOUCH_HOME"))

	expectRun(t, w.home, "allow", 0, "enforce", "claude", "allow")
	if got := testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")); got != userSettings {
		t.Fatalf("allow did not give the settings back byte for byte:\n%s", got)
	}

	// An approved server is not denied.
	expectRun(t, w.home, "approve the installed copy's server", 0, "approve", "--yes", filepath.Join(w.claude, "plugins", "cache", "upstream", "p", "1.0.0"), pDB)
	out, _ = expectRun(t, w.home, "deny-unapproved with the server approved", 0, "enforce", "claude", "deny-unapproved")
	if strings.Contains(out, "plugin:p:db") {
		t.Fatalf("an approved server was denied:\n%s", out)
	}
}

// An add that stops part way (here the client's install fails) leaves a record that
// status reports as a half-done add, and the next add finishes it.
func TestEnforceClaudeHalfDoneAdd(t *testing.T) {
	w := newEnforceWorld(t, true)
	expectRun(t, w.home, "approve", 0, "approve", "--yes", w.src, pHook, pDB)
	t.Setenv("FAKE_CLAUDE_FAIL", "install")
	_, errs := expectRun(t, w.home, "add with a failing client", 1, "enforce", "claude", "add", w.src)
	if !strings.Contains(errs, "fake claude: install failed") {
		t.Fatalf("add does not pass on the client's error:\n%s", errs)
	}
	if got := testtree.ReadFile(t, filepath.Join(w.claude, "settings.json")); got != userSettings {
		t.Fatalf("a failed add turned the original install off:\n%s", got)
	}
	out, _ := expectRun(t, w.home, "status after a half-done add", 1, "enforce", "status", "--json")
	if !strings.Contains(out, `"code": "half-done-add"`) || !strings.Contains(out, `"state": "pending"`) {
		t.Fatalf("status does not report the half-done add:\n%s", out)
	}
	t.Setenv("FAKE_CLAUDE_FAIL", "")
	expectRun(t, w.home, "add again", 0, "enforce", "claude", "add", w.src)
	expectRun(t, w.home, "status after the add finished", 0, "enforce", "status")
}

package codex

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
)

type env struct {
	src   string // a copy of testdata/plugins/guard
	trust *trust.Trust
	opts  Options
	log   string // the fake CLI's record of its calls
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{src: filepath.Join(t.TempDir(), "guard"), log: filepath.Join(t.TempDir(), "calls")}
	testtree.Copy(t, filepath.Join("testdata", "plugins", "guard"), e.src)
	home := t.TempDir()
	tr, err := trust.Open(trust.Options{Home: home, Reviewer: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	e.trust = tr
	fake, err := filepath.Abs(filepath.Join("testdata", "fake", "codex"))
	if err != nil {
		t.Fatal(err)
	}
	e.opts = Options{VouchHome: home, CodexHome: t.TempDir(), Client: fake}
	t.Setenv("FAKE_CODEX_LOG", e.log)
	t.Setenv("FAKE_CODEX_TAMPER", "")
	return e
}

func (e *env) load() *model.Package { return rcodex.Load(e.src, rcodex.Options{}) }

// approve approves the components whose refs contain one of the given parts (every
// component with a contract when none is given).
// added approves every component of the plugin and adds it; a failed add ends the test.
func (e *env) added(t *testing.T) *Added {
	t.Helper()
	e.approve(t)
	res, err := Add(e.trust, e.load(), e.opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (e *env) approve(t *testing.T, parts ...string) {
	t.Helper()
	pkg := e.load()
	for _, c := range pkg.Components {
		if c.Contract == nil || c.Kind.Inert() {
			continue
		}
		ref := pkg.Ref(c)
		if len(parts) > 0 && !containsAny(ref, parts) {
			continue
		}
		if _, err := e.trust.Approve(pkg, c, trust.DigestOf(c), trust.DecideOptions{}); err != nil {
			t.Fatalf("approve %s: %v", ref, err)
		}
	}
}

func (e *env) revoke(t *testing.T, part string) {
	t.Helper()
	pkg := e.load()
	for _, c := range pkg.Components {
		if strings.Contains(pkg.Ref(c), part) {
			if _, err := e.trust.Revoke(pkg, c, trust.DigestOf(c), trust.DecideOptions{}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no component %s", part)
}

func messages(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Code + ": " + p.Message + "\n")
	}
	return b.String()
}

func containsAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func (e *env) config(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join(e.opts.CodexHome, "config.toml"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(data)
}

// normalized replaces the scratch directories with names a golden file can hold.
func (e *env) normalized(s string) string {
	return strings.NewReplacer(e.opts.CodexHome, "$CODEX_HOME", e.opts.VouchHome, "$VOUCH_HOME").Replace(s)
}

func (e *env) calls(t *testing.T) []string {
	data, err := os.ReadFile(e.log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(e.normalized(string(data))), "\n")
}

func TestAddInstallsTheApprovedCopy(t *testing.T) {
	e := newEnv(t)
	res := e.added(t)
	if got := strings.Join(e.calls(t), "\n"); got != "plugin marketplace add $VOUCH_HOME/enforce/codex/marketplace\nplugin add guard@vouch --json" {
		t.Errorf("the CLI was called with:\n%s", got)
	}
	if res.Installed != filepath.Join(e.opts.CodexHome, "plugins/cache/vouch/guard/1.2.0") || len(res.Trusted) != 2 || len(res.ServersOff) != 0 {
		t.Errorf("Add = %+v", res)
	}
	golden(t, "enforced-config.toml", []byte(e.normalized(e.config(t))))
	cat, err := os.ReadFile(NewLayout(e.opts.VouchHome).CatalogPath())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "marketplace.json", cat)
	st := StatusOf(e.trust, "guard", e.opts)
	if len(st.Problems) != 0 {
		t.Fatalf("status problems: %v", st.Problems)
	}
	for _, h := range st.Hooks {
		if h.Codex != "trusted" || !h.Approved {
			t.Errorf("hook %+v, want approved and trusted", h)
		}
	}
	if len(st.Servers) != 1 || !st.Servers[0].Enabled || !st.Servers[0].Approved {
		t.Errorf("servers %+v", st.Servers)
	}
	if st.InstalledFingerprint != st.StagedFingerprint || st.StagedFingerprint != res.Fingerprint {
		t.Errorf("fingerprints: installed %s staged %s added %s", st.InstalledFingerprint, st.StagedFingerprint, res.Fingerprint)
	}
	// Adding again changes nothing.
	before := e.config(t)
	if _, err := Add(e.trust, e.load(), e.opts); err != nil || e.config(t) != before {
		t.Errorf("a second add changed config.toml (%v)", err)
	}
}

func TestAddRefusesWhatIsNotApproved(t *testing.T) {
	e := newEnv(t)
	e.approve(t, "PreToolUse", "pre_tool_use")
	_, err := Add(e.trust, e.load(), e.opts)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v, want a MissingError", err)
	}
	got := strings.Join(me.Missing, "\n")
	for _, want := range []string{"mcp-server:db (unreviewed)", "skill:notes (unreviewed)", "stop:0:0 (unreviewed)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing list %q lacks %q", got, want)
		}
	}
	if names, _ := Staged(NewLayout(e.opts.VouchHome)); len(names) != 0 || len(e.calls(t)) != 0 || e.config(t) != "" {
		t.Errorf("a refused add left something: staged %v, calls %v, config %q", names, e.calls(t), e.config(t))
	}
}

// With --partial, a hook that is not approved gets no trust and a server that is not
// approved is switched off; skills must still be approved.
func TestAddPartial(t *testing.T) {
	e := newEnv(t)
	e.approve(t, "pre_tool_use", "skill:notes")
	e.opts.Partial = true
	res, err := Add(e.trust, e.load(), e.opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trusted) != 1 || !strings.HasSuffix(res.Trusted[0], ":pre_tool_use:0:0") || strings.Join(res.ServersOff, ",") != "db" {
		t.Errorf("Add = %+v", res)
	}
	golden(t, "partial-config.toml", []byte(e.normalized(e.config(t))))
	if st := StatusOf(e.trust, "guard", e.opts); len(st.Problems) != 0 {
		t.Errorf("status problems: %v", st.Problems)
	}
}

// An edit of the source after the add changes nothing Codex runs, and cannot be staged
// until it is approved again.
func TestSourceEditChangesNothingThatRuns(t *testing.T) {
	e := newEnv(t)
	res := e.added(t)
	if err := os.WriteFile(filepath.Join(e.src, "hooks", "check.sh"), []byte("#!/bin/sh\ncurl evil.example\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var me *MissingError
	if _, err := Add(e.trust, e.load(), e.opts); !errors.As(err, &me) {
		t.Fatalf("re-adding the edited source: err = %v, want a MissingError", err)
	}
	st := StatusOf(e.trust, "guard", e.opts)
	if len(st.Problems) != 0 || st.InstalledFingerprint != res.Fingerprint || st.StagedFingerprint != res.Fingerprint {
		t.Errorf("after the edit: problems %v, installed %s, staged %s, want the approved %s", st.Problems, st.InstalledFingerprint, st.StagedFingerprint, res.Fingerprint)
	}
	// Sync keeps the staged bytes, which are still approved.
	if s, err := Sync(e.trust, e.load(), "guard", e.opts); err != nil || s.Action != "unchanged" {
		t.Errorf("Sync after a source edit = %+v, %v; want unchanged", s, err)
	}
	// Approving the edit and syncing stages it.
	e.approve(t)
	if s, err := Sync(e.trust, e.load(), "guard", e.opts); err != nil || s.Action != "staged" || s.Added.Fingerprint == res.Fingerprint {
		t.Errorf("Sync after approving the edit = %+v, %v; want the new bytes staged", s, err)
	}
}

// A revoke shows in status as a hook Codex still runs, and sync takes the plugin out.
func TestRevokeThenSync(t *testing.T) {
	e := newEnv(t)
	e.added(t)
	e.revoke(t, "stop:0:0")
	st := StatusOf(e.trust, "guard", e.opts)
	if !strings.Contains(messages(st.Problems), observed+" runs the hook guard@vouch:hooks/hooks.json:stop:0:0, which is not approved now (revoked)") {
		t.Errorf("status problems %v do not name the revoked hook", st.Problems)
	}
	res, err := Sync(e.trust, e.load(), "guard", e.opts)
	if err != nil || res.Action != "removed" || !res.Removed.Done {
		t.Fatalf("Sync = %+v, %v; want a removal", res, err)
	}
	cfg := e.config(t)
	if strings.Contains(cfg, "guard@vouch") {
		t.Errorf("config.toml still names guard@vouch:\n%s", cfg)
	}
	if _, err := os.Stat(filepath.Join(e.opts.CodexHome, "plugins/cache/vouch/guard")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cache copy is still there (%v)", err)
	}
	if names, _ := Staged(NewLayout(e.opts.VouchHome)); len(names) != 0 {
		t.Errorf("still staged: %v", names)
	}
}

func TestAddRefusesATamperedInstall(t *testing.T) {
	e := newEnv(t)
	e.approve(t)
	t.Setenv("FAKE_CODEX_TAMPER", "1")
	_, err := Add(e.trust, e.load(), e.opts)
	if err == nil || !strings.Contains(err.Error(), "is not the staged folder") {
		t.Fatalf("err = %v, want the fingerprint mismatch", err)
	}
	if strings.Contains(e.config(t), "hooks.state") {
		t.Errorf("trust was written for a copy that is not the staged one:\n%s", e.config(t))
	}
	if st := StatusOf(e.trust, "guard", e.opts); !strings.Contains(messages(st.Problems), "did not finish") || !strings.Contains(messages(st.Problems), "is not the staged folder") {
		t.Errorf("status of the half-done add: %v", st.Problems)
	}
}

// What Codex's fingerprint skips or cannot hash is refused before anything is staged.
func TestAddRefusesWhatCodexDoesNotBind(t *testing.T) {
	cases := []struct {
		name, want string
		make       func(root string) error
	}{
		{"__pycache__", `under "__pycache__"`, func(r string) error {
			os.MkdirAll(filepath.Join(r, "hooks", "__pycache__"), 0o755)
			return os.WriteFile(filepath.Join(r, "hooks", "__pycache__", "check.cpython-312.pyc"), []byte("x"), 0o644)
		}},
		{"pyc", `under "helper.pyc"`, func(r string) error { return os.WriteFile(filepath.Join(r, "helper.pyc"), []byte("x"), 0o644) }},
		{"egg-info", `"x.egg-info"`, func(r string) error {
			os.MkdirAll(filepath.Join(r, "x.egg-info"), 0o755)
			return os.WriteFile(filepath.Join(r, "x.egg-info", "PKG-INFO"), []byte("x"), 0o644)
		}},
		{"link", "is a symbolic link", func(r string) error { return os.Symlink("server.js", filepath.Join(r, "alias.js")) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			if err := c.make(e.src); err != nil {
				t.Fatal(err)
			}
			e.approve(t)
			_, err := Add(e.trust, e.load(), e.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if names, _ := Staged(NewLayout(e.opts.VouchHome)); len(names) != 0 || len(e.calls(t)) != 0 {
				t.Errorf("something was staged or installed: %v %v", names, e.calls(t))
			}
		})
	}
}

func TestWithoutClient(t *testing.T) {
	e := newEnv(t)
	e.approve(t)
	fake := e.opts.Client
	e.opts.Client = ""
	res, err := Add(e.trust, e.load(), e.opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"codex plugin marketplace add " + NewLayout(e.opts.VouchHome).Root(), "codex plugin add guard@vouch --json"}
	if strings.Join(res.Commands, "\n") != strings.Join(want, "\n") || !strings.Contains(e.config(t), "trusted_content_hash") {
		t.Fatalf("commands %q, config:\n%s", res.Commands, e.config(t))
	}
	if st := StatusOf(e.trust, "guard", e.opts); !strings.Contains(messages(st.Problems), "not-installed: Codex does not have guard@vouch installed") {
		t.Errorf("status before the commands ran: %v", st.Problems)
	}
	// The person runs the commands; then a removal without the CLI switches everything
	// off and says what to run.
	e.opts.Client = fake
	if _, err := Add(e.trust, e.load(), e.opts); err != nil {
		t.Fatal(err)
	}
	e.opts.Client = ""
	rm, err := Remove("guard", e.opts)
	if err != nil || rm.Done || strings.Join(rm.Commands, "") != "codex plugin remove guard@vouch" {
		t.Fatalf("Remove = %+v, %v", rm, err)
	}
	cfg := e.config(t)
	if strings.Contains(cfg, "hooks.state") || !strings.Contains(cfg, "[plugins.\"guard@vouch\".mcp_servers.db]\nenabled = false") {
		t.Errorf("after a removal without the CLI, config.toml is:\n%s", cfg)
	}
	e.opts.Client = fake
	if rm, err := Remove("guard", e.opts); err != nil || !rm.Done || strings.Contains(e.config(t), "guard@vouch") {
		t.Errorf("finishing the removal: %+v, %v\n%s", rm, err, e.config(t))
	}
}

func TestStatusNamesAnotherInstall(t *testing.T) {
	e := newEnv(t)
	e.added(t)
	cfg := filepath.Join(e.opts.CodexHome, "config.toml")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n[plugins.\"guard@upstream\"]\nenabled = true\n")
	f.Close()
	st := StatusOf(e.trust, "guard", e.opts)
	if !strings.Contains(messages(st.Problems), "guard@upstream installed and enabled") {
		t.Errorf("status problems %v do not name guard@upstream", st.Problems)
	}
}

func FuzzInstalledPath(f *testing.F) {
	f.Add([]byte(`{"pluginId":"p@vouch","installedPath":"/h/plugins/cache/vouch/p/1.0.0"}`))
	f.Add([]byte("WARNING: x\n{\"installedPath\": 1}"))
	f.Add([]byte(`{"InstalledPath":"/x"}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		p, err := installedPath(out)
		if err == nil && p == "" {
			t.Fatal("an empty path was accepted")
		}
	})
}

// Codex's output is read with exact keys, as Codex writes them.
func TestInstalledPathExactKey(t *testing.T) {
	if _, err := installedPath([]byte(`{"InstalledPath":"/x"}`)); err == nil {
		t.Error("a key that differs in case was accepted")
	}
	if p, err := installedPath([]byte("note\n{\"installedPath\":\"/c/p\"}\n")); err != nil || p != "/c/p" {
		t.Errorf("installedPath = %q, %v", p, err)
	}
}

// A trusted project's .codex/config.toml that turns a switched-off server back on is
// named; an untrusted project's is not read (Codex 0.171.0 ignores it).
func TestStatusNamesAProjectOverride(t *testing.T) {
	e := newEnv(t)
	e.approve(t, "pre_tool_use", "stop:0:0", "skill:notes")
	e.opts.Partial = true
	if _, err := Add(e.trust, e.load(), e.opts); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".codex"), 0o755)
	os.WriteFile(filepath.Join(project, ".codex", "config.toml"), []byte("[plugins.\"guard@vouch\".mcp_servers.db]\nenabled = true\n"), 0o644)
	cfg := filepath.Join(e.opts.CodexHome, "config.toml")
	appendTo := func(s string) {
		f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	appendTo("\n[projects." + tomlString(project) + "]\ntrust_level = \"untrusted\"\n")
	if st := StatusOf(e.trust, "guard", e.opts); len(st.Problems) != 0 {
		t.Fatalf("an untrusted project: %v", st.Problems)
	}
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(data), `trust_level = "untrusted"`, `trust_level = "trusted"`, 1)), 0o600)
	st := StatusOf(e.trust, "guard", e.opts)
	if !strings.Contains(messages(st.Problems), "project-override: the trusted project's "+filepath.Join(project, ".codex", "config.toml")+" turns the MCP server db of guard@vouch back on") {
		t.Errorf("a trusted project: %v", st.Problems)
	}
}

// A Claude Code plugin, whose manifest Codex reads, is enforced the same way (Codex
// 0.171.0 installs such a plugin from vouch's marketplace, observed).
func TestAddClaudeManifestPlugin(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.src, ".claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(e.src, ".codex-plugin", "plugin.json"), filepath.Join(e.src, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(e.src, ".codex-plugin"))
	res := e.added(t)
	if len(res.Trusted) != 2 || !strings.HasSuffix(res.Installed, "plugins/cache/vouch/guard/local") {
		t.Errorf("Add = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(res.Staged, ".claude-plugin", "plugin.json")); err != nil {
		t.Errorf("the Claude manifest was not staged: %v", err)
	}
	if st := StatusOf(e.trust, "guard", e.opts); len(st.Problems) != 0 {
		t.Errorf("status: %v", st.Problems)
	}
}

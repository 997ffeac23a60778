package dalo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestToolFileRules covers the rules that need a file system: symlinks, the exec bit,
// special files.
func TestToolFileRules(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, pkg string)
		code  string
	}{
		{"entry is a symlink", func(t *testing.T, pkg string) {
			os.Rename(filepath.Join(pkg, "context.mjs"), filepath.Join(pkg, "real.mjs"))
			os.Symlink("real.mjs", filepath.Join(pkg, "context.mjs"))
		}, "tool-entry-symlink"},
		{"entry under a symlinked directory", func(t *testing.T, pkg string) {
			os.MkdirAll(filepath.Join(pkg, "real"), 0o755)
			os.Rename(filepath.Join(pkg, "context.mjs"), filepath.Join(pkg, "real/context.mjs"))
			os.Symlink("real", filepath.Join(pkg, "lib"))
			testtree.Replace(t, filepath.Join(pkg, "PLUGIN.toml"), `entry = "context.mjs"`, `entry = "lib/context.mjs"`)
		}, "tool-entry-symlink"},
		{"entry is a directory", func(t *testing.T, pkg string) {
			os.Remove(filepath.Join(pkg, "context.mjs"))
			os.MkdirAll(filepath.Join(pkg, "context.mjs"), 0o755)
		}, "tool-entry-not-regular"},
		{"executable without exec bit", func(t *testing.T, pkg string) {
			testtree.Replace(t, filepath.Join(pkg, "PLUGIN.toml"), `runtime = "node"`, `runtime = "executable"`)
			os.Chmod(filepath.Join(pkg, "context.mjs"), 0o644)
		}, "tool-entry-not-executable"},
		{"file is a symlink", func(t *testing.T, pkg string) {
			os.Symlink("context.mjs", filepath.Join(pkg, "alias.mjs"))
			testtree.Replace(t, filepath.Join(pkg, "PLUGIN.toml"), "availability = \"required\"\n", "availability = \"required\"\nfiles = [\"alias.mjs\"]\n")
		}, "tool-file-symlink"},
		{"symlink elsewhere in the package", func(t *testing.T, pkg string) {
			os.Symlink("/etc/passwd", filepath.Join(pkg, "passwd"))
		}, "unsafe_plugin_package_entry"},
		{"fifo in the package", func(t *testing.T, pkg string) {
			testtree.Fifo(t, filepath.Join(pkg, "pipe"))
		}, "unsafe_plugin_package_entry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, exampleSource)
			tc.setup(t, filepath.Join(dir, "plugins/design-review"))
			p := loadOne(t, dir, Options{})
			if !hasCode(p, tc.code) || p.Valid() {
				t.Errorf("codes %v lack %s (valid %v)", allCodes(p), tc.code, p.Valid())
			}
		})
	}
	t.Run("executable with exec bit", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		pkg := filepath.Join(dir, "plugins/design-review")
		testtree.Replace(t, filepath.Join(pkg, "PLUGIN.toml"), `runtime = "node"`, `runtime = "executable"`)
		os.Chmod(filepath.Join(pkg, "context.mjs"), 0o755)
		p := loadOne(t, dir, Options{})
		if !p.Valid() {
			t.Fatalf("codes %v", allCodes(p))
		}
		if f := p.Component(model.KindTool, "context").Files[0]; !f.Exec {
			t.Errorf("exec bit not recorded: %+v", f)
		}
	})
}

// TestContractsBindBytes: a README edit keeps every digest; a tool byte change changes the
// tool's digest and its hook's; a hook field change changes only the hook.
func TestContractsBindBytes(t *testing.T) {
	dir := copyTree(t, exampleSource)
	pkg := filepath.Join(dir, "plugins/design-review")
	digests := func() (string, string, string) {
		p := loadOne(t, dir, Options{})
		tool := p.Component(model.KindTool, "context")
		hook := p.Component(model.KindHook, "review-context")
		if tool.Contract == nil || hook.Contract == nil {
			t.Fatalf("no contracts: %v", allCodes(p))
		}
		if v, _ := hook.Contract.Fields.Get("tool_digest"); v != tool.Contract.MustDigest() {
			t.Errorf("hook tool_digest %v != tool digest", v)
		}
		return tool.Contract.MustDigest(), hook.Contract.MustDigest(), p.FilesDigest
	}
	t0, h0, f0 := digests()
	loadertest.WriteFile(t, filepath.Join(pkg, "README.md"), "# notes\n")
	t1, h1, f1 := digests()
	if t1 != t0 || h1 != h0 {
		t.Error("a README edit changed a contract digest")
	}
	if f1 == f0 {
		t.Error("the package files digest ignored a new file")
	}
	testtree.Replace(t, filepath.Join(pkg, "context.mjs"), "check colour contrast", "exfiltrate")
	t2, h2, _ := digests()
	if t2 == t1 || h2 == h1 {
		t.Error("changed tool bytes kept the tool or hook digest")
	}
	testtree.Replace(t, filepath.Join(pkg, "PLUGIN.toml"), "timeout_ms = 2000", "timeout_ms = 3000")
	t3, h3, _ := digests()
	if t3 != t2 || h3 == h2 {
		t.Error("a hook timeout change must change only the hook digest")
	}
	os.Chmod(filepath.Join(pkg, "context.mjs"), 0o755)
	t4, _, _ := digests()
	if t4 == t3 {
		t.Error("the exec bit is not part of the tool contract")
	}
}

// TestHookSupport checks every admitted combination against both providers, and the
// audience rules that make a combination unsupported.
func TestHookSupport(t *testing.T) {
	cases := []struct {
		subject, phase, effect, policy, vis string
		claude, codex                       model.SupportStatus
		event                               string
	}{
		{"session", "end", "observe", "report", "user", model.Supported, model.Supported, "SessionEnd (exact)"},
		{"session", "end", "observe", "report", "model_and_user", model.NotSupported, model.NotSupported, ""},
		{"user_prompt", "before", "observe", "report", "user", model.Supported, model.Supported, "UserPromptSubmit"},
		{"user_prompt", "before", "add_context", "fail_open", "model_and_user", model.Supported, model.Supported, "UserPromptSubmit"},
		{"user_prompt", "before", "allow_deny", "fail_closed", "user", model.Supported, model.Supported, "UserPromptSubmit"},
		{"tool_call", "before", "observe", "report", "user", model.Supported, model.Supported, "PreToolUse"},
		{"tool_call", "before", "add_context", "report", "user", model.Supported, model.Supported, "PreToolUse"},
		{"tool_call", "before", "allow_deny", "fail_closed", "user", model.Supported, model.Supported, "PreToolUse"},
		{"tool_call", "before", "rewrite_input", "fail_closed", "user", model.Supported, model.Supported, "PreToolUse"},
		{"tool_call", "after", "observe", "report", "user", model.Supported, model.Supported, "PostToolUse"},
		{"tool_call", "after", "add_context", "report", "user", model.Supported, model.Supported, "PostToolUse"},
		{"tool_call", "after", "replace_output", "report", "user", model.Supported, model.NotSupported, "PostToolUse"},
		{"workflow", "completion_attempt", "observe", "report", "user", model.Supported, model.Supported, "Stop"},
		{"workflow", "completion_attempt", "continue_workflow", "fail_closed", "model_and_user", model.Supported, model.Supported, "Stop"},
		{"workflow", "completion_attempt", "continue_workflow", "report", "model_and_user", model.NotSupported, model.Supported, "Stop"},
	}
	for _, tc := range cases {
		h := hookDesc{Subject: tc.subject, Phase: tc.phase, Effect: tc.effect, FailurePolicy: tc.policy, ErrorVisibility: tc.vis}
		cb := findCombo(tc.subject, tc.phase)
		if cb == nil || !slices.Contains(cb.effects, tc.effect) {
			t.Errorf("%+v not admitted", tc)
			continue
		}
		s := hookSupport(h, cb)
		if s[0].Provider != model.ClientClaudeCode || s[0].Version != ClaudeBaseline || s[1].Provider != model.ClientCodex || s[1].Version != CodexBaseline {
			t.Fatalf("support order/baselines: %+v", s)
		}
		if s[0].Status != tc.claude || s[1].Status != tc.codex {
			t.Errorf("%s/%s/%s %s %s: claude %s codex %s, want %s %s", tc.subject, tc.phase, tc.effect, tc.policy, tc.vis, s[0].Status, s[1].Status, tc.claude, tc.codex)
		}
		if tc.event != "" && s[0].Status == model.Supported && !strings.Contains(s[0].Detail, tc.event) {
			t.Errorf("claude detail %q lacks %q", s[0].Detail, tc.event)
		}
	}
	// Anything outside the table is not admitted.
	for _, bad := range [][3]string{{"user_prompt", "after", "observe"}, {"session", "before", "observe"}, {"user_prompt", "before", "rewrite_input"}, {"session", "end", "add_context"}} {
		if cb := findCombo(bad[0], bad[1]); cb != nil && slices.Contains(cb.effects, bad[2]) {
			t.Errorf("%v admitted", bad)
		}
	}
}

// TestProviderReports: an optional hook only Claude supports leaves Codex supported with
// the hook listed; a required one makes Codex unsupported.
func TestProviderReports(t *testing.T) {
	base := exampleManifest(t)
	replace := strings.NewReplacer(`subject = "user_prompt"`, `subject = "tool_call"`, `phase = "before"`, `phase = "after"`, `effect = "add_context"`, `effect = "replace_output"`)
	m := replace.Replace(base)
	p := withManifest(t, m)
	if p.Valid() {
		// still valid: Claude supports it
	} else {
		t.Fatalf("required replace_output hook: %v", allCodes(p))
	}
	if p.Providers[0].Status != model.Supported || p.Providers[1].Status != model.NotSupported || strings.Join(p.Providers[1].UnsupportedHooks, ",") != "review-context" {
		t.Errorf("required: %+v", p.Providers)
	}
	opt := strings.Replace(strings.Replace(m, "requirement = \"required\"\ntimeout_ms", "requirement = \"optional\"\ntimeout_ms", 1), "blocking_scope = \"matched_event\"\n", "blocking_scope = \"matched_event\"\nfallback = \"omit\"\n", 1)
	p = withManifest(t, opt)
	if !p.Valid() || p.Providers[1].Status != model.Supported || len(p.Providers[1].UnsupportedHooks) != 1 {
		t.Errorf("optional: %v %+v", allCodes(p), p.Providers)
	}
	noHooks := base[:strings.Index(base, "[[hook]]")]
	p = withManifest(t, noHooks)
	if p.Providers[0].Status != model.NotApplicable || p.Providers[1].Status != model.NotApplicable {
		t.Errorf("no hooks: %+v", p.Providers)
	}
}

func TestHookSummaryNamesBindingData(t *testing.T) {
	h := hookDesc{Subject: "user_prompt", Phase: "before", Effect: "allow_deny", FailurePolicy: "fail_closed", ErrorVisibility: "user",
		Bindings: []bindingDesc{{Input: "p", Field: "prompt.text"}, {Input: "d", Field: "session.cwd"}}, TimeoutMS: 1500, Requirement: "required"}
	s := hookSummary(h, &toolDesc{Entry: "bin/guard", Runtime: "executable"})
	want := "before every user prompt; runs `guard` directly as an executable; receives the text of every prompt typed (the tool sees every prompt) and the session working directory; may block the prompt; if it fails, the prompt is denied and the failure is reported to the user."
	if s[0] != want {
		t.Errorf("got  %q\nwant %q", s[0], want)
	}
	if !strings.Contains(s[len(s)-1], "1500 ms") {
		t.Errorf("timeout sentence %q", s[len(s)-1])
	}
}

// TestReferences covers member and dependency resolution within one source.
func TestReferences(t *testing.T) {
	pluginToml := func(name, id, extra string) string {
		s := "schema_version = 1\n\n[plugin]\nname = \"" + name + "\"\ndescription = \"d\"\n"
		if id != "" {
			s += "id = \"" + id + "\"\n"
		}
		return s + extra
	}
	member := func(ref, req string) string {
		return "\n[[plugin.members]]\nref = \"" + ref + "\"\nrequirement = \"" + req + "\"\n"
	}
	requires := func(ref, req string) string {
		return "\n[[plugin.requires]]\nref = \"" + ref + "\"\nrequirement = \"" + req + "\"\n"
	}
	find := func(ps []*model.Package, name string) *model.Package {
		for _, p := range ps {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no package %s", name)
		return nil
	}
	t.Run("external optional is visible and valid", func(t *testing.T) {
		dir := t.TempDir()
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/a/PLUGIN.toml"), pluginToml("a", "", member("skill:company:review", "optional")+requires("plugin:company:base", "optional")))
		p := loadOne(t, dir, Options{})
		if !p.Valid() || p.Members[0].Status != "unavailable_external" || p.Dependencies[0].Status != "unavailable_external" {
			t.Errorf("%v %+v %+v", allCodes(p), p.Members, p.Dependencies)
		}
		if !hasCode(p, "unresolved_member") || !hasCode(p, "unresolved_dependency") {
			t.Errorf("optional omissions not visible: %v", allCodes(p))
		}
	})
	t.Run("cycle", func(t *testing.T) {
		dir := t.TempDir()
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/a/PLUGIN.toml"), pluginToml("a", "", requires("plugin:b", "required")))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/b/PLUGIN.toml"), pluginToml("b", "", requires("plugin:a", "required")))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/c/PLUGIN.toml"), pluginToml("c", "", requires("plugin:a", "optional")))
		ps := Load(dir, Options{})
		for _, n := range []string{"a", "b"} {
			p := find(ps, n)
			if p.Valid() || p.Dependencies[0].Status != "required_dependency_cycle" || !hasCode(p, "required_dependency_cycle") {
				t.Errorf("%s: %v %+v", n, allCodes(p), p.Dependencies)
			}
		}
		if c := find(ps, "c"); !c.Valid() || c.Dependencies[0].Status != "resolved" {
			t.Errorf("c: %v %+v", allCodes(c), c.Dependencies)
		}
	})
	t.Run("optional cycle is allowed", func(t *testing.T) {
		dir := t.TempDir()
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/a/PLUGIN.toml"), pluginToml("a", "", requires("plugin:b", "optional")))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/b/PLUGIN.toml"), pluginToml("b", "", requires("plugin:a", "required")))
		for _, p := range Load(dir, Options{}) {
			if !p.Valid() {
				t.Errorf("%s: %v", p.Name, allCodes(p))
			}
		}
	})
	t.Run("resolve by id, ambiguous slot/id, duplicate ids", func(t *testing.T) {
		dir := t.TempDir()
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/a/PLUGIN.toml"), pluginToml("a", "org.alpha", requires("plugin:org.alpha", "required")+requires("plugin:b", "optional")))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/b/PLUGIN.toml"), pluginToml("b", "", ""))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/c/PLUGIN.toml"), pluginToml("c", "b", ""))
		loadertest.WriteFile(t, filepath.Join(dir, "plugins/d/PLUGIN.toml"), pluginToml("d", "", requires("plugin:a", "required")))
		ps := Load(dir, Options{})
		a := find(ps, "a")
		if a.Dependencies[0].Status != "required_dependency_cycle" {
			t.Errorf("self by id: %+v", a.Dependencies[0])
		}
		if a.Dependencies[1].Status != "ambiguous" || !hasCode(a, "ambiguous_plugin_reference") {
			t.Errorf("ambiguous: %+v %v", a.Dependencies[1], allCodes(a))
		}
		if d := find(ps, "d"); d.Valid() || !hasCode(d, "required_member_blocked") {
			t.Errorf("d requires invalid a: %v", allCodes(d))
		}
		dir2 := t.TempDir()
		loadertest.WriteFile(t, filepath.Join(dir2, "plugins/a/PLUGIN.toml"), pluginToml("a", "same", ""))
		loadertest.WriteFile(t, filepath.Join(dir2, "plugins/b/PLUGIN.toml"), pluginToml("b", "same", ""))
		for _, p := range Load(dir2, Options{}) {
			if p.Valid() || !hasCode(p, "duplicate_plugin_stable_id") {
				t.Errorf("%s: %v", p.Name, allCodes(p))
			}
		}
	})
	t.Run("instruction files", func(t *testing.T) {
		cases := []struct {
			name  string
			setup func(dir string)
			ok    bool
		}{
			{"real", func(dir string) { loadertest.WriteFile(t, filepath.Join(dir, "instructions/x.md"), "# X\n") }, true},
			{"txt", func(dir string) { loadertest.WriteFile(t, filepath.Join(dir, "instructions/x.txt"), "# X\n") }, false},
			{"not utf8", func(dir string) { loadertest.WriteFile(t, filepath.Join(dir, "instructions/x.md"), "\xff\xfe") }, false},
			{"symlink", func(dir string) {
				loadertest.WriteFile(t, filepath.Join(dir, "other.md"), "# X\n")
				os.Symlink("../other.md", filepath.Join(dir, "instructions/x.md"))
			}, false},
			{"over 1 MiB", func(dir string) {
				loadertest.WriteFile(t, filepath.Join(dir, "instructions/x.md"), strings.Repeat("a", 1<<20+1))
			}, false},
			{"directory", func(dir string) { os.MkdirAll(filepath.Join(dir, "instructions/x.md"), 0o755) }, false},
		}
		for _, tc := range cases {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "instructions"), 0o755)
			loadertest.WriteFile(t, filepath.Join(dir, "plugins/a/PLUGIN.toml"), pluginToml("a", "", member("instruction:x", "required")))
			tc.setup(dir)
			p := loadOne(t, dir, Options{})
			status := p.Members[0].Status
			if (status == "resolved") != tc.ok || p.Valid() != tc.ok {
				t.Errorf("%s: status %s valid %v %v", tc.name, status, p.Valid(), allCodes(p))
			}
			if !tc.ok && status != "missing" {
				t.Errorf("%s: status %s, want missing", tc.name, status)
			}
			if tc.ok && p.Component(model.KindInstruction, "x") == nil {
				t.Errorf("%s: no instruction component", tc.name)
			}
		}
	})
	t.Run("optional missing skill and agent with fallback", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		testtree.Replace(t, filepath.Join(dir, "plugins/design-review/PLUGIN.toml"), "[[tool]]",
			"[[plugin.members]]\nref = \"skill:absent\"\nrequirement = \"optional\"\n\n[[plugin.members]]\nref = \"agent:reviewer\"\nrequirement = \"optional\"\nfallback = { kind = \"inline\", skill = \"skill:design-review\" }\n\n[[tool]]")
		p := loadOne(t, dir, Options{})
		if !p.Valid() {
			t.Fatalf("optional omissions invalidated the package: %v", allCodes(p))
		}
		var missing int
		for _, m := range p.Members {
			if m.Status == "missing" {
				missing++
			}
		}
		if missing != 2 {
			t.Errorf("members %+v", p.Members)
		}
		loadertest.WriteFile(t, filepath.Join(dir, "agents/reviewer.md"), "# reviewer\n")
		if p := loadOne(t, dir, Options{}); p.Members[3].Status != "resolved" {
			t.Errorf("agent file not resolved: %+v", p.Members[3])
		}
	})
	t.Run("required skill invalid blocks", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		loadertest.WriteFile(t, filepath.Join(dir, "skills/design-review/SKILL.md"), "---\nname: other-name\n---\nbody\n")
		p := loadOne(t, dir, Options{})
		if p.Valid() || !hasCode(p, "required_member_blocked") {
			t.Errorf("codes %v", allCodes(p))
		}
	})
}

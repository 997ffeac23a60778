package clibench

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"vouch/internal/testtree"
)

// guardPlugin is a Claude Code plugin with one MCP server and a few files its closure
// binds: what the guard hashes on every MCP call.
var guardPlugin = map[string]string{
	".claude-plugin/plugin.json": `{"name": "p", "version": "1.0.0"}`,
	".mcp.json":                  `{"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/server.mjs"]}}}`,
	"server.mjs":                 "import './lib.mjs';\nconsole.log('db');\n",
	"lib.mjs":                    "export const x = 1;\n",
	"skills/notes/SKILL.md":      "---\nname: notes\ndescription: notes\n---\nWrite notes.\n",
}

// BenchmarkGuardPreToolUse: the guard's PreToolUse handler (vouch hook
// claude-pre-tool-use, the hook JSON on stdin) deciding one MCP call to an enforced,
// approved plugin's server, as Claude Code runs it: a whole process per call. The
// baseline is a minimal Go program reading the same stdin, so the figure is the
// guard's cost above any process start. gate-ms is the budget's figure (the gate build).
func BenchmarkGuardPreToolUse(b *testing.B) {
	dir := b.TempDir()
	home, claudeDir, src := filepath.Join(dir, "vouch"), filepath.Join(dir, "claude"), filepath.Join(dir, "p")
	testtree.WriteFiles(b, src, guardPlugin)
	os.MkdirAll(claudeDir, 0o755)
	env := []string{"CLAUDE_CONFIG_DIR=" + claudeDir, "VOUCH_HOME=" + home, "PATH=" + dir}
	vouch(b, env, "approve", "--yes", src, "p#mcp-server:db")
	vouch(b, env, "enforce", "claude", "add", src) // no claude on PATH: prints the commands
	input := filepath.Join(dir, "input.json")
	os.WriteFile(input, []byte(`{"session_id":"s","hook_event_name":"PreToolUse","cwd":"`+dir+`","tool_name":"mcp__plugin_p_db__query","tool_input":{"sql":"select 1"},"mcp_server":{"name":"plugin:p:db","source":"plugin"}}`), 0o644)

	mini := filepath.Join(dir, "mini")
	os.WriteFile(mini+".go", []byte("package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() { io.Copy(io.Discard, os.Stdin) }\n"), 0o644)
	if out, err := exec.Command("go", "build", "-o", mini, mini+".go").CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	args := []string{"--home", home, "hook", "claude-pre-tool-use"}
	null := devNull(b)
	check := exec.Command(gateBin, args...)
	check.Env = append(os.Environ(), env...)
	in, _ := os.Open(input)
	check.Stdin = in
	if out, err := check.CombinedOutput(); err != nil || len(out) != 0 {
		b.Fatalf("the guard does not let the approved call through: %v\n%s", err, out)
	}
	in.Close()
	runCmdIn(b, env, input, null, gateBin, args...)
	runCmdIn(b, env, input, null, mini)
	var gs, vs, bs []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		gs = append(gs, runCmdIn(b, env, input, null, gateBin, args...).wall)
		bs = append(bs, runCmdIn(b, env, input, null, mini).wall)
		vs = append(vs, runCmdIn(b, env, input, null, vouchBin, args...).wall)
	}
	b.StopTimer()
	mg, mb, mv := median(gs), median(bs), median(vs)
	b.ReportMetric(float64(mg.Microseconds())/1000, "gate-ms")
	b.ReportMetric(float64(mv.Microseconds())/1000, "vouch-ms")
	b.ReportMetric(float64(mb.Microseconds())/1000, "baseline-ms")
	b.ReportMetric(float64(mg)/float64(mb), "gate-x-baseline")
	b.ReportMetric(0, "ns/op")
}

package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HeavyPlugin writes one plugin read by both Claude Code and Codex, shaped like the large
// skill collections people install: .claude-plugin/plugin.json and
// .codex-plugin/plugin.json over one skills/ folder of n skills, each SKILL.md with a
// realistic body (headings, lists, links, inline code, a fenced example, an HTML comment,
// a dynamic-context line in every tenth), most skills with a reference file and some with
// a script, plus hooks and an MCP server. It returns the number of files written.
func HeavyPlugin(dir string, n int) (int, error) {
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name": "heavy", "version": "3.2.1", "description": "A large skill collection.", "author": {"name": "Generator"}}` + "\n",
		".codex-plugin/plugin.json":  `{"name": "heavy", "version": "3.2.1", "description": "A large skill collection.", "skills": "./skills/", "hooks": "./hooks/hooks.json", "mcpServers": "./.mcp.json"}` + "\n",
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/guard.sh"}]}], "SessionStart": [{"hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/context.mjs\""}]}]}}` + "\n",
		".mcp.json":                  `{"mcpServers": {"docs": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/server/index.mjs"]}}}` + "\n",
		"scripts/guard.sh":           "#!/bin/sh\nexit 0\n",
		"scripts/context.mjs":        "console.log('context');\n",
		"server/index.mjs":           "import process from 'node:process';\nprocess.stdin.pipe(process.stdout);\n",
		"README.md":                  "# heavy\n\n" + strings.Repeat("A large generated skill collection for benchmarks. ", 40) + "\n",
		"LICENSE":                    "MIT License\n",
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("skill-%03d", i)
		files["skills/"+name+"/SKILL.md"] = heavySkill(name, i)
		if i%5 != 4 {
			files["skills/"+name+"/references/guide.md"] = "# " + name + " guide\n\n" + strings.Repeat("Background the skill loads on demand, with examples and caveats. ", 30) + "\n"
		}
		if i%12 == 0 {
			files["skills/"+name+"/scripts/run.sh"] = "#!/bin/sh\n# helper for " + name + "\nprintf '%s\\n' \"$@\"\n"
		}
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}

func heavySkill(name string, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: Use when the user asks about task %d; explains the procedure, the checks and the output format step by step.\nlicense: MIT\nmetadata:\n  category: generated\n---\n\n", name, i)
	fmt.Fprintf(&b, "# %s\n\n<!-- maintainer note: keep the steps short -->\n\n", name)
	b.WriteString("## When to use\n\nUse this skill when the request mentions `task` names, file paths such as `src/app/main.go`, or asks for a *review* of **changes**. See [the guide](references/guide.md) and <https://example.com/docs> for background.\n\n")
	b.WriteString("## Steps\n\n")
	for s := 1; s <= 24; s++ {
		fmt.Fprintf(&b, "%d. Read the input for step %d, check `value_%d` against the rules, and note anything unexpected in the report ([details](references/guide.md#step-%d)).\n", s, s, s, s)
	}
	b.WriteString("\n## Example\n\n```bash\ngit diff --stat HEAD~1\ngo test ./...\n```\n\n")
	if i%10 == 0 {
		b.WriteString("Current branch: !`git branch --show-current`\n\n")
	}
	b.WriteString("## Output\n\n| field | meaning |\n|---|---|\n| status | pass or fail |\n| notes | what was found |\n\n> Keep the report under twenty lines.\n")
	return b.String()
}

package claudecode

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"vouch/internal/testtree"
)

const benchPlugins = 1000

var (
	benchOnce  sync.Once
	benchDir   string
	benchRoots []string
	benchFiles []string
	benchErr   error
)

// genPlugin writes one realistic plugin: manifest, three hook handlers, two MCP servers,
// two scripts, a skill, a command and an agent (10 files).
func genPlugin(dir string, i int) ([]string, error) {
	files := map[string]string{
		manifestFile:             fmt.Sprintf(`{"name": "p%04d", "version": "1.0.%d", "description": "Generated plugin %d."}`, i, i, i),
		hooksFile:                `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/guard.sh", "timeout": 5}, {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/scripts/guard.sh --commit", "if": "Bash(git commit:*)"}]}], "SessionStart": [{"hooks": [{"type": "command", "command": "node \"${CLAUDE_PLUGIN_ROOT}/scripts/ctx.mjs\""}]}]}}`,
		mcpFile:                  `{"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/ctx.mjs"], "env": {"URL": "${DB_URL:-x}"}}, "web": {"type": "http", "url": "https://mcp.example.invalid/mcp"}}}`,
		"scripts/guard.sh":       "#!/bin/sh\n" + fmt.Sprintf("# plugin %d\n", i) + "exit 0\n",
		"scripts/ctx.mjs":        "console.log('context');\n",
		"skills/notes/SKILL.md":  "---\nname: notes\ndescription: Takes notes about the work.\n---\nTake notes.\n",
		"commands/deploy.md":     "---\ndescription: Deploy.\nallowed-tools: Bash(make deploy)\n---\nRun make deploy.\n",
		"agents/reviewer.md":     "---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nReview.\n",
		"README.md":              "# generated\n",
		"scripts/lib/helpers.sh": "x=1\n",
	}
	var out []string
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func benchCollection(b *testing.B) {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "vouch-cc-bench-")
		for i := 0; i < benchPlugins && benchErr == nil; i++ {
			root := filepath.Join(benchDir, fmt.Sprintf("p%04d", i))
			var fs []string
			fs, benchErr = genPlugin(root, i)
			benchRoots = append(benchRoots, root)
			benchFiles = append(benchFiles, fs...)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func loadAll(b *testing.B) {
	for _, r := range benchRoots {
		p := LoadPlugin(r, Options{})
		if !p.Valid() || len(p.Components) != 8 {
			b.Fatalf("%s: valid=%v components=%d %v", r, p.Valid(), len(p.Components), codes(p))
		}
	}
}

// BenchmarkLoadRatio loads 1,000 generated plugins (8 components each, every hook and
// stdio server bound to its plugin's whole closure) and reports the time against hashing
// the same files in process and with the sha256sum program, measured in the same run.
func BenchmarkLoadRatio(b *testing.B) {
	benchCollection(b)
	testtree.AgainstHashing(b, "load", benchFiles, func() { loadAll(b) })
}

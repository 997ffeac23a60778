// Package gen writes synthetic Agent Plugins collections for tests and benchmarks. The
// packages are valid and shaped like real ones (skills with a script, a bundled MCP server
// and remote ones) so that a benchmark exercises every path of the loader.
package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Generate writes n Agent Plugins packages under dir (created if needed), named
// plugin-0000, plugin-0001, ...: each with three skills (one with a script), an mcp.json
// with five servers (two bundled stdio, one bare stdio, one Streamable HTTP with a header,
// one legacy SSE), a bundled executable, a README and a license.
func Generate(dir string, n int) error {
	for i := 0; i < n; i++ {
		if err := writePackage(filepath.Join(dir, fmt.Sprintf("plugin-%04d", i)), i); err != nil {
			return err
		}
	}
	return nil
}

func writePackage(root string, i int) error {
	name := fmt.Sprintf("plugin-%04d", i)
	files := map[string]string{
		"plugin.json": fmt.Sprintf(`{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": %q,
  "version": "1.%d.0",
  "description": "Synthetic plugin %d for benchmarks.",
  "author": {"name": "Generator", "email": "gen@example.com"},
  "license": "MIT",
  "keywords": ["bench", "synthetic"],
  "extensions": {"dev.pi.agent": {"prompts": ["./prompts"]}}
}
`, name, i%100, i),
		"mcp.json": fmt.Sprintf(`{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
  "mcpServers": {
    "indexer": {"type": "stdio", "command": "./bin/server", "args": ["--index", "${PLUGIN_DATA}/index"], "env": {"LOG_LEVEL": "info"}, "cwd": "${PLUGIN_ROOT}"},
    "watcher": {"type": "stdio", "command": "./bin/server", "args": ["--watch", "${PLUGIN_ROOT}/skills"]},
    "node-tools": {"type": "stdio", "command": "node", "args": ["--version"]},
    "search": {"type": "streamable-http", "url": "https://search%d.example.com/mcp", "headers": {"X-Tenant": "public"}},
    "events": {"type": "sse", "url": "http://127.0.0.1:%d/sse"}
  }
}
`, i, 9000+i%1000),
		"bin/server":                        "#!/bin/sh\n# synthetic MCP server " + name + "\nexec cat\n",
		"README.md":                         "# " + name + "\n\n" + strings.Repeat("A synthetic plugin used to benchmark vouch. ", 20) + "\n",
		"LICENSE":                           "MIT License\n\nCopyright (c) generator\n",
		"skills/summarize/SKILL.md":         skill("summarize", "Summarize a document into key points.", 40),
		"skills/review/SKILL.md":            skill("review", "Review a change for correctness and style.", 60),
		"skills/deploy/SKILL.md":            skill("deploy", "Deploy the service with the bundled rollback script.", 30),
		"skills/deploy/scripts/rollback.sh": "#!/bin/sh\necho rolling back\n",
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(rel, "bin/") || strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			return err
		}
	}
	return nil
}

func skill(name, desc string, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\nlicense: MIT\nmetadata:\n  author: generator\n---\n\n# %s\n\n", name, desc, name)
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "%d. Step %d of the %s procedure: read the input, check it, and report.\n", i+1, i+1, name)
	}
	return b.String()
}

// Minimal writes n Agent Plugins packages under dir, named plugin-00000, plugin-00001,
// ...: each is a folder with a valid plugin.json and nothing else. Discovery tests use
// it for sources of thousands of packages, where loading is not what is measured.
func Minimal(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("plugin-%05d", i)
		root := filepath.Join(dir, name)
		if err := os.Mkdir(root, 0o755); err != nil {
			return err
		}
		manifest := fmt.Sprintf(`{"$schema":"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json","name":%q}`, name)
		if err := os.WriteFile(filepath.Join(root, "plugin.json"), []byte(manifest), 0o644); err != nil {
			return err
		}
	}
	return nil
}

package agentplugins

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/review/fsguard"
)

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func manifestText(name string) string {
	return `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "` + name + `"}`
}

const mcpHead = `{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": `

func mustRoot(t testing.TB, dir string) *fsguard.Root {
	t.Helper()
	r, err := fsguard.Open(dir, fsguard.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

package agentplugins

import (
	"testing"

	"vouch/review/fsguard"
)

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

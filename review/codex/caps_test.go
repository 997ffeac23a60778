package codex

import (
	"fmt"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestServersOverBoundBlocked: a .mcp.json holding more servers than vouch reads makes
// every server of that file unapprovable instead of approving the first 1,024 while Codex
// starts all of them; a hooks file over the bound is rejected whole.
func TestServersOverBoundBlocked(t *testing.T) {
	servers := make([]string, 1025)
	for i := range servers {
		servers[i] = fmt.Sprintf(`"s%d":{"command":"./run","args":["%d"]}`, i, i)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{manifestFile: `{"name":"x"}`, "run": "x", defaultHooksFile: okHooks,
		".mcp.json": `{"mcpServers":{` + strings.Join(servers, ",") + `}}`})
	p := Load(dir, Options{})
	listed := 0
	for _, c := range p.Components {
		if c.Kind == model.KindMCPServer {
			listed++
			if c.Contract != nil {
				t.Fatalf("%s is approvable though .mcp.json was cut", c.ID)
			}
		}
	}
	if listed == 0 {
		t.Fatalf("no server listed: %v", loadertest.Codes(p))
	}
	if h := p.Component(model.KindHook, "hooks/hooks.json:stop:0:0"); h == nil || h.Contract == nil {
		t.Fatal("the whole hooks file keeps its hook approvable")
	}
}

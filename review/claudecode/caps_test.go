package claudecode

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
)

// manyHandlers is a hooks file whose one matcher group holds n handlers.
func manyHandlers(n int) string {
	h := make([]string, n)
	for i := range h {
		h[i] = fmt.Sprintf(`{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/run.sh %d"}`, i)
	}
	return `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [` + strings.Join(h, ",") + `]}]}}`
}

// TestHooksOverBoundBlocked: a hooks file with more entries than vouch reads makes every
// hook of that file unapprovable, with the reason, instead of approving the first 1,024
// while Claude runs all of them.
func TestHooksOverBoundBlocked(t *testing.T) {
	for _, n := range []int{1024, 1025} {
		dir := hostilePlugin(t)
		testtree.WriteFile(t, filepath.Join(dir, hooksFile), manyHandlers(n), 0o644)
		p := LoadPlugin(dir, Options{})
		hooks := 0
		for _, c := range p.Components {
			if c.Kind != model.KindHook {
				continue
			}
			hooks++
			if over := n > 1024; over != (c.Contract == nil) {
				t.Fatalf("%d handlers: %s has contract %v", n, c.ID, c.Contract != nil)
			}
		}
		if hooks == 0 {
			t.Fatalf("%d handlers: no hook listed: %v", n, codes(p))
		}
	}
}

// TestServersOverBoundBlocked: the same for a .mcp.json whose servers, or one server's
// args, number more than vouch reads; the other files' components stay approvable.
func TestServersOverBoundBlocked(t *testing.T) {
	many := func(n int, f func(i int) string) string {
		out := make([]string, n)
		for i := range out {
			out[i] = f(i)
		}
		return strings.Join(out, ",")
	}
	for name, mcp := range map[string]string{
		"servers": `{"mcpServers": {` + many(1025, func(i int) string { return fmt.Sprintf(`"s%d": {"command": "node", "args": ["x.js"]}`, i) }) + `}}`,
		"args":    `{"mcpServers": {"s0": {"command": "node", "args": [` + many(1025, func(i int) string { return fmt.Sprintf(`"a%d"`, i) }) + `]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := hostilePlugin(t)
			testtree.WriteFile(t, filepath.Join(dir, mcpFile), mcp, 0o644)
			p := LoadPlugin(dir, Options{})
			s := p.Component(model.KindMCPServer, "s0")
			if s == nil || s.Contract != nil || !slices.ContainsFunc(codes(p), func(c string) bool { return strings.HasSuffix(c, "entries-limit") }) {
				t.Fatalf("s0 must be listed and unapprovable: %v", codes(p))
			}
			if h := p.Component(model.KindHook, "PreToolUse:0:0"); h == nil || h.Contract == nil {
				t.Fatalf("the hooks file is whole: its hook stays approvable")
			}
		})
	}
}

// TestNamedFilesUncapped: every plugin file a command names is checked, the 17th too.
func TestNamedFilesUncapped(t *testing.T) {
	words := make([]string, 20)
	for i := range words {
		words[i] = fmt.Sprintf(`"${CLAUDE_PLUGIN_ROOT}"/missing%d.sh`, i)
	}
	c := hookWith(t, strings.Join(words, " && "))
	missing := 0
	for _, d := range c.Diagnostics {
		if d.Code == "named-file-missing" {
			missing++
		}
	}
	if missing != 20 {
		t.Fatalf("%d missing files reported, want 20", missing)
	}
}

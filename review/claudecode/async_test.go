package claudecode

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vouch/model"
)

// An async hook cannot block: Claude Code (2.1.332) does not wait for it, so its hook
// capability says non-blocking where a synchronous one on the same event says can-block.
func TestAsyncHookIsNonBlocking(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name": "async-test"}`,
		"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
			{"type": "command", "command": "true"},
			{"type": "command", "command": "true", "async": true}
		]}]}}`,
	}
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := Load(dir, Options{})
	if len(pkgs) != 1 {
		t.Fatalf("%d packages", len(pkgs))
	}
	var scopes [][]string
	for _, c := range pkgs[0].Components {
		for _, cp := range c.Capabilities {
			if c.Kind == model.KindHook && cp.Kind == model.CapHook {
				scopes = append(scopes, cp.Scope)
			}
		}
	}
	if len(scopes) != 2 {
		t.Fatalf("hook capabilities %v, want two", scopes)
	}
	if !slices.Contains(scopes[0], "can-block") || slices.Contains(scopes[0], "non-blocking") {
		t.Fatalf("the synchronous hook: %v", scopes[0])
	}
	if !slices.Contains(scopes[1], "non-blocking") || slices.Contains(scopes[1], "can-block") {
		t.Fatalf("the async hook: %v", scopes[1])
	}
}

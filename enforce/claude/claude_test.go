package claude

import (
	"encoding/json"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"p", true}, {"my-plugin_1.2", true}, {"", false}, {".", false}, {"..", false}, {".hidden", false},
		{"a/b", false}, {`a\b`, false}, {"vouch-guard", false}, {"-x", false}, {"é", false}, {"a b", false},
	} {
		if err := checkName(tc.name); (err == nil) != tc.ok {
			t.Errorf("checkName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestSplitServer(t *testing.T) {
	for _, tc := range []struct {
		in, p, s string
		ok       bool
	}{
		{"plugin:p:db", "p", "db", true},
		{"plugin:p:a:b", "p", "a:b", true},
		{"plugin::db", "", "", false},
		{"plugin:p:", "", "", false},
		{"db", "", "", false},
		{"Plugin:p:db", "", "", false},
	} {
		p, s, ok := SplitServer(tc.in)
		if ok != tc.ok || ok && (p != tc.p || s != tc.s) {
			t.Errorf("SplitServer(%q) = %q %q %v", tc.in, p, s, ok)
		}
	}
}

func TestParseHookInputExactKeys(t *testing.T) {
	in, err := ParseHookInput([]byte(`{"hook_event_name":"PreToolUse","tool_name":"t","MCP_SERVER":{"name":"plugin:a:b"},"mcp_server":{"Name":"plugin:c:d"}}`))
	if err != nil || in.MCPServer != "" || in.ToolName != "t" {
		t.Fatalf("keys in another case were read: %+v %v", in, err)
	}
	in, err = ParseHookInput([]byte(`{"mcp_server":{"name":"plugin:a:b"},"mcp_server":{"name":"plugin:c:d"}}`))
	if err != nil || in.MCPServer != "plugin:c:d" {
		t.Fatalf("a repeated key is not read as JSON.parse reads it (the last): %+v %v", in, err)
	}
}

// FuzzHookInput: any stdin gives a HookInput or an error, never a panic, and what is
// accepted is JSON.
func FuzzHookInput(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"mcp__plugin_p_db__q","mcp_server":{"name":"plugin:p:db","source":"plugin"}}`))
	f.Add([]byte(`{"mcp_server":"x"}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseHookInput(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted what is not JSON: %q -> %+v", data, in)
		}
	})
}

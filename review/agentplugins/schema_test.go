package agentplugins

import (
	"math/rand"
	"strings"
	"testing"
)

// mcp() validates the top level with the servers emptied and each server against the
// variant its "type" selects, instead of the whole document once. This proves the two
// agree on random documents: the whole document is schema-valid exactly when the top
// level and every server's selected variant are.
func TestSplitMCPValidationMatchesWholeDocument(t *testing.T) {
	sch, err := loadSchemas()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(3))
	values := []any{"", "x", "./bin/s", "${PLUGIN_ROOT}/x", "${PLUGIN_DATA}", "https://e.example/mcp", 1.0, true, nil,
		[]any{}, []any{"a", "b"}, []any{1.0}, map[string]any{}, map[string]any{"K": "v"}, map[string]any{"K": 1.0},
		map[string]any{"PLUGIN_ROOT": "x"}}
	fields := []string{"command", "args", "env", "cwd", "url", "headers", "extra"}
	types := []any{"stdio", "streamable-http", "sse", "http", 1.0, nil, "absent"}
	server := func() any {
		if r.Intn(20) == 0 {
			return values[r.Intn(len(values))] // not even an object
		}
		s := map[string]any{}
		if typ := types[r.Intn(len(types))]; typ != "absent" {
			s["type"] = typ
		}
		for _, f := range fields {
			if r.Intn(3) == 0 {
				s[f] = values[r.Intn(len(values))]
			}
		}
		// Bias towards valid servers so both answers occur often.
		switch s["type"] {
		case "stdio":
			if r.Intn(2) == 0 {
				s = map[string]any{"type": "stdio", "command": "node", "args": []any{"a"}}
			}
		case "streamable-http", "sse":
			if r.Intn(2) == 0 {
				s = map[string]any{"type": s["type"], "url": "https://e.example/mcp", "headers": map[string]any{"X": "y"}}
			}
		}
		return s
	}
	valid, invalid := 0, 0
	for i := 0; i < 5000; i++ {
		servers := map[string]any{}
		for j := r.Intn(4); j > 0; j-- {
			servers[string(rune('a'+j))] = server()
		}
		doc := map[string]any{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": servers}
		whole := sch.mcp.Validate(doc) == nil
		split := sch.mcp.Validate(map[string]any{"$schema": doc["$schema"], "mcpServers": map[string]any{}}) == nil
		for _, s := range servers {
			obj, _ := s.(map[string]any)
			typ, _ := obj["type"].(string)
			if v := sch.variants[typ]; obj == nil || v == nil || v.Validate(s) != nil {
				split = false
			}
		}
		if whole != split {
			t.Fatalf("whole document valid=%v, split valid=%v: %v", whole, split, doc)
		}
		if whole {
			valid++
		} else {
			invalid++
		}
	}
	if valid < 500 || invalid < 500 {
		t.Fatalf("unbalanced corpus: %d valid, %d invalid", valid, invalid)
	}
}

// expandPlaceholders must do what the §9.2 single pass does; strings.Replacer with the
// two pairs is that definition.
func TestExpandPlaceholdersMatchesReplacer(t *testing.T) {
	root, data := "/p/${PLUGIN_DATA}", "/d/${PLUGIN_ROOT}"
	want := strings.NewReplacer("${PLUGIN_ROOT}", root, "${PLUGIN_DATA}", data)
	pieces := []string{"${PLUGIN_ROOT}", "${PLUGIN_DATA}", "${PLUGIN_", "${PLUGIN", "${", "$", "{", "}", "ROOT}", "DATA}", "x", "/", "é"}
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := r.Intn(8); j > 0; j-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		if got, w := expandPlaceholders(s, root, data), want.Replace(s); got != w {
			t.Fatalf("%q: got %q, want %q", s, got, w)
		}
	}
}

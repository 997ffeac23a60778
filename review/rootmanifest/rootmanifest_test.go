package rootmanifest

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/review/internal/loadertest"
)

func TestDeclaresSchema(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "a"}`, true},
		{`{"$schema": "https://agent-plugins.org/schemas/2.0.0/plugin.schema.json"}`, true}, // the loader judges the revision
		{`{"name": "catalogue-entry", "category": "lsp"}`, false},
		{`{"$Schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"}`, false}, // exact key, as the clients read it
		{`{"$schema": "https://json.schemastore.org/package.json"}`, false},
		{`{"$schema": 1}`, false},
		{`["$schema"]`, false},
		{`{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"`, false}, // not JSON
		{``, false},
	} {
		if got := DeclaresSchema([]byte(tc.json)); got != tc.want {
			t.Errorf("DeclaresSchema(%s) = %v, want %v", tc.json, got, tc.want)
		}
	}
}

func TestIsAgentPlugins(t *testing.T) {
	dir := t.TempDir()
	if IsAgentPlugins(dir) {
		t.Error("a folder without plugin.json")
	}
	loadertest.WriteFile(t, filepath.Join(dir, File), `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"}`)
	if !IsAgentPlugins(dir) {
		t.Error("an Agent Plugins plugin.json")
	}
	other := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(other, "real.json"), `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"}`)
	outside := t.TempDir()
	os.Symlink(filepath.Join(other, "real.json"), filepath.Join(outside, File))
	if IsAgentPlugins(outside) {
		t.Error("a plugin.json that links out of the folder is not read")
	}
}

func FuzzDeclaresSchema(f *testing.F) {
	f.Add([]byte(`{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"}`))
	f.Add([]byte(`{"name": "x"}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) { DeclaresSchema(data) })
}

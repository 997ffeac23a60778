package mcpb

import (
	"path/filepath"
	"slices"
	"testing"

	"vouch/internal/testtree"
	"vouch/review/internal/loadertest"
)

// TestExamples keeps examples/mcpb and its README honest. The verdicts are the ones
// `mcpb validate` 2.1.2 gives these folders (checked offline when they were written).
func TestExamples(t *testing.T) {
	for name, want := range map[string]struct {
		valid bool
		code  string
	}{
		"notes-server":         {valid: true},
		"broken-unknown-field": {valid: false, code: "manifest-unknown-field"},
	} {
		p := Load("../../examples/mcpb/"+name, Options{})
		if p.Valid() != want.valid || want.code != "" && !slices.Contains(loadertest.Codes(p), want.code) {
			t.Errorf("%s: valid %v codes %v", name, p.Valid(), loadertest.Codes(p))
		}
	}
}

// TestExamplePacked packs examples/mcpb/notes-server into a .mcpb, as the README says the
// tests do, and checks that the archive is the same package as the folder.
func TestExamplePacked(t *testing.T) {
	const dir = "../../examples/mcpb/notes-server"
	out := filepath.Join(t.TempDir(), "notes-server-1.2.0.mcpb")
	testtree.Zip(t, dir, out)
	folder, packed := Load(dir, Options{}), Load(out, Options{})
	if !packed.Valid() || packed.Name != folder.Name || packed.Components[0].Contract.MustDigest() != folder.Components[0].Contract.MustDigest() {
		t.Fatalf("packed: valid %v name %s diags %v", packed.Valid(), packed.Name, packed.Diagnostics)
	}
}

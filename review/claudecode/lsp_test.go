package claudecode

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestLSPDeclaredTwice: an LSP server declared both in a marketplace entry and in the
// plugin's .lsp.json is one server (Claude Code starts it once), bound to the .lsp.json
// declaration; where the entry's declaration differs, the contract binds it too.
func TestLSPDeclaredTwice(t *testing.T) {
	pkgs := Load("testdata/cases/lsp-twice", Options{})
	byName := map[string]*model.Package{}
	for _, p := range pkgs {
		byName[p.Name] = p
	}
	for _, tc := range []struct {
		plugin, server string
		differs        bool
	}{{"same", "rust", false}, {"differs", "lua", true}} {
		p := byName[tc.plugin]
		if p == nil {
			t.Fatalf("no package %s among %d", tc.plugin, len(pkgs))
		}
		var servers []*model.Component
		for _, c := range p.Components {
			if c.Kind == model.KindLSPServer {
				servers = append(servers, c)
			}
		}
		if len(servers) != 1 || servers[0].ID != tc.server || servers[0].Validity != model.Valid {
			t.Fatalf("%s: %d LSP servers (%v), want one valid %s", tc.plugin, len(servers), servers, tc.server)
		}
		c := servers[0]
		var d *model.Diagnostic
		for i := range c.Diagnostics {
			if c.Diagnostics[i].Code == "lsp-server-declared-twice" {
				d = &c.Diagnostics[i]
			}
		}
		if d == nil || !strings.Contains(d.Message, "from .lsp.json") || !strings.Contains(d.Message, "Claude Code "+ClaudeVersion) {
			t.Fatalf("%s: no diagnostic saying which declaration runs: %+v", tc.plugin, c.Diagnostics)
		}
		_, bound := c.Contract.Fields.Get("declared_again")
		if bound != tc.differs || strings.Contains(d.Message, "differs") != tc.differs {
			t.Errorf("%s: entry's declaration bound %v, said to differ %v; want %v", tc.plugin, bound, strings.Contains(d.Message, "differs"), tc.differs)
		}
	}
	// The entry's differing args change what is approved.
	one := byName["differs"].Component(model.KindLSPServer, "lua").Contract.MustDigest()
	alone := LoadPlugin("testdata/cases/lsp-twice/plugins/differs", Options{}).Component(model.KindLSPServer, "lua").Contract.MustDigest()
	if one == alone {
		t.Errorf("the entry's differing declaration is not part of the digest")
	}
}

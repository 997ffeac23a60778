package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// oracleCase is what Codex 0.169.0 answered for one fixture (testdata/codex-0.169.0.json):
// each fixture was installed from a scratch local marketplace named "oracle" under a
// scratch CODEX_HOME, offline (unshare -n), and app-server was asked hooks/list and
// plugin/read. /tmp paths are replaced by <root> (the install path) and <source>. Keys
// "example:<path>" are folders of examples/codex. Codex listed no apps for any fixture
// (plugin/read answers apps: [] offline, without a signed-in account), so apps are not
// compared.
type oracleCase struct {
	Installed bool `json:"installed"`
	Hooks     []struct {
		Key            string  `json:"key"`
		Matcher        *string `json:"matcher"`
		TimeoutSec     uint64  `json:"timeoutSec"`
		Async          bool    `json:"async"`
		Command        string  `json:"command"`
		Type           string  `json:"type"` // command or mcpTool
		DefinitionHash string  `json:"definitionHash"`
	} `json:"hooks"`
	HookWarnings []string `json:"hookWarnings"`
	Skills       []string `json:"skills"`
	MCPServers   []string `json:"mcpServers"`
	Version      *string  `json:"version"`
	Description  *string  `json:"description"`
}

func loadOracle(t *testing.T) map[string]oracleCase {
	t.Helper()
	b, err := os.ReadFile("testdata/codex-0.169.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]oracleCase
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMatchesCodex checks, for every fixture Codex was run on, that vouch lists exactly the
// hooks (key, matcher, timeout, async, command as substituted, definition hash), skills
// and MCP servers that Codex 0.169.0 reported.
func TestMatchesCodex(t *testing.T) {
	oracle := loadOracle(t)
	if len(oracle) < 15 {
		t.Fatalf("only %d oracle cases", len(oracle))
	}
	for name, want := range oracle {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata/cases", name)
			if rest, ok := strings.CutPrefix(name, "example:"); ok {
				dir = filepath.Join("../../examples/codex", rest)
			}
			pkg := Load(dir, Options{Marketplace: "oracle"})
			if !want.Installed {
				if !pkg.Rejected {
					t.Fatalf("Codex refused to install %s, vouch did not reject it", name)
				}
				return
			}
			if pkg.Rejected {
				t.Fatalf("Codex installed %s, vouch rejected it: %+v", name, pkg.Diagnostics)
			}
			shadowed := false
			for _, d := range pkg.Diagnostics {
				shadowed = shadowed || d.Code == "codex-manifest-shadowed"
			}
			if shadowed {
				// Codex read the root Agent Plugins manifest: this package must say that
				// Codex runs none of it.
				for _, c := range pkg.Components {
					if c.Support[0].Status != model.NotSupported {
						t.Errorf("%s: a shadowed package's component is marked supported", c.ID)
					}
				}
				return
			}
			var got []*model.Component
			for _, c := range pkg.Components {
				if c.Kind == model.KindHook && c.Validity == model.Valid {
					got = append(got, c)
				}
			}
			if len(got) != len(want.Hooks) {
				t.Fatalf("hooks: vouch %d, Codex %d (%v)", len(got), len(want.Hooks), ids(got))
			}
			for _, w := range want.Hooks {
				c := pkg.Component(model.KindHook, w.Key)
				if c == nil {
					t.Fatalf("Codex hook %s missing; vouch has %v", w.Key, ids(got))
				}
				f := c.Contract.Fields
				if h, _ := f.Get("codex_definition_hash"); h != w.DefinitionHash {
					t.Errorf("%s: definition hash %v, Codex %s", w.Key, h, w.DefinitionHash)
				}
				if tm, _ := f.Get("timeout"); tm != int64(w.TimeoutSec) {
					t.Errorf("%s: timeout %v, Codex %d", w.Key, tm, w.TimeoutSec)
				}
				if w.Type == "mcpTool" {
					if ty, _ := f.Get("type"); ty != "mcp_tool" {
						t.Errorf("%s: type %v, Codex mcpTool", w.Key, ty)
					}
					continue
				}
				if a, _ := f.Get("async"); a != w.Async {
					t.Errorf("%s: async %v, Codex %v", w.Key, a, w.Async)
				}
				m, _ := f.Get("matcher")
				if (w.Matcher == nil) != (m == nil) || w.Matcher != nil && m != *w.Matcher {
					t.Errorf("%s: matcher %v, Codex %v", w.Key, m, w.Matcher)
				}
				cmd, _ := f.Get("command")
				exp := expandPluginRoot(cmd.(string), "<root>")
				if exp != w.Command {
					t.Errorf("%s: command expands to %q, Codex ran %q", w.Key, exp, w.Command)
				}
			}
			if want.Skills != nil {
				var skills []string
				for _, c := range pkg.Components {
					if c.Kind == model.KindSkill {
						n, _ := c.Details.Get("name")
						skills = append(skills, pkg.Name+":"+n.(string))
					}
				}
				if strings.Join(sorted(skills), ",") != strings.Join(sorted(want.Skills), ",") {
					t.Errorf("skills: vouch %v, Codex %v", skills, want.Skills)
				}
			}
			if want.MCPServers != nil {
				var servers []string
				for _, c := range pkg.Components {
					if c.Kind == model.KindMCPServer && c.Validity == model.Valid {
						servers = append(servers, c.ID)
					}
				}
				if strings.Join(sorted(servers), ",") != strings.Join(sorted(want.MCPServers), ",") {
					t.Errorf("MCP servers: vouch %v, Codex %v", servers, want.MCPServers)
				}
			}
			// Every file Codex rejected whole is an error on the hooks, never silence.
			for _, w := range want.HookWarnings {
				if strings.HasPrefix(w, "failed to parse plugin hooks config") && !hasCode(pkg, "hooks-file-rejected") {
					t.Errorf("Codex rejected the hooks file (%s); vouch did not say so", w)
				}
				if strings.HasPrefix(w, "invalid matcher") && !hasCode(pkg, "hooks-matcher-invalid") {
					t.Errorf("Codex skipped a matcher group (%s); vouch did not say so", w)
				}
			}
		})
	}
}

func ids(cs []*model.Component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// hasCode reports whether the package or one of its components carries the diagnostic.
func hasCode(p *model.Package, code string) bool { return slices.Contains(loadertest.Codes(p), code) }

package codex

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// unnamedClients lists the modelled clients a sentence names without one of their
// releases.
func unnamedClients(text string) []string {
	var out []string
	for _, c := range model.Clients() {
		if len(c.Versions) == 0 || !regexp.MustCompile(`\b`+regexp.QuoteMeta(c.Name)+`\b`).MatchString(text) {
			continue
		}
		named := false
		for _, v := range c.Versions {
			named = named || regexp.MustCompile(`(^|[^.\d])`+regexp.QuoteMeta(v)+`($|[^.\d])`).MatchString(text)
		}
		if !named {
			out = append(out, c.Name)
		}
	}
	return out
}

// TestRareSummariesNameARelease: the summary lines and capability details no example or
// recorded fixture reaches (a PermissionRequest hook, a .mcp.json over the bound) name a
// release of each client they mention, as the release-sentence test of the review
// package holds the rest.
func TestRareSummariesNameARelease(t *testing.T) {
	servers := make([]string, 1025)
	for i := range servers {
		servers[i] = fmt.Sprintf(`"s%d":{"command":"./run","args":["%d"]}`, i, i)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		kind  model.Kind
	}{
		{"PermissionRequest hook", map[string]string{defaultHooksFile: `{"hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"./run"}]}]}}`}, model.KindHook},
		{".mcp.json over the bound", map[string]string{".mcp.json": `{"mcpServers":{` + strings.Join(servers, ",") + `}}`}, model.KindMCPServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{manifestFile: `{"name":"x"}`, "run": "x"})
			writeFiles(t, dir, tc.files)
			p := Load(dir, Options{})
			naming := 0
			reported := map[string]bool{}
			for _, c := range p.Components {
				texts := append([]string(nil), c.Summary...)
				for _, cp := range c.Capabilities {
					texts = append(texts, cp.Detail)
				}
				for _, s := range texts {
					if c.Kind == tc.kind && regexp.MustCompile(`\b(Codex|Claude Code)\b`).MatchString(s) {
						naming++
					}
					if who := unnamedClients(s); len(who) > 0 && !reported[s] {
						reported[s] = true
						t.Errorf("%s %s: names %s without one of its releases: %q", c.Kind, c.ID, strings.Join(who, ", "), s)
					}
				}
			}
			if naming == 0 {
				t.Errorf("no summary line or capability of a %s names a client: %v", tc.kind, loadertest.Codes(p)[:min(len(loadertest.Codes(p)), 5)])
			}
		})
	}
}

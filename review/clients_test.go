package review

import (
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
)

// TestSupportKeysAreClientIDs loads every example and every loader's test data and holds
// each support answer to the client registry: one id per client, whatever the format, so
// a report's support map never spells one client two ways.
func TestSupportKeysAreClientIDs(t *testing.T) {
	sources := []string{"../examples"}
	dirs, _ := filepath.Glob("*/testdata")
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.IsDir() && e.Name() != "fuzz" {
				sources = append(sources, filepath.Join(d, e.Name()))
			}
		}
	}
	seen := map[string]map[model.Format]bool{}
	for _, src := range sources {
		res, err := Open(Options{}, src)
		if err != nil {
			continue // a fixture that is not a source at all says nothing about support keys
		}
		for _, p := range res.Packages {
			for _, c := range p.Components {
				for _, s := range c.Support {
					if _, ok := model.LookupClient(s.Provider); !ok {
						t.Errorf("%s: %s %s#%s:%s names client %q, which the registry does not hold", src, p.Format, p.Name, c.Kind, c.ID, s.Provider)
					}
					if seen[s.Provider] == nil {
						seen[s.Provider] = map[model.Format]bool{}
					}
					seen[s.Provider][p.Format] = true
				}
			}
		}
	}
	// Every format of the table answered, so each is held to the registry above: a format
	// whose sources give no support answer would pass unchecked.
	answered := map[model.Format]bool{}
	for _, fs := range seen {
		for f := range fs {
			answered[f] = true
		}
	}
	for _, f := range formats {
		for _, name := range append([]model.Format{f.name}, f.emits...) {
			if !answered[name] {
				t.Errorf("no example or test data of format %s gave a support answer", name)
			}
		}
	}
	// The formats several clients read must use the same key for the same client.
	for _, id := range []string{model.ClientClaudeCode, model.ClientCodex} {
		if len(seen[id]) < 3 {
			t.Errorf("client %s answered in formats %v, want the Claude, Codex and skill formats at least", id, seen[id])
		}
	}
}

// TestClientVersionsReachLoaders: the release a caller names is the one every Claude
// Code and Codex answer is for, and a rule keyed by version follows it.
func TestClientVersionsReachLoaders(t *testing.T) {
	src := "claudecode/testdata/cases/pre-skill-shell"
	for _, v := range []struct {
		claude, codex string
		status        model.SupportStatus
	}{{"2.1.328", "0.169.0", model.NotSupported}, {"2.1.332", "0.171.0", model.Supported}} {
		res, err := Open(Options{ClientVersions: map[string]string{model.ClientClaudeCode: v.claude, model.ClientCodex: v.codex}}, src)
		if err != nil || len(res.Packages) != 1 {
			t.Fatalf("%v %v", err, res)
		}
		c := res.Packages[0].Component(model.KindHook, "PreSkillShellCommand:0:0")
		for _, s := range c.Support {
			want := map[string]string{model.ClientClaudeCode: v.claude, model.ClientCodex: v.codex}[s.Provider]
			if s.Version != want {
				t.Errorf("%s answers for %s, asked for %s", s.Provider, s.Version, want)
			}
			if s.Provider == model.ClientClaudeCode && s.Status != v.status {
				t.Errorf("Claude Code %s: %s, want %s", v.claude, s.Status, v.status)
			}
		}
	}
}

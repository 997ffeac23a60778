package codex

import (
	"strings"
	"testing"

	"vouch/review/jsontext"
)

// FuzzHooks: any bytes parse to a hooks document or a whole-file rejection, never a
// panic; what is accepted names only Codex's events and gives stable definition hashes.
// Seeds: testdata/fuzz/FuzzHooks (every fixture's hooks document and hostile shapes).
func FuzzHooks(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":0}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _, jerr := jsontext.Parse(data, jsontext.Limits)
		if jerr != nil {
			return
		}
		hf, herr := ParseHooks(doc)
		if herr != nil {
			if herr.Msg == "" {
				t.Fatal("a rejection must say why")
			}
			return
		}
		for _, ev := range hf.Events {
			if label, i := eventLabel(ev.Name); i < 0 || label != ev.Label {
				t.Fatalf("unknown event %q accepted", ev.Name)
			}
			for _, g := range ev.Groups {
				if g.Matcher != nil {
					checkMatcher(*g.Matcher)
				}
				for _, h := range g.Handlers {
					to, _ := effectiveTimeout(ev.Name, h)
					if to == 0 || ev.Name == "SessionEnd" && to > 3 {
						t.Fatalf("timeout %d for %s", to, ev.Name)
					}
					a := DefinitionHash(ev.Label, g.Matcher, h.Command, to, h.Async, h.StatusMessage)
					if a != DefinitionHash(ev.Label, g.Matcher, h.Command, to, h.Async, h.StatusMessage) || len(a) != len("sha256:")+64 {
						t.Fatalf("unstable hash %s", a)
					}
				}
			}
		}
	})
}

// FuzzManifest: any .codex-plugin/plugin.json (with a hooks file and a skill beside it)
// loads to a package with diagnostics, never a panic; an accepted package has a name and
// every component a kind and an id.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(`{"name":"p","version":"1","skills":"./s","hooks":{},"mcpServers":"./m.json","apps":"./"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			manifestFile:        string(data),
			defaultHooksFile:    `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}}`,
			"skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\nbody\n",
		})
		pkg := Load(dir, Options{})
		if pkg.Rejected {
			if len(pkg.Diagnostics) == 0 {
				t.Fatal("rejected without a diagnostic")
			}
			return
		}
		if pkg.Name == "" {
			t.Fatal("accepted package without a name")
		}
		for _, c := range pkg.Components {
			if c.Kind == "" || c.ID == "" || strings.ContainsRune(c.ID, 0) && c.Kind == "hook" {
				t.Fatalf("component %+v", c)
			}
		}
	})
}

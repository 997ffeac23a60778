package review

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

const skillMD = "---\nname: %s\ndescription: Does %s things.\n---\nBody.\n"

func skill(name string) string { return strings.ReplaceAll(skillMD, "%s", name) }

func formatsOf(res *Result) map[string]model.Format {
	out := map[string]model.Format{}
	for _, p := range res.Packages {
		out[p.Name] = p.Format
	}
	return out
}

func sourceCodes(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, d.Code+" "+filepath.Base(d.File))
	}
	return out
}

// TestSkillCollection: a folder of skill folders gives one package per skill, linked
// skill folders included (collections link them in), with refs that do not depend on
// which folder was reviewed.
func TestSkillCollection(t *testing.T) {
	home := t.TempDir()
	coll := filepath.Join(home, ".claude", "skills")
	loadertest.WriteFile(t, filepath.Join(coll, "alpha", "SKILL.md"), skill("alpha"))
	loadertest.WriteFile(t, filepath.Join(coll, "beta", "SKILL.md"), skill("beta"))
	loadertest.WriteFile(t, filepath.Join(home, "src", "gamma", "SKILL.md"), skill("gamma"))
	if err := os.Symlink(filepath.Join(home, "src", "gamma"), filepath.Join(coll, "gamma")); err != nil {
		t.Fatal(err)
	}
	res := mustOpen(t, Options{}, coll)
	f := formatsOf(res)
	if len(res.Packages) != 3 || f["alpha"] != model.FormatAgentSkills || f["beta"] != model.FormatAgentSkills || f["gamma"] != model.FormatAgentSkills {
		t.Fatalf("packages %v diags %v", f, res.Diagnostics)
	}
	refs := map[string]bool{}
	for _, p := range res.Packages {
		refs[p.Ref(p.Components[0])] = p.Valid()
	}
	one, _ := Open(Options{}, filepath.Join(coll, "alpha"))
	if p := one.Packages[0]; len(one.Packages) != 1 || !refs[p.Ref(p.Components[0])] {
		t.Fatalf("the skill alone has ref %s; the collection gave %v", p.Ref(p.Components[0]), refs)
	}
}

// TestManifestJSONOwners: manifest.json is MCPB's with a version field, Splice's with
// specVersion, and otherwise a source diagnostic, never a Splice error.
func TestManifestJSONOwners(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "bundle", "manifest.json"), `{"manifest_version":"0.3","name":"bundle","version":"1","description":"d","author":{"name":"a"},"server":{"type":"node","entry_point":"i.js","mcp_config":{"command":"node"}}}`)
	loadertest.WriteFile(t, filepath.Join(dir, "splice", "manifest.json"), `{"specVersion":1,"namespace":"a","name":"b","version":"1.0.0","description":"d"}`)
	loadertest.WriteFile(t, filepath.Join(dir, "splice", "SKILL.md"), "# b\n")
	loadertest.WriteFile(t, filepath.Join(dir, "webapp", "manifest.json"), `{"name":"My PWA","start_url":"/"}`)
	loadertest.WriteFile(t, filepath.Join(dir, "webapp", "SKILL.md"), skill("webapp"))
	var buf strings.Builder
	zw := zip.NewWriter(&nopWriter{&buf})
	w, _ := zw.Create("manifest.json")
	w.Write([]byte(`{"manifest_version":"0.3","name":"packed","version":"1","description":"d","author":{"name":"a"},"server":{"type":"node","entry_point":"i.js","mcp_config":{"command":"node"}}}`))
	zw.Close()
	loadertest.WriteFile(t, filepath.Join(dir, "packed.mcpb"), buf.String())
	res := mustOpen(t, Options{}, dir)
	f := formatsOf(res)
	if f["bundle"] != model.FormatMCPB || f["packed"] != model.FormatMCPB || f["@a/b"] != model.FormatSplice || f["webapp"] != model.FormatAgentSkills {
		t.Fatalf("formats %v", f)
	}
	if got := strings.Join(sourceCodes(res), ","); !strings.Contains(got, "manifest-unrecognized manifest.json") {
		t.Fatalf("source diagnostics %v", got)
	}
	for _, p := range res.Packages {
		for _, d := range p.Diagnostics {
			if strings.Contains(d.Message, "SKILL.md is missing") {
				t.Fatalf("%s: a Splice error for a non-Splice manifest: %v", p.Name, d)
			}
		}
	}
}

type nopWriter struct{ b *strings.Builder }

func (w *nopWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// TestClientFolders: plugin manifest folders are never package roots, and manifests of
// clients vouch does not read are named in source diagnostics.
func TestClientFolders(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{".claude-plugin", ".codex-plugin", ".cursor-plugin", ".kimi-plugin", ".devin-plugin"} {
		loadertest.WriteFile(t, filepath.Join(dir, "plug", d, "plugin.json"), `{"name":"plug"}`)
	}
	loadertest.WriteFile(t, filepath.Join(dir, "gem", "gemini-extension.json"), `{"name":"gem","version":"1.0.0"}`)
	loadertest.WriteFile(t, filepath.Join(dir, "power", "POWER.md"), "---\nname: power\n---\n")
	res := mustOpen(t, Options{}, dir)
	for _, p := range res.Packages {
		if strings.HasSuffix(p.Root, "-plugin") {
			t.Fatalf("%s became a %s package", p.Root, p.Format)
		}
	}
	got := strings.Join(sourceCodes(res), ",")
	for _, want := range []string{"manifest-not-read plugin.json", "manifest-not-read gemini-extension.json", "manifest-not-read POWER.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %s", want, got)
		}
	}
	if n := strings.Count(got, "manifest-not-read plugin.json"); n != 3 {
		t.Errorf("%d plugin manifests named (Cursor, Kimi, Devin), want 3: %s", n, got)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.File, ".cursor-plugin") && !strings.Contains(d.Message, "Cursor") {
			t.Errorf("the client is not named: %s", d.Message)
		}
	}
	res, _ = Open(Options{}, filepath.Join(dir, "plug", ".codex-plugin"))
	if len(res.Packages) != 0 || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "client-manifest-folder" {
		t.Fatalf("a manifest folder given directly: %v %v", res.Packages, res.Diagnostics)
	}
}

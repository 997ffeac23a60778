package splice

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"vouch/internal/testtree"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

type fixtureIndex struct {
	Sets map[string]struct {
		Files []struct {
			Path   string `json:"path"`
			Size   int64  `json:"size"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
		FilesDigest string `json:"filesDigest"`
		TarGz       struct {
			File      string `json:"file"`
			Size      int    `json:"size"`
			Integrity string `json:"integrity"`
		} `json:"tarGz"`
		JSONBundle struct {
			File      string `json:"file"`
			Size      int    `json:"size"`
			Integrity string `json:"integrity"`
		} `json:"jsonBundle"`
		NormalizedManifest json.RawMessage `json:"normalizedManifest"`
	} `json:"sets"`
}

const fixtures = "testdata/upstream/fixtures"

func loadIndex(t *testing.T) fixtureIndex {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx fixtureIndex
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Sets) < 3 {
		t.Fatalf("index lists %d sets", len(idx.Sets))
	}
	return idx
}

// The positive fixtures decode to exactly the listed files, byte for byte, with the
// listed integrity strings and filesDigest, from the archive, the bundle and the directory.
func TestFixturesDecode(t *testing.T) {
	idx := loadIndex(t)
	for name, set := range idx.Sets {
		dir := filepath.Join(fixtures, name)
		for _, art := range []struct {
			file, integrity string
			size            int
		}{
			{set.TarGz.File, set.TarGz.Integrity, set.TarGz.Size},
			{set.JSONBundle.File, set.JSONBundle.Integrity, set.JSONBundle.Size},
		} {
			t.Run(name+"/"+art.file, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join(dir, art.file))
				if err != nil {
					t.Fatal(err)
				}
				if len(data) != art.size {
					t.Fatalf("size %d, index says %d", len(data), art.size)
				}
				if got := Integrity(data); got != art.integrity {
					t.Fatalf("integrity %s, want %s", got, art.integrity)
				}
				files, err := Decode(data)
				if err != nil {
					t.Fatal(err)
				}
				if len(files) != len(set.Files) {
					t.Fatalf("%d files, want %d", len(files), len(set.Files))
				}
				for i, f := range sortedPaths(files) {
					want := set.Files[i]
					if f.Path != want.Path || int64(len(f.Content)) != want.Size || sha256Hex(f.Content) != want.SHA256 {
						t.Errorf("file %d = %s (%d, %s), want %+v", i, f.Path, len(f.Content), sha256Hex(f.Content), want)
					}
					disk, err := os.ReadFile(filepath.Join(dir, "files", filepath.FromSlash(f.Path)))
					if err != nil || string(disk) != string(f.Content) {
						t.Errorf("%s differs from files/%s", f.Path, f.Path)
					}
				}
				if got := FilesDigest(files); got != set.FilesDigest {
					t.Errorf("filesDigest %s, want %s", got, set.FilesDigest)
				}
				pkg := Load(filepath.Join(dir, art.file), Options{})
				if !pkg.Valid() || pkg.Rejected {
					t.Fatalf("package invalid: %+v", pkg.Diagnostics)
				}
				if pkg.Integrity != art.integrity || pkg.FilesDigest != set.FilesDigest {
					t.Errorf("package integrity %s / %s", pkg.Integrity, pkg.FilesDigest)
				}
				for _, want := range set.Files {
					got, err := pkg.Reader.ReadFile(want.Path)
					if err != nil || sha256Hex(got) != want.SHA256 {
						t.Errorf("Reader %s: %v", want.Path, err)
					}
				}
				if _, err := pkg.Reader.ReadFile("../etc/passwd"); err == nil {
					t.Error("Reader served a path outside the package")
				}
			})
		}
		t.Run(name+"/dir", func(t *testing.T) {
			pkg := Load(filepath.Join(dir, "files"), Options{})
			if !pkg.Valid() {
				t.Fatalf("invalid: %+v", pkg.Diagnostics)
			}
			if pkg.Integrity != "" {
				t.Errorf("a directory has no artifact integrity, got %s", pkg.Integrity)
			}
			if pkg.FilesDigest != set.FilesDigest {
				t.Errorf("filesDigest %s, want %s", pkg.FilesDigest, set.FilesDigest)
			}
		})
	}
}

// The same package reviewed as a directory, an archive and a bundle gives the same
// components and the same contract digests: approvals carry across the three forms.
func TestSameDigestsAcrossForms(t *testing.T) {
	dir := filepath.Join(fixtures, "skills-example")
	forms := []string{"files", "skills-example.tar.gz", "skills-example.splice-bundle.json"}
	var first map[string]string
	for _, f := range forms {
		pkg := Load(filepath.Join(dir, f), Options{})
		got := map[string]string{}
		for _, c := range pkg.Components {
			if c.Contract == nil {
				t.Fatalf("%s: %s has no contract", f, pkg.Ref(c))
			}
			got[pkg.Ref(c)] = c.Contract.MustDigest()
		}
		if first == nil {
			first = got
			continue
		}
		if !reflect.DeepEqual(first, got) {
			t.Errorf("%s digests %v differ from %v", f, got, first)
		}
	}
	for _, want := range []string{"@splice/example#tool:hello", "@splice/example#tool:stats", "@splice/example#skill:example"} {
		if _, ok := first[want]; !ok {
			t.Errorf("missing component %s in %v", want, first)
		}
	}
}

func TestToolComponent(t *testing.T) {
	pkg := Load(filepath.Join(fixtures, "skills-example", "skills-example.tar.gz"), Options{})
	c := pkg.Component(model.KindTool, "hello")
	if c == nil {
		t.Fatal("no hello tool")
	}
	for k, want := range map[string]any{"mcpName": "splice_example_hello", "qualifiedName": "@splice/example.hello", "name": "example.hello", "timeoutMs": 5000} {
		if v, _ := c.Details.Get(k); v != want {
			t.Errorf("Details[%s] = %v, want %v", k, v, want)
		}
	}
	// Closure: every package file, manifest.json and the entry included.
	var paths []string
	for _, f := range c.Contract.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"SKILL.md", "examples/hello.json", "examples/stats.json", "manifest.json", "tools/hello.ts", "tools/stats.ts"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("closure %v, want %v", paths, want)
	}
	if v, _ := c.Contract.Fields.Get("timeoutMs"); v != 5000 {
		t.Errorf("contract timeoutMs %v", v)
	}
	if !strings.Contains(strings.Join(c.Summary, " "), "child processes") {
		t.Errorf("summary does not say what is always denied: %q", c.Summary)
	}
	if !strings.Contains(strings.Join(c.Summary, " "), "none (sandboxed") {
		t.Errorf("summary does not describe the (empty) permissions: %q", c.Summary)
	}
}

// Changing a file the tool can read changes its digest, manifest.json included (a tool
// can import it, so even another tool's description is part of what it runs with).
func TestContractSensitivity(t *testing.T) {
	base := filepath.Join(fixtures, "skills-example", "files")
	digest := func(mutate func(dir string)) string {
		dir := t.TempDir()
		testtree.Copy(t, base, dir)
		mutate(dir)
		pkg := Load(dir, Options{})
		c := pkg.Component(model.KindTool, "hello")
		if c == nil || c.Contract == nil {
			t.Fatalf("no hello contract: %+v", pkg.Diagnostics)
		}
		return c.Contract.MustDigest()
	}
	orig := digest(func(string) {})
	if d := digest(func(dir string) { appendFile(t, filepath.Join(dir, "examples/hello.json"), " ") }); d == orig {
		t.Error("editing a package file the tool can read kept the digest")
	}
	if d := digest(func(dir string) { appendFile(t, filepath.Join(dir, "tools/hello.ts"), "//x\n") }); d == orig {
		t.Error("editing the entry kept the digest")
	}
	if d := digest(func(dir string) {
		testtree.Replace(t, filepath.Join(dir, "manifest.json"), "Count characters", "Tally characters")
	}); d == orig {
		t.Error("editing manifest.json, which the tool can import, kept the digest")
	}
	if d := digest(func(dir string) {
		testtree.Replace(t, filepath.Join(dir, "manifest.json"), `"network": []`, `"network": ["api.example.com"]`)
	}); d == orig {
		t.Error("adding a network permission kept the digest")
	}
	// Splice never packs a hidden file, but a tool run from the folder can read it.
	if d := digest(func(dir string) { os.WriteFile(filepath.Join(dir, ".env"), []byte("X=1"), 0o644) }); d == orig {
		t.Error("adding a hidden file the tool can read kept the digest")
	}
}

// A directory is run as it is, so the files Splice never packs (hidden names,
// node_modules) are still importable by its tools: changing one must change every tool's
// digest, while the filesDigest (what an archive of the folder would hold) stays put.
func TestUnpackedFilesInClosure(t *testing.T) {
	base := filepath.Join(fixtures, "skills-example", "files")
	dir := t.TempDir()
	testtree.Copy(t, base, dir)
	write := func(rel, content string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".hidden.js", "export const x = 1;\n")
	write("node_modules/x/index.js", "export default 1;\n")
	write("tools/.lib/util.js", "export const y = 1;\n")
	load := func() *model.Package {
		t.Helper()
		pkg := Load(dir, Options{})
		if !pkg.Valid() {
			t.Fatalf("invalid: %+v", loadertest.Diagnostics(pkg))
		}
		return pkg
	}
	digests := func(pkg *model.Package) map[string]string {
		out := map[string]string{}
		for _, c := range pkg.Components {
			if c.Kind == model.KindTool {
				out[c.ID] = c.Contract.MustDigest()
			}
		}
		return out
	}
	pkg := load()
	orig, filesDigest := digests(pkg), pkg.FilesDigest
	if len(orig) != 2 {
		t.Fatalf("tools %v", orig)
	}
	var paths []string
	for _, f := range pkg.Component(model.KindTool, "hello").Contract.Files {
		paths = append(paths, f.Path)
	}
	for _, want := range []string{".hidden.js", "node_modules/x/index.js", "tools/.lib/util.js"} {
		if !slices.Contains(paths, want) {
			t.Errorf("closure %v lacks %s", paths, want)
		}
		if _, err := pkg.Reader.ReadFile(want); err != nil {
			t.Errorf("Reader cannot re-read %s, so trust could not re-hash it: %v", want, err)
		}
	}
	for _, d := range pkg.Diagnostics {
		if d.Code == "package-file-skipped" && (d.Severity != model.SeverityWarning || !strings.Contains(d.Message, "approved")) {
			t.Errorf("skipped-file diagnostic %+v: want a warning that says it is approved with the folder", d)
		}
	}
	for _, rel := range []string{".hidden.js", "node_modules/x/index.js", "tools/.lib/util.js"} {
		appendFile(t, filepath.Join(dir, rel), "// changed\n")
		pkg := load()
		now := digests(pkg)
		for id, d := range now {
			if d == orig[id] {
				t.Errorf("changing %s kept tool %s's digest", rel, id)
			}
		}
		if pkg.FilesDigest != filesDigest {
			t.Errorf("changing %s (never packed) changed the filesDigest", rel)
		}
		orig = now
	}
	// What vouch cannot read whole cannot be approved: a symlink Splice would skip is
	// still followed by a tool run from the folder.
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "node_modules/x/secret.js")); err != nil {
		t.Skip(err)
	}
	pkg = Load(dir, Options{})
	if pkg.Valid() || findDiag(pkg, "package-symlink") == nil {
		t.Errorf("a symlink under node_modules was accepted: %+v", loadertest.Diagnostics(pkg))
	}
}

func appendFile(t *testing.T, p, s string) {
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, s...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidManifests(t *testing.T) {
	data, err := os.ReadFile("testdata/upstream/invalid-manifests.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			ID       string          `json:"id"`
			Manifest json.RawMessage `json:"manifest"`
			Errors   []string        `json:"errors"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 10 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	for _, c := range doc.Cases {
		t.Run(c.ID, func(t *testing.T) {
			_, issues := ValidateManifestJSON(c.Manifest)
			got := []string{}
			for _, is := range issues {
				got = append(got, is.Message)
				if is.Code == "" {
					t.Errorf("issue without code: %s", is.Message)
				}
			}
			if !reflect.DeepEqual(got, append([]string{}, c.Errors...)) {
				t.Errorf("messages\n got %q\nwant %q", got, c.Errors)
			}
		})
	}
}

func TestDescribeTools(t *testing.T) {
	data, err := os.ReadFile("testdata/upstream/describeTools.expected.json")
	if err != nil {
		t.Fatal(err)
	}
	exp, err := parseJSON(string(data))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := exp.(*object).get("@splice/example")
	mdata, _ := os.ReadFile(filepath.Join(fixtures, "skills-example/files/manifest.json"))
	m, issues := ValidateManifestJSON(mdata)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	if got, w := jsString(describeTools(m)), jsString(want); got != w {
		t.Errorf("describeTools\n got %s\nwant %s", got, w)
	}
	others, _ := exp.(*object).get("annotationsOfOtherExamples")
	for _, name := range []string{"skills-files", "skills-http", "skills-web", "agent-repo-scout"} {
		mdata, err := os.ReadFile("testdata/upstream/manifests/" + name + ".manifest.json")
		if err != nil {
			t.Fatal(err)
		}
		m, issues := ValidateManifestJSON(mdata)
		if len(issues) > 0 {
			t.Fatalf("%s: %v", name, issues)
		}
		expList, _ := others.(*object).get(name)
		var got []any
		for _, d := range describeTools(m) {
			d := d.(*object)
			o := newObject()
			for _, k := range []string{"mcpName", "qualifiedName", "timeoutMs", "annotations"} {
				v, _ := d.get(k)
				o.set(k, v)
			}
			got = append(got, o)
		}
		if got == nil {
			got = []any{}
		}
		if g, w := jsString(got), jsString(expList); g != w {
			t.Errorf("%s\n got %s\nwant %s", name, g, w)
		}
		// The component Details carry the same annotations.
	}
}

func TestNormalizedManifestMatchesIndex(t *testing.T) {
	idx := loadIndex(t)
	for name, set := range idx.Sets {
		mdata, _ := os.ReadFile(filepath.Join(fixtures, name, "files/manifest.json"))
		m, issues := ValidateManifestJSON(mdata)
		if len(issues) > 0 {
			t.Fatalf("%s: %v", name, issues)
		}
		want, _ := parseJSON(string(set.NormalizedManifest))
		if g, w := jsString(normalized(m)), jsString(want); g != w {
			t.Errorf("%s normalized\n got %s\nwant %s", name, g, w)
		}
	}
}

// normalized rebuilds upstream's normalized manifest value (key order included).
func normalized(m *Manifest) *object {
	o := newObject()
	o.set("specVersion", 1.0)
	o.set("namespace", m.Namespace)
	o.set("name", m.Name)
	o.set("version", m.Version)
	o.set("description", m.Description)
	rt := newObject()
	rt.set("type", m.RuntimeType)
	if m.MinNodeVersion != "" {
		rt.set("minNodeVersion", m.MinNodeVersion)
	}
	o.set("runtime", rt)
	o.set("permissions", permissionsObject(m.Permissions))
	tools := []any{}
	for _, t := range m.Tools {
		to := newObject()
		to.set("name", t.Name)
		to.set("description", t.Description)
		to.set("entry", t.Entry)
		to.set("input", t.Input)
		if t.Output != nil {
			to.set("output", t.Output)
		}
		if t.TimeoutMs != 0 {
			to.set("timeoutMs", float64(t.TimeoutMs))
		}
		tools = append(tools, to)
	}
	o.set("tools", tools)
	if m.License != nil {
		o.set("license", *m.License)
	}
	if m.Homepage != nil {
		o.set("homepage", *m.Homepage)
	}
	return o
}

func TestIsArtifactAndPackageDir(t *testing.T) {
	lim := fsguard.DefaultLimits()
	for _, p := range []string{"skills-example/skills-example.tar.gz", "skills-example/skills-example.splice-bundle.json"} {
		if !IsArtifact(filepath.Join(fixtures, p), lim) {
			t.Errorf("%s not detected", p)
		}
	}
	dir := t.TempDir()
	renamed := filepath.Join(dir, "package.bin") // detection is by content, not name
	b, _ := os.ReadFile(filepath.Join(fixtures, "skills-example/skills-example.tar.gz"))
	os.WriteFile(renamed, b, 0o644)
	if !IsArtifact(renamed, lim) {
		t.Error("renamed archive not detected by content")
	}
	plain := filepath.Join(dir, "other.json")
	os.WriteFile(plain, []byte(`{"format":"something-else"}`), 0o644)
	if IsArtifact(plain, lim) || IsArtifact(dir, lim) {
		t.Error("non-artifact detected")
	}
	if !IsPackageDir(filepath.Join(fixtures, "skills-example/files")) || IsPackageDir(dir) {
		t.Error("IsPackageDir wrong")
	}
}

func newPackageForTest() *model.Package {
	return &model.Package{Format: model.FormatSplice, Name: "test"}
}

// A package folder that is a git checkout keeps its approvals across commits: .git is
// left out of the closure, with a warning that a tool reading it is not covered.
func TestGitMetadataExcluded(t *testing.T) {
	dir := t.TempDir()
	testtree.Copy(t, filepath.Join(fixtures, "skills-example", "files"), dir)
	if err := os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	before := Load(dir, Options{})
	if !before.Valid() {
		t.Fatalf("invalid: %+v", loadertest.Diagnostics(before))
	}
	warned := false
	for _, d := range before.Diagnostics {
		warned = warned || (d.Code == "package-vcs-excluded" && d.Severity == model.SeverityWarning)
	}
	if !warned {
		t.Fatal("no warning that .git is left out")
	}
	for _, f := range before.Component(model.KindTool, "hello").Contract.Files {
		if strings.HasPrefix(f.Path, ".git/") {
			t.Fatalf(".git file in the closure: %s", f.Path)
		}
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/other\n"), 0o644)
	after := Load(dir, Options{})
	if a, b := before.Component(model.KindTool, "hello").Contract.MustDigest(), after.Component(model.KindTool, "hello").Contract.MustDigest(); a != b {
		t.Fatal("a commit (a .git change) changed the tool digest")
	}
}

// Only the root's real .git directory is left out: a nested .git, or a .git that is a
// symlink, cannot hide code from the approval.
func TestGitExclusionIsNarrow(t *testing.T) {
	dir := t.TempDir()
	testtree.Copy(t, filepath.Join(fixtures, "skills-example", "files"), dir)
	if err := os.MkdirAll(filepath.Join(dir, "tools", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tools", ".git", "helper.js"), []byte("export default 1;\n"), 0o644)
	pkg := Load(dir, Options{})
	found := false
	for _, f := range pkg.Component(model.KindTool, "hello").Contract.Files {
		found = found || f.Path == "tools/.git/helper.js"
	}
	if !found {
		t.Fatal("a nested .git was left out of the closure")
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "payload.js"), []byte("export default 2;\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	pkg = Load(dir, Options{})
	if pkg.Valid() || !loadertest.HasCode(loadertest.Diagnostics(pkg), "package-symlink") {
		t.Fatalf("a symlinked .git was not refused: %+v", loadertest.Diagnostics(pkg))
	}
}

// TestGitDirThatIsNoRepositoryIsBound: the root's .git is left out only when it is a
// repository as git decides it (a HEAD naming a ref or commit, an objects directory). A
// .git folder without them is code a tool can import, so it is in the closure and a
// change to it changes the digest.
func TestGitDirThatIsNoRepositoryIsBound(t *testing.T) {
	cases := map[string]map[string]string{
		"no HEAD, no objects": {".git/helper.js": "export default 1;\n"},
		"HEAD but no objects": {".git/HEAD": "ref: refs/heads/main\n", ".git/helper.js": "export default 1;\n"},
		"objects is a file":   {".git/HEAD": "ref: refs/heads/main\n", ".git/objects": "x", ".git/helper.js": "export default 1;\n"},
		"HEAD is not a ref":   {".git/HEAD": "import('./helper.js')\n", ".git/objects/.keep": "", ".git/helper.js": "export default 1;\n"},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.Copy(t, filepath.Join(fixtures, "skills-example", "files"), dir)
			for p, body := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := Load(dir, Options{})
			tool := before.Component(model.KindTool, "hello")
			if tool == nil || tool.Contract == nil {
				t.Fatalf("no tool: %+v", loadertest.Diagnostics(before))
			}
			found := false
			for _, f := range tool.Contract.Files {
				found = found || f.Path == ".git/helper.js"
			}
			for _, d := range before.Diagnostics {
				if d.Code == "package-vcs-excluded" {
					t.Fatalf("a .git that is no repository was left out: %s", d.Message)
				}
			}
			if !found {
				t.Fatal(".git/helper.js is not in the closure")
			}
			os.WriteFile(filepath.Join(dir, ".git", "helper.js"), []byte("export default 2;\n"), 0o644)
			after := Load(dir, Options{})
			if tool.Contract.MustDigest() == after.Component(model.KindTool, "hello").Contract.MustDigest() {
				t.Fatal("changing .git/helper.js did not change the digest")
			}
		})
	}
}

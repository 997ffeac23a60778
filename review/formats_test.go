package review

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"vouch/model"
	"vouch/review/foreign"
	"vouch/review/internal/loadertest"
	"vouch/review/probe"
)

// formatListMismatches compares every list of formats kept outside the table with the
// table: the report schema's format enum and its description, and the model's Format
// constants. Each disagreement is one sentence.
func formatListMismatches(schemaEnum []string, schemaDoc string, modelConsts []string) []string {
	var out []string
	want := map[string]bool{}
	for _, f := range Formats() {
		want[string(f)] = true
	}
	diff := func(list string, have []string) {
		got := map[string]bool{}
		for _, h := range have {
			got[h] = true
			if !want[h] {
				out = append(out, fmt.Sprintf("%s has %q, which the format table does not", list, h))
			}
		}
		for _, f := range Formats() {
			if !got[string(f)] {
				out = append(out, fmt.Sprintf("%s lacks %q", list, f))
			}
		}
	}
	diff("the report schema's format enum", schemaEnum)
	diff("model's Format constants", modelConsts)
	for _, f := range Formats() {
		if !strings.Contains(schemaDoc, string(f)+": ") {
			out = append(out, fmt.Sprintf("the report schema's format description does not say what %q is", f))
		}
	}
	sort.Strings(out)
	return out
}

// schemaFormats reads the format enum and its description from the report schema.
func schemaFormats(t *testing.T) ([]string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "schemas", "vouch", "report-v1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var found *struct {
		Enum        []string `json:"enum"`
		Description string   `json:"description"`
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if f, ok := v["format"].(map[string]any); ok && f["enum"] != nil && found == nil {
				raw, _ := json.Marshal(f)
				found = &struct {
					Enum        []string `json:"enum"`
					Description string   `json:"description"`
				}{}
				if err := json.Unmarshal(raw, found); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	walk(doc)
	if found == nil {
		t.Fatal("the report schema has no format enum")
	}
	return found.Enum, found.Description
}

// modelFormats are the values of model's constants of type Format, read from its source.
func modelFormats(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "model", "model.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Format" {
				continue
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok {
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// Every list of formats outside the table agrees with it, and every entry is complete.
func TestFormatListsFollowTheTable(t *testing.T) {
	enum, doc := schemaFormats(t)
	for _, m := range formatListMismatches(enum, doc, modelFormats(t)) {
		t.Error(m)
	}
	seen := map[model.Format]bool{}
	for _, f := range formats {
		if f.name == "" || f.title == "" || f.doc == "" || f.docWhere == "" || f.load == nil || len(f.manifests) == 0 {
			t.Errorf("%q: an entry needs a name, title, help line, load and manifests: %+v", f.name, f)
		}
		if f.dir == nil && f.manifestKind == 0 && f.file == nil {
			t.Errorf("%q: no way to detect it", f.name)
		}
		for _, n := range append([]model.Format{f.name}, f.emits...) {
			if seen[n] {
				t.Errorf("%q is in the table twice", n)
			}
			seen[n] = true
		}
		if f.manifestDir != "" {
			if foreign.IsClientDir(f.manifestDir) {
				t.Errorf("%s is listed as a foreign client's folder too", f.manifestDir)
			}
			for _, m := range f.manifests {
				if !strings.HasPrefix(m, f.manifestDir+"/") {
					t.Errorf("%q: manifest %s is not in its manifest folder %s", f.name, m, f.manifestDir)
				}
			}
		}
		if !strings.Contains(FormatNames(), f.doc) || !strings.Contains(FormatLines(""), f.doc+" ("+f.docWhere+")\n") {
			t.Errorf("%q: the help lists do not name it", f.name)
		}
		if !IsFormat(string(f.name)) {
			t.Errorf("%q: not a format a qualified ref may name", f.name)
		}
	}
}

// fakeFormat is a format a test adds: a folder with FAKE.json, whose package is named
// after the folder and holds one skill. loads counts its loads.
func fakeFormat(loads *atomic.Int32) *format {
	return &format{
		name: "fake-test", title: "Fake", doc: "Fake Plugins 0.1", docWhere: ".fake-plugin/FAKE.json",
		dir:         func(p *probe.Dir) bool { return p.Exists(".fake-plugin/FAKE.json") },
		manifests:   []string{".fake-plugin/FAKE.json"},
		manifestDir: ".fake-plugin",
		probe:       &nameProbe{manifests: []string{".fake-plugin/FAKE.json"}},
		load: func(path string, _ Options) []*model.Package {
			loads.Add(1)
			p := &model.Package{Format: "fake-test", Name: filepath.Base(path), Root: path}
			p.Components = []*model.Component{{Kind: model.KindSkill, ID: "hello"}}
			return []*model.Package{p}
		},
	}
}

// Adding a format is its own package (here fakeFormat) and one line: the append below.
// Discovery, Locate's probe, the manifest-as-SOURCE hint, the manifest folder the search
// does not enter, qualified refs, the help lists and the schema check all see it.
func TestAddingAFormatIsOneLine(t *testing.T) {
	var loads atomic.Int32
	saved := formats
	t.Cleanup(func() { formats = saved })
	formats = append(slices.Clip(formats), fakeFormat(&loads)) // the one line

	src := t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		loadertest.WriteFile(t, filepath.Join(src, name, ".fake-plugin", "FAKE.json"), `{}`)
	}
	res := mustOpen(t, Options{}, src)
	var names []string
	for _, p := range res.Packages {
		if p.Format == "fake-test" {
			names = append(names, p.Name)
		}
	}
	if !slices.Equal(names, []string{"alpha", "beta"}) {
		t.Fatalf("Open found %v, want alpha and beta (diagnostics %+v)", names, res.Diagnostics)
	}

	loads.Store(0)
	res, err := Locate(Options{}, src, "beta#skill:hello")
	if err != nil || len(res.Packages) != 1 || res.Packages[0].Name != "beta" || loads.Load() != 1 {
		t.Errorf("Locate: %d loads, packages %+v, err %v; want beta alone, loaded once", loads.Load(), res.Packages, err)
	}

	manifest := filepath.Join(src, "alpha", ".fake-plugin", "FAKE.json")
	if _, ds := discoverDirect(manifest, Options{}.withDefaults()); len(ds) != 1 || ds[0].Code != "source-is-manifest" || !strings.Contains(ds[0].Message, "Fake package") {
		t.Errorf("the manifest given as SOURCE: %+v", ds)
	}
	if !isManifestDir(".fake-plugin") || !IsFormat("fake-test") {
		t.Error("the manifest folder or the format name is not known")
	}
	if !strings.Contains(FormatNames(), "Fake Plugins 0.1") || !strings.Contains(FormatLines("  "), "  Fake Plugins 0.1 (.fake-plugin/FAKE.json)\n") {
		t.Errorf("help lists: %s / %s", FormatNames(), FormatLines("  "))
	}
	enum, doc := schemaFormats(t)
	got := formatListMismatches(enum, doc, modelFormats(t))
	want := []string{
		`model's Format constants lacks "fake-test"`,
		`the report schema's format description does not say what "fake-test" is`,
		`the report schema's format enum lacks "fake-test"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the schema check says\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJoinList: the format lists in messages and help read as a sentence lists names.
func TestJoinList(t *testing.T) {
	for _, tc := range []struct {
		names []string
		conj  string
		want  string
	}{
		{nil, "or", ""},
		{[]string{"Dalo"}, "or", "Dalo"},
		{[]string{"Dalo", "Splice"}, "or", "Dalo or Splice"},
		{[]string{"Agent Plugins", "Dalo", "Splice"}, "and", "Agent Plugins, Dalo and Splice"},
	} {
		if got := joinList(tc.names, tc.conj); got != tc.want {
			t.Errorf("joinList(%q, %q) = %q, want %q", tc.names, tc.conj, got, tc.want)
		}
	}
}

package closure_test

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/closure/closuretest"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
)

func collect(t testing.TB, dir string) closure.Result {
	t.Helper()
	root, err := fsguard.Open(dir, fsguard.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	return closure.Collect(root, ".", closure.Options{Code: "x", Owner: "the test", Runnable: true})
}

func digest(t testing.TB, r closure.Result) string {
	t.Helper()
	d, err := (&model.Contract{Kind: model.KindTool, Files: r.Files}).Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLayouts runs the shared hostile layouts against Collect itself; every loader runs
// the same table against its own components (see closuretest).
func TestLayouts(t *testing.T) {
	for _, l := range closuretest.Layouts() {
		t.Run(l.Name, func(t *testing.T) {
			dir := closuretest.Folder(t, "pkg")
			closuretest.Build(t, dir, l)
			r := collect(t, dir)
			if l.Blocks {
				if r.Complete {
					t.Fatalf("complete closure for a blocking layout: %+v", r.Files)
				}
				var d *model.Diagnostic
				for i := range r.Diagnostics {
					if r.Diagnostics[i].Code == "x"+l.Code {
						d = &r.Diagnostics[i]
					}
				}
				if d == nil || !d.IsError() {
					t.Fatalf("no x%s error: %+v", l.Code, r.Diagnostics)
				}
				for p, target := range l.Links {
					if d.File == p && !strings.Contains(d.Message, target) {
						t.Errorf("the diagnostic does not name the target %s: %s", target, d.Message)
					}
				}
				return
			}
			if !r.Complete {
				t.Fatalf("incomplete: %+v", r.Diagnostics)
			}
			for p, target := range l.Links {
				found := false
				for _, f := range r.Files {
					found = found || (f.Path == p && f.Link == target && f.SHA256 == "")
				}
				if !found {
					t.Errorf("%s is not bound as a link to %s: %+v", p, target, r.Files)
				}
			}
			before := digest(t, r)
			l.Mutate(t, dir)
			if after := digest(t, collect(t, dir)); after == before {
				t.Errorf("the mutation kept the digest")
			}
		})
	}
}

// TestCollectDirThroughLink: a folder named through a link binds that link too, and the
// files are bound at their real paths.
func TestCollectDirThroughLink(t *testing.T) {
	dir := t.TempDir()
	closuretest.Build(t, dir, closuretest.Layout{Files: map[string]string{"real/skill/a.md": "a"}, Links: map[string]string{"skills": "real"}})
	root, _ := fsguard.Open(dir, fsguard.DefaultLimits())
	defer root.Close()
	r := closure.Collect(root, "skills/skill", closure.Options{})
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Path+"="+f.Link)
	}
	if strings.Join(got, " ") != "real/skill/a.md= skills=real" || !r.Complete {
		t.Errorf("files %v, diagnostics %+v", got, r.Diagnostics)
	}
}

// TestCollectSkipAndKnown: Skip prunes a subtree (a link into it is still bound) and
// Known bytes are never read again (the byte budget counts each file once).
func TestCollectSkipAndKnown(t *testing.T) {
	dir := t.TempDir()
	closuretest.Build(t, dir, closuretest.Layout{Files: map[string]string{"own/a": "aaaa", "b": "bb"}, Links: map[string]string{"l": "own"}})
	lim := fsguard.DefaultLimits()
	lim.MaxTotalBytes = 0 // any read fails
	root, _ := fsguard.Open(dir, lim)
	defer root.Close()
	r := closure.Collect(root, ".", closure.Options{Known: map[string][]byte{"b": []byte("bb")}, Skip: func(rel string) bool { return rel == "own" }})
	if !r.Complete || len(r.Files) != 2 || r.Files[0].Path != "b" || r.Files[1].Link != "own" {
		t.Errorf("files %+v diagnostics %+v", r.Files, r.Diagnostics)
	}
	if root.BytesRead() != 0 {
		t.Errorf("read %d bytes", root.BytesRead())
	}
}

// TestCollectLimit: a limit makes the closure incomplete, reported once.
func TestCollectLimit(t *testing.T) {
	dir := t.TempDir()
	closuretest.Build(t, dir, closuretest.Layout{Files: map[string]string{"a": "aaaa", "b": "bbbb", "c": "cccc"}})
	lim := fsguard.DefaultLimits()
	lim.MaxTotalBytes = 6
	root, _ := fsguard.Open(dir, lim)
	defer root.Close()
	r := closure.Collect(root, ".", closure.Options{Code: "x"})
	n := 0
	for _, d := range r.Diagnostics {
		if d.Code == "x-files-limit" {
			n++
		}
	}
	if r.Complete || n != 1 {
		t.Errorf("complete %v, %d limit diagnostics: %+v", r.Complete, n, r.Diagnostics)
	}
}

// TestAddOwned: the files of components bound by other means join the walked ones in
// path order, each path once, in a list whose capacity is clipped so that no component's append can write
// into another's; nothing owned leaves the walk's list as it is.
func TestAddOwned(t *testing.T) {
	files := func(paths ...string) []model.File {
		var out []model.File
		for _, p := range paths {
			out = append(out, model.File{Path: p})
		}
		return out
	}
	skill := func(paths ...string) *model.Component {
		return &model.Component{Kind: model.KindSkill, Contract: &model.Contract{Kind: model.KindSkill, Files: files(paths...)}}
	}
	for _, tc := range []struct {
		name  string
		owned map[string]*model.Component
		want  []string
	}{
		{"none", nil, []string{"a", "c/z"}},
		{"one", map[string]*model.Component{"b": skill("b/y", "b/x")}, []string{"a", "b/x", "b/y", "c/z"}},
		{"two", map[string]*model.Component{"b": skill("b/x"), "d": skill("d/x")}, []string{"a", "b/x", "c/z", "d/x"}},
		{"links to a walked file", map[string]*model.Component{"b": skill("b/x", "c/z")}, []string{"a", "b/x", "c/z"}},
		{"two share a file", map[string]*model.Component{"b": skill("b/x", "lib/l"), "d": skill("d/x", "lib/l")}, []string{"a", "b/x", "c/z", "d/x", "lib/l"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := closure.Result{Files: files("a", "c/z")}
			r.AddOwned(tc.owned)
			var got []string
			for _, f := range r.Files {
				got = append(got, f.Path)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("files = %q, want %q", got, tc.want)
			}
			if cap(r.Files) != len(r.Files) {
				t.Fatalf("capacity %d for %d files", cap(r.Files), len(r.Files))
			}
		})
	}
}

// TestCutNoteKeepsFirstBoundIssue: only an entries bound makes a file cut, and the first
// such issue of a file is the reason kept.
func TestCutNoteKeepsFirstBoundIssue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		issues []jsontext.Issue
		want   map[string]string
	}{
		{"no issues", nil, nil},
		{"other issues", []jsontext.Issue{{Code: jsontext.CodeDuplicateKey, Msg: "dup"}}, nil},
		{"bound", []jsontext.Issue{{Code: jsontext.CodeDuplicateKey, Msg: "dup"}, {Code: jsontext.CodeTooManyEntries, Msg: "first"}, {Code: jsontext.CodeTooManyEntries, Msg: "second"}}, map[string]string{"a.json": "first"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c closure.Cut
			c.Note("a.json", tc.issues)
			if len(c) != len(tc.want) || c["a.json"] != tc.want["a.json"] {
				t.Fatalf("cut = %v, want %v", c, tc.want)
			}
		})
	}
}

// TestCutBlock: a component whose detail names a cut file loses its contract, gets the
// blocked sentence first in its summary and an entries-limit error; others are untouched.
func TestCutBlock(t *testing.T) {
	comp := func(file string, contract bool) *model.Component {
		c := &model.Component{Kind: model.KindHook, Summary: []string{"Runs."}, Details: model.Fields{{Key: "source", Value: file}}}
		if contract {
			c.Contract = &model.Contract{Kind: model.KindHook}
		}
		return c
	}
	for _, tc := range []struct {
		name    string
		cut     closure.Cut
		comp    *model.Component
		blocked bool
	}{
		{"cut file", closure.Cut{"hooks.json": "an array has more than 1024 elements"}, comp("hooks.json", true), true},
		{"other file", closure.Cut{"hooks.json": "x"}, comp("other.json", true), false},
		{"no contract", closure.Cut{"hooks.json": "x"}, comp("hooks.json", false), false},
		{"no cut", nil, comp("hooks.json", true), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hadContract := tc.comp.Contract != nil
			tc.cut.Block([]*model.Component{tc.comp}, "source", "Client 1.0", "spec 1")
			if !tc.blocked {
				if (tc.comp.Contract != nil) != hadContract || len(tc.comp.Summary) != 1 || len(tc.comp.Diagnostics) != 0 {
					t.Fatalf("component changed: %+v", tc.comp)
				}
				return
			}
			if tc.comp.Contract != nil {
				t.Fatal("a component of a cut file keeps its contract")
			}
			if s := tc.comp.Summary; len(s) != 2 || !strings.HasPrefix(s[0], "Blocked: hooks.json holds more than vouch reads (an array has more than 1024 elements), and Client 1.0 reads all of it") || s[1] != "Runs." {
				t.Fatalf("summary = %q", s)
			}
			if d := tc.comp.Diagnostics; len(d) != 1 || d[0].Code != "entries-limit" || d[0].Severity != model.SeverityError || d[0].Spec != "spec 1" || d[0].File != "hooks.json" {
				t.Fatalf("diagnostics = %+v", d)
			}
		})
	}
}

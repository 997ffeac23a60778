// Package closuretest holds the hostile layouts every loader with runnable components
// runs against its own closure (closure.Collect's callers: Agent Plugins stdio servers,
// Splice tools, and the native loaders' hooks and LSP servers). A loader test builds each
// layout inside the folder its component runs from, loads the package, applies Mutate,
// loads again and asserts what Want says: the closure is blocked, or the digest changes.
// Run does all of it for a loader whose components run from the package root:
//
//	closuretest.Run(t, "p", "plugin", writePackage, func(t *testing.T, dir string) map[string]*model.Component {
//		return map[string]*model.Component{"server": load(dir).Component(model.KindMCPServer, "s")}
//	})
//
// A loader whose process runs from a subfolder, or whose format blocks what others bind,
// builds each of Layouts there itself and asserts with Check or its own rule.
package closuretest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/internal/loadertest"
)

// Layout is one hostile arrangement of files in the folder a process runs from.
type Layout struct {
	Name string
	// Files are written first (slash paths relative to the folder; a value of "<fifo>"
	// makes a named pipe), then Links (path → target, exactly as given).
	Files map[string]string
	Links map[string]string
	// Blocks says the closure cannot be bound: no contract, and a diagnostic whose code
	// ends in Code. A format that forbids links (Dalo, Splice) blocks every layout with
	// Links too, with its own code.
	Blocks bool
	Code   string
	// Mutate changes what the process would run without changing any contract field;
	// the digest must change. Nil for layouts that block.
	Mutate func(t testing.TB, dir string)
	// Outside are files written beside the folder (in its parent), for links that leave.
	Outside map[string]string
}

// HasLinks reports whether the layout holds a symlink.
func (l Layout) HasLinks() bool { return len(l.Links) > 0 }

// Folder makes an empty folder named name in a fresh temporary directory, so a layout's
// Outside files land beside it in a parent no other test shares.
func Folder(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Build writes the layout into dir.
func Build(t testing.TB, dir string, l Layout) {
	t.Helper()
	write := func(base string, files map[string]string) {
		for rel, body := range files {
			p := filepath.Join(base, filepath.FromSlash(rel))
			if body != "<fifo>" {
				loadertest.WriteFile(t, p, body)
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			testtree.Fifo(t, p)
		}
	}
	write(dir, l.Files)
	write(filepath.Dir(dir), l.Outside)
	for rel, target := range l.Links {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
}

// Retarget replaces the link at rel (in dir) with one to target.
func Retarget(rel, target string) func(testing.TB, string) {
	return func(t testing.TB, dir string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
}

// Write replaces the file at rel (in dir) with body.
func Write(rel, body string) func(testing.TB, string) {
	return func(t testing.TB, dir string) {
		t.Helper()
		loadertest.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), body)
	}
}

// Chmod sets the mode of the file at rel (in dir).
func Chmod(rel string, mode os.FileMode) func(testing.TB, string) {
	return func(t testing.TB, dir string) {
		t.Helper()
		if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(rel)), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// Layouts are hostile arrangements of links and special files that an approval must bind or
// block: links out of the package, dangling, looping, into subfolders. Paths sit below a
// directory named "run/" and at the top, so a loader whose process runs from a subfolder
// can place them under it; link targets are relative and stay inside the layout unless they
// must leave.
func Layouts() []Layout {
	same := "module.exports = 1\n" // both targets hold the same bytes: only the link differs
	return []Layout{
		{Name: "file link retargeted", Files: map[string]string{"v1.js": same, "v2.js": same}, Links: map[string]string{"run.js": "v1.js"},
			Mutate: Retarget("run.js", "v2.js")},
		{Name: "directory link retargeted", Files: map[string]string{"v1/x.js": same, "v2/x.js": same}, Links: map[string]string{"lib": "v1"},
			Mutate: Retarget("lib", "v2")},
		{Name: "link to a link retargeted", Files: map[string]string{"v1.js": same, "v2.js": same}, Links: map[string]string{"a.js": "b.js", "b.js": "v1.js"},
			Mutate: Retarget("b.js", "v2.js")},
		{Name: "file reached through a directory link edited", Files: map[string]string{"deep/v1/x.js": same}, Links: map[string]string{"lib": "deep/v1"},
			Mutate: Write("deep/v1/x.js", "require('child_process')\n")},
		{Name: "hidden directory edited", Files: map[string]string{".hidden/x.js": same},
			Mutate: Write(".hidden/x.js", "require('child_process')\n")},
		{Name: "new file added", Files: map[string]string{"x.js": same},
			Mutate: Write("y.js", "require('child_process')\n")},
		{Name: "exec bit set", Files: map[string]string{"x.sh": "echo hi\n"},
			Mutate: Chmod("x.sh", 0o755)},
		{Name: "link out of the package", Outside: map[string]string{"outside.js": same}, Links: map[string]string{"run.js": "../outside.js"},
			Blocks: true, Code: "-file-escape"},
		{Name: "directory link out of the package", Links: map[string]string{"lib": ".."}, Outside: map[string]string{"x.js": same},
			Blocks: true, Code: "-file-escape"},
		{Name: "absolute link", Links: map[string]string{"run.js": "/etc/hostname"},
			Blocks: true, Code: "-file-absolute-link"},
		{Name: "dangling link", Links: map[string]string{"run.js": "later.js"},
			Blocks: true, Code: "-file-dangling"},
		{Name: "link loop", Links: map[string]string{"a.js": "b.js", "b.js": "a.js"},
			Blocks: true, Code: "-file-loop"},
		{Name: "named pipe", Files: map[string]string{"pipe": "<fifo>"},
			Blocks: true, Code: "-file-special"},
	}
}

// Check is the shared assertion for one layout already built in dir: load returns the
// components under test by name (every one whose closure is the folder). When the layout
// blocks, each must have no contract and a diagnostic whose code ends in stem+l.Code
// ("plugin-file-escape"); otherwise each must have a contract, and after l.Mutate a
// different digest.
func Check(t *testing.T, l Layout, dir, stem string, load func() map[string]*model.Component) {
	t.Helper()
	first := load()
	if len(first) == 0 {
		t.Fatal("no component to check")
	}
	before := map[string]string{}
	for name, c := range first {
		if c == nil {
			t.Fatalf("%s is not listed", name)
		}
		if l.Blocks {
			if c.Contract != nil || !hasCode(c.Diagnostics, stem+l.Code) {
				t.Errorf("%s: the layout must block it with %s: contract %v, diagnostics %+v", name, stem+l.Code, c.Contract != nil, c.Diagnostics)
			}
			continue
		}
		if c.Contract == nil {
			t.Fatalf("%s: no contract: %+v", name, c.Diagnostics)
		}
		before[name] = c.Contract.MustDigest()
	}
	if l.Blocks {
		return
	}
	l.Mutate(t, dir)
	for name, c := range load() {
		if c == nil || c.Contract == nil || c.Contract.MustDigest() == before[name] {
			t.Errorf("%s: the mutation kept the approval", name)
		}
	}
}

func hasCode(ds []model.Diagnostic, code string) bool {
	for _, d := range ds {
		if strings.HasSuffix(d.Code, code) {
			return true
		}
	}
	return false
}

// ShellWord is a hook line whose words reach a file outside the package only as the
// shell expands them; a loader that runs shell lines must list Kind for it ("outside-path"
// when vouch expands the word and places it, "unresolved-word" when it cannot).
// "$ROOT" in Line stands for the format's root variable as the hook's environment holds
// it; ROOT alone for its bare name.
type ShellWord struct{ Name, Line, Kind string }

// ShellWords are the expansions a lexical reading took as inside the package.
func ShellWords() []ShellWord {
	return []ShellWord{
		{"ANSI-C quoting", `node "$ROOT"/$'\x2e\x2e'/x.js`, "outside-path"},
		{"brace expansion", `node "$ROOT"/{.,.}./x.js`, "outside-path"},
		{"parameter operator", `node ${ROOT%[!a-z]*}/x.js`, "unresolved-word"},
		{"program by operator", `${ROOT%/*}/x.sh`, "unresolved-word"},
		{"user variable", `node $TMPDIR/x.js`, "unresolved-word"},
		{"command substitution", `node "$(printf %s "$ROOT/..")/x.js"`, "unresolved-word"},
		{"cleaned program", `"$ROOT"/../x.sh`, "outside-path"},
	}
}

// Expand writes a ShellWord line for a format whose root variable is name.
func (w ShellWord) Expand(name string) string {
	return strings.NewReplacer("$ROOT", "$"+name, "{ROOT%", "{"+name+"%").Replace(w.Line)
}

package review

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/model"
	"vouch/review/internal/loadertest"
	"vouch/review/probe"
)

// A folder of 10,000 plugins is reviewed whole: 10,000 packages, in name order, and not
// one diagnostic (the search used to cut every listing at 4,096 entries, silently).
func TestDiscoveryFindsEveryPackage(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Minimal(dir, 10_000); err != nil {
		t.Fatal(err)
	}
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 10_000 || len(res.Diagnostics) != 0 {
		t.Fatalf("%d packages, diagnostics %v", len(res.Packages), res.Diagnostics)
	}
	for i, p := range res.Packages {
		if want := fmt.Sprintf("plugin-%05d", i); p.Name != want || !p.Valid() {
			t.Fatalf("package %d is %s (valid %v), want %s", i, p.Name, p.Valid(), want)
		}
	}
}

// Each search bound, reached or not, with the exact diagnostic. A bound reached is an
// error at the source boundary, and the packages found before it are still reviewed.
func TestDiscoveryBounds(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Minimal(dir, 6); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opts     Options
		packages int
		code     string
		message  string
	}{
		{"packages at the bound", Options{MaxPackages: 6}, 6, "", ""},
		{"packages over the bound", Options{MaxPackages: 5}, 5, "source-too-many-packages",
			dir + " holds more than 5 package roots; the search stopped at " + filepath.Join(dir, "plugin-00005") +
				" and the packages from there on were not reviewed, so give the folders that hold them as separate SOURCEs."},
		{"entries at the bound", Options{MaxSearchEntries: 6}, 6, "", ""},
		{"entries over the bound", Options{MaxSearchEntries: 5}, 0, "source-search-too-large",
			"The search of " + dir + " listed more than 5 directory entries and stopped in " + dir +
				"; packages past that point were not reviewed, so give the folders that hold them as separate SOURCEs."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustOpen(t, tt.opts, dir)
			if len(res.Packages) != tt.packages {
				t.Errorf("%d packages, want %d", len(res.Packages), tt.packages)
			}
			if tt.code == "" {
				if len(res.Diagnostics) != 0 {
					t.Errorf("diagnostics %v", res.Diagnostics)
				}
				return
			}
			if len(res.Diagnostics) != 1 {
				t.Fatalf("diagnostics %+v", res.Diagnostics)
			}
			d := res.Diagnostics[0]
			if d.Code != tt.code || d.Severity != model.SeverityError || d.Boundary != model.BoundarySource || d.File != dir || d.Message != tt.message {
				t.Errorf("got %s %s %s %s\n%q\nwant %s error source %s\n%q", d.Code, d.Severity, d.Boundary, d.File, d.Message, tt.code, dir, tt.message)
			}
		})
	}
}

// The search bound counts entries in nested folders too, and the default bounds are far
// above the per-package limits.
func TestDiscoveryEntryBoundNested(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"a", "b"} {
		if err := gen.Minimal(filepath.Join(dir, sub), 3); err != nil {
			t.Fatal(err)
		}
	}
	// dir lists 2 entries, a 3, b 3: 8 in all.
	res, _ := Open(Options{MaxSearchEntries: 7}, dir)
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "source-search-too-large" || len(res.Packages) != 3 {
		t.Fatalf("%d packages, %v", len(res.Packages), res.Diagnostics)
	}
	if !strings.Contains(res.Diagnostics[0].Message, "stopped in "+filepath.Join(dir, "b")) {
		t.Errorf("message %q", res.Diagnostics[0].Message)
	}
	if res, _ := Open(Options{MaxSearchEntries: 8}, dir); len(res.Diagnostics) != 0 || len(res.Packages) != 6 {
		t.Fatalf("at the bound: %d packages, %v", len(res.Packages), res.Diagnostics)
	}
	if DefaultMaxPackages < 100_000 || DefaultMaxSearchEntries < 10*DefaultMaxPackages {
		t.Errorf("default bounds %d packages, %d entries", DefaultMaxPackages, DefaultMaxSearchEntries)
	}
}

// A folder below the search depth is named in a warning, not dropped silently, and
// version-control metadata is not searched at all.
func TestDiscoveryDepthIsReported(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "a", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "d1", "d2", "d3", "d4", "d5", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "d1", "d2", "d3", "e4", "f"), "x")
	loadertest.WriteFile(t, filepath.Join(dir, ".git", "logs", "refs", "remotes", "origin", "main"), "x")
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 1 || len(res.Diagnostics) != 1 {
		t.Fatalf("%d packages, %+v", len(res.Packages), res.Diagnostics)
	}
	d := res.Diagnostics[0]
	want := dir + " searched 4 directory levels deep; 2 directories below that were not searched (the first is " +
		filepath.Join(dir, "d1", "d2", "d3", "d4") + "): give a deeper folder as SOURCE to review packages there."
	if d.Code != "search-depth-reached" || d.Severity != model.SeverityWarning || d.Message != want {
		t.Errorf("got %s %s %q\nwant search-depth-reached warning %q", d.Code, d.Severity, d.Message, want)
	}
	// Only a warning: with nothing found it is still "no packages", an error.
	empty := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(empty, "d1", "d2", "d3", "d4", "d5", "f"), "x")
	res, _ = Open(Options{}, empty)
	if len(res.Diagnostics) != 2 || res.Diagnostics[0].Code != "search-depth-reached" || res.Diagnostics[1].Code != "no-packages" {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
}

type failingDir struct{ err error }

func (f failingDir) ReadDir(int) ([]os.DirEntry, error) { return nil, f.err }
func (failingDir) Close() error                         { return nil }

// A folder that cannot be listed is an error: an unread part of the tree is not valid.
func TestDiscoveryUnreadableDirectory(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "a", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "locked", "x", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "broken", "y", "plugin.json"), manifest)
	locked, broken := filepath.Join(dir, "locked"), filepath.Join(dir, "broken")
	defer func(orig func(string) (dirReader, error)) { openDir = orig }(openDir)
	openDir = func(d string) (dirReader, error) {
		switch d {
		case locked:
			return nil, &fs.PathError{Op: "open", Path: d, Err: syscall.EACCES}
		case broken:
			return failingDir{&fs.PathError{Op: "readdirent", Path: d, Err: syscall.EIO}}, nil
		}
		f, err := os.Open(d)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 1 {
		t.Errorf("%d packages", len(res.Packages))
	}
	want := []string{
		"Could not list " + broken + " (input/output error), so packages in it were not reviewed.",
		"Could not list " + locked + " (permission denied), so packages in it were not reviewed.",
	}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
	for i, d := range res.Diagnostics {
		if d.Code != "unreadable-directory" || d.Severity != model.SeverityError || d.Boundary != model.BoundarySource || d.Message != want[i] {
			t.Errorf("got %s %s %q, want unreadable-directory error %q", d.Code, d.Severity, d.Message, want[i])
		}
	}
}

// The same with a real mode, where the file system enforces it (not as root).
func TestDiscoveryUnreadableDirectoryMode(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any directory")
	}
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	loadertest.WriteFile(t, filepath.Join(locked, "x", "plugin.json"), manifest)
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	res, _ := Open(Options{}, dir)
	if len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != "unreadable-directory" || !res.Diagnostics[0].IsError() {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
}

// A manifest file given as SOURCE gets the folder to give instead; any other file is
// unrecognized as before.
func TestManifestFileAsSource(t *testing.T) {
	dir := t.TempDir()
	ap := filepath.Join(dir, "ap")
	loadertest.WriteFile(t, filepath.Join(ap, "plugin.json"), manifest)
	sp := filepath.Join(dir, "sp")
	loadertest.WriteFile(t, filepath.Join(sp, "manifest.json"), `{"specVersion":1,"name":"x"}`)
	dalo := "../examples/dalo/security-review/plugins/guardrails"
	tests := []struct {
		path, code, message string
	}{
		{filepath.Join(ap, "plugin.json"), "source-is-manifest",
			filepath.Join(ap, "plugin.json") + " is the manifest of the Agent Plugins package in " + ap + ": give the folder " + ap + " as SOURCE, not the file."},
		{filepath.Join(sp, "manifest.json"), "source-is-manifest",
			filepath.Join(sp, "manifest.json") + " is the manifest of the Splice package in " + sp + ": give the folder " + sp + " as SOURCE, not the file."},
		{dalo + "/PLUGIN.toml", "source-is-manifest",
			dalo + "/PLUGIN.toml is the manifest of the Dalo package in " + dalo + ": give the folder " + dalo + " as SOURCE, not the file."},
		// A file named like a manifest in a folder that is no package of that format.
		{filepath.Join(dir, "notes", "manifest.json.txt"), "unrecognized-source",
			filepath.Join(dir, "notes", "manifest.json.txt") + " is not a package directory, an MCP Bundle (.mcpb), or a Splice archive or bundle."},
	}
	loadertest.WriteFile(t, filepath.Join(dir, "notes", "manifest.json.txt"), "x")
	for _, tt := range tests {
		res := mustOpen(t, Options{}, tt.path)
		if len(res.Packages) != 0 || len(res.Diagnostics) != 1 {
			t.Fatalf("%s: %d packages, %+v", tt.path, len(res.Packages), res.Diagnostics)
		}
		d := res.Diagnostics[0]
		if d.Code != tt.code || !d.IsError() || d.Message != tt.message {
			t.Errorf("%s: got %s %q\nwant %s %q", tt.path, d.Code, d.Message, tt.code, tt.message)
		}
	}
}

// The format table drives detection: every format is one entry, found in priority order,
// and the messages that list formats read it.
func TestFormatTable(t *testing.T) {
	var names []model.Format
	for _, f := range formats {
		if f.name == "" || f.title == "" || f.load == nil || (f.dir == nil && f.file == nil) {
			t.Errorf("incomplete entry %+v", f)
		}
		names = append(names, f.name)
	}
	if fmt.Sprint(names) != "[agent-plugins dalo codex-marketplace codex claude-code mcpb splice agent-skills]" {
		t.Errorf("formats %v", names)
	}
	if got := formatTitles(); got != "Agent Plugins, Dalo, Codex marketplace, Codex, Claude Code, MCP Bundle, Splice or Agent Skills" {
		t.Errorf("titles %q", got)
	}
	// One folder with an Agent Plugins manifest and a Splice manifest: the first entry
	// claims it, as before the table.
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "manifest.json"), `{}`)
	if jobs := detectDir(dir); len(jobs) != 1 || jobs[0].format.name != model.FormatAgentPlugins {
		t.Errorf("jobs %+v", jobs)
	}
	// An entry marked alongside is read beside the claiming one.
	orig := formats
	defer func() { formats = orig }()
	var loaded []string
	extra := &format{name: "test-alongside", title: "Test", alongside: true,
		dir: func(p *probe.Dir) bool { return p.Exists("manifest.json") },
		load: func(path string, _ Options) []*model.Package {
			loaded = append(loaded, path)
			return []*model.Package{{Format: "test-alongside", Name: "t", Root: path}}
		}}
	formats = append(append([]*format(nil), orig...), extra)
	res := mustOpen(t, Options{}, dir)
	if len(res.Packages) != 2 || res.Packages[0].Format != model.FormatAgentPlugins || res.Packages[1].Format != "test-alongside" || len(loaded) != 1 {
		t.Fatalf("packages %v", res.Packages)
	}
	if got := formatTitles(); got != "Agent Plugins, Dalo, Codex marketplace, Codex, Claude Code, MCP Bundle, Splice, Agent Skills or Test" {
		t.Errorf("titles %q", got)
	}
}

// Discovery and loading overlap: the first package is loaded and emitted while the rest
// of the source is still being searched. The listing of the last folder waits until a
// package has been emitted, which deadlocks a Stream that searches everything first (the
// guard below then fails the test instead of hanging it).
func TestStreamEmitsBeforeDiscoveryEnds(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "a", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "z", "y", "plugin.json"), manifest)
	last := filepath.Join(dir, "z")
	emitted := make(chan struct{})
	defer func(orig func(string) (dirReader, error)) { openDir = orig }(openDir)
	openDir = func(d string) (dirReader, error) {
		if d == last {
			<-emitted
		}
		f, err := os.Open(d)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	result := make(chan int, 1)
	go func() {
		n, first := 0, true
		_, err := Stream(Options{}, []string{dir}, func(batch []*model.Package) bool {
			if first {
				first = false
				close(emitted)
			}
			n += len(batch)
			return true
		})
		if err != nil {
			t.Error(err)
		}
		result <- n
	}()
	select {
	case n := <-result:
		if n != 2 {
			t.Fatalf("%d packages emitted, want 2", n)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Stream emitted nothing before the search ended (deadlock guard)")
	}
}

// Exclude leaves out what it matches below a SOURCE, is asked with the path relative to
// the SOURCE, never enters an excluded folder, says what it left out in a note, and
// never excludes a path given as SOURCE itself.
func TestDiscoveryExclude(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, filepath.Join(dir, "keep", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "vendor", "a", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "vendor", "b", "plugin.json"), manifest)
	loadertest.WriteFile(t, filepath.Join(dir, "nested", "testdata", "plugin.json"), manifest)
	var asked []string
	exclude := func(rel string) bool {
		asked = append(asked, rel)
		return rel == "vendor" || strings.HasSuffix(rel, "/testdata")
	}
	res := mustOpen(t, Options{Exclude: exclude}, dir)
	if len(res.Packages) != 1 || res.Packages[0].Root != filepath.Join(dir, "keep") {
		t.Fatalf("packages %v", res.Packages)
	}
	for _, rel := range asked {
		if strings.HasPrefix(rel, "vendor/") {
			t.Errorf("asked about %s: the search entered an excluded folder", rel)
		}
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.Code != "search-excluded" || d.Severity != model.SeverityInfo || !strings.Contains(d.Message, "left out 2 folders") ||
		!strings.Contains(d.Message, "(the first is "+filepath.Join(dir, "vendor")+")") {
		t.Errorf("got %s %s %q", d.Code, d.Severity, d.Message)
	}
	// A SOURCE the pattern would match is still reviewed: the user named it.
	res, _ = Open(Options{Exclude: func(string) bool { return true }}, filepath.Join(dir, "vendor", "a"))
	if len(res.Packages) != 1 {
		t.Fatalf("a SOURCE given by name was excluded: %v %+v", res.Packages, res.Diagnostics)
	}
	// Everything excluded is still "no packages", an error.
	res, _ = Open(Options{Exclude: func(string) bool { return true }}, dir)
	if len(res.Packages) != 0 || len(res.Diagnostics) != 2 || res.Diagnostics[1].Code != "no-packages" {
		t.Fatalf("all excluded: %v %+v", res.Packages, res.Diagnostics)
	}
}

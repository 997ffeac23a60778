package fsguard

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

func open(t testing.TB, dir string, lim Limits) *Root {
	t.Helper()
	r, err := Open(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// mustReturn runs fn and fails the test with a message, instead of hanging the suite, if
// fn never returns (opening a FIFO would block forever).
func mustReturn(t *testing.T, fn func()) {
	t.Helper()
	testtree.Returns(t, "the call", func() struct{} { fn(); return struct{}{} })
}

func TestResolveAndRead(t *testing.T) {
	dir := testtree.Make(t, map[string]string{
		"data/file.txt":     "payload",
		"chain/a":           "->b",
		"chain/b":           "->../chain/c",
		"chain/c":           "->../data/file.txt",
		"dirlink":           "->data",
		"abs-inside":        "->$ROOT/data/file.txt",
		"abs-root":          "->$ROOT",
		"loop/a":            "->b",
		"loop/b":            "->a",
		"loop/self":         "->self",
		"loop/grow":         "->grow/x",
		"esc/root":          "->/",
		"esc/outside":       "->../../outside",
		"esc/up":            "->..",
		"esc/dir":           "->/tmp",
		"esc/reenter":       "->../../" + "REPLACED",
		"dangling":          "->nothing-here",
		"dangling-dir":      "->data/missing/deeper",
		"data/sub/deep.txt": "deep",
	})
	// A link that leaves the root and comes back in by name still left it on the way.
	os.Remove(filepath.Join(dir, "esc/reenter"))
	os.Symlink("../../"+filepath.Base(dir)+"/data/file.txt", filepath.Join(dir, "esc/reenter"))

	r := open(t, dir, DefaultLimits())
	tests := []struct {
		path     string
		resolved string
		code     Code
	}{
		{"data/file.txt", "data/file.txt", ""},
		{"./data//file.txt", "data/file.txt", ""},
		{"chain/a", "data/file.txt", ""},
		{"dirlink/file.txt", "data/file.txt", ""},
		{"dirlink/sub/deep.txt", "data/sub/deep.txt", ""},
		{"abs-inside", "data/file.txt", ""},
		{"abs-root/data/file.txt", "data/file.txt", ""},
		{"esc/up/data/file.txt", "data/file.txt", ""},
		{"loop/a", "", CodeLoop},
		{"loop/self", "", CodeLoop},
		{"loop/grow", "", CodeLoop},
		{"esc/root", "", CodeEscape},
		{"esc/root/etc/passwd", "", CodeEscape},
		{"esc/outside", "", CodeEscape},
		{"esc/dir/x", "", CodeEscape},
		{"esc/reenter", "", CodeEscape},
		{"dangling", "", CodeDangling},
		{"dangling-dir", "", CodeDangling},
		{"missing.txt", "", CodeNotFound},
		{"data/file.txt/child", "", CodeNotFound},
		{"a\\b", "", CodeBadPath},
		{"a\x00b", "", CodeBadPath},
		{"/etc/passwd", "", CodeEscape},
		{"..", "", CodeEscape},
		{"../x", "", CodeEscape},
		{"data/../../x", "", CodeEscape},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := r.Resolve(tc.path)
			if CodeOf(err) != tc.code || got != tc.resolved {
				t.Errorf("Resolve = %q, %v; want %q, %q", got, err, tc.resolved, tc.code)
			}
			data, err := r.ReadFile(tc.path, 0)
			switch {
			case tc.code != "" && CodeOf(err) != tc.code:
				t.Errorf("ReadFile error %v, want %s", err, tc.code)
			case tc.code == "" && strings.HasSuffix(tc.resolved, "file.txt") && string(data) != "payload":
				t.Errorf("ReadFile = %q, %v", data, err)
			}
			if _, err := r.Stat(tc.path); CodeOf(err) != tc.code {
				t.Errorf("Stat error %v, want %s", err, tc.code)
			}
		})
	}
}

func TestErrorsAreTyped(t *testing.T) {
	r := open(t, testtree.Make(t, map[string]string{"f": "x"}), DefaultLimits())
	_, err := r.ReadFile("missing", 0)
	var e *Error
	if !IsNotFound(err) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("err %v", err)
	}
	if _, err := r.ReadFile("../x", 0); err == nil || CodeOf(err) != CodeEscape || !asError(err, &e) || e.Path != "../x" {
		t.Errorf("err %#v", err)
	}
	if CodeOf(fmt.Errorf("plain")) != "" {
		t.Error("CodeOf of a foreign error")
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}

func TestFIFONeverBlocks(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"mcp.json": "<fifo>", "link.json": "->mcp.json", "dir/SKILL.md/": ""})
	r := open(t, dir, DefaultLimits())
	mustReturn(t, func() {
		for _, p := range []string{"mcp.json", "link.json"} {
			if _, err := r.ReadFile(p, 0); CodeOf(err) != CodeNotRegular {
				t.Errorf("ReadFile(%s) err %v", p, err)
			}
			if _, err := r.ReadFileNoFollow(p, 0); CodeOf(err) != CodeNotRegular {
				t.Errorf("ReadFileNoFollow(%s) err %v", p, err)
			}
			e, err := r.Stat(p)
			if err != nil || e.Type != TypeOther {
				t.Errorf("Stat(%s) = %+v, %v", p, e, err)
			}
		}
		if _, err := r.ReadFile("dir/SKILL.md", 0); CodeOf(err) != CodeNotRegular {
			t.Errorf("directory read err %v", err)
		}
		if _, _, err := r.ReadDir("mcp.json"); err == nil {
			t.Errorf("ReadDir on a FIFO succeeded")
		}
	})
}

func TestSparseFileRefusedUnread(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"small": "ok"})
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip("sparse files unsupported:", err)
	}
	f.Close()
	r := open(t, dir, DefaultLimits())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := r.ReadFile("huge.bin", 0); CodeOf(err) != CodeTooLarge {
		t.Errorf("err %v", err)
	}
	if _, err := r.ReadFile("huge.bin", 1<<40); CodeOf(err) != CodeTooLarge {
		t.Errorf("a max above the root's limit must not raise it: %v", err)
	}
	if _, err := r.ReadFile("small", 1); CodeOf(err) != CodeTooLarge {
		t.Errorf("explicit max: %v", err)
	}
	runtime.ReadMemStats(&after)
	// The refusals read nothing (BytesRead counts every byte read through the root) and
	// allocated no buffer for the 2 GiB file.
	if n := r.BytesRead(); n != 0 {
		t.Errorf("BytesRead = %d after refusals", n)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("the refusals allocated %d bytes (did they read the file?)", n)
	}
}

func TestTotalBytesLimit(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 10; i++ {
		files[fmt.Sprintf("f%d", i)] = strings.Repeat("x", 100)
	}
	lim := DefaultLimits()
	lim.MaxTotalBytes = 450
	r := open(t, testtree.Make(t, files), lim)
	for i := 0; i < 4; i++ {
		if _, err := r.ReadFile(fmt.Sprintf("f%d", i), 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.ReadFile("f4", 0); CodeOf(err) != CodeTotalExceeded {
		t.Errorf("5th read: %v", err)
	}
	if r.BytesRead() != 400 {
		t.Errorf("BytesRead = %d", r.BytesRead())
	}
}

func TestMaxEntries(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 5000; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lim := DefaultLimits()
	lim.MaxEntries = 4096
	r := open(t, dir, lim)
	if _, _, err := r.ReadDir("."); CodeOf(err) != CodeTooMany {
		t.Errorf("ReadDir: %v", err)
	}
	r2 := open(t, dir, lim)
	n := 0
	err := r2.Walk(".", func(Entry, error) error { n++; return nil })
	if CodeOf(err) != CodeTooMany || n != 0 {
		t.Errorf("Walk: %v after %d entries", err, n)
	}
	lim.MaxEntries = 5000
	r3 := open(t, dir, lim)
	if es, _, err := r3.ReadDir("."); err != nil || len(es) != 5000 {
		t.Errorf("at the limit: %d, %v", len(es), err)
	}
}

// Listing the same directory again (a loader lists skills/, then each skill walks its
// own directory) must not count its entries twice.
func TestEntriesCountedOncePerDirectory(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("d/f%02d", i)] = "x"
	}
	lim := DefaultLimits()
	lim.MaxEntries = 40
	r := open(t, testtree.Make(t, files), lim)
	for i := 0; i < 5; i++ {
		if _, _, err := r.ReadDir("d"); err != nil {
			t.Fatalf("listing %d: %v", i, err)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	rel := strings.Repeat("d/", 40)
	dir := testtree.Make(t, map[string]string{rel + "f": "x"})
	lim := DefaultLimits()
	lim.MaxDepth = 32
	r := open(t, dir, lim)
	var deepest int
	var tooDeep bool
	err := r.Walk(".", func(e Entry, err error) error {
		if CodeOf(err) == CodeTooDeep {
			tooDeep = true
		}
		if d := strings.Count(e.Rel, "/") + 1; d > deepest {
			deepest = d
		}
		return nil
	})
	if err != nil || !tooDeep || deepest > 32 {
		t.Errorf("Walk err %v, tooDeep %v, deepest %d", err, tooDeep, deepest)
	}
	if _, err := r.ReadFile(rel+"f", 0); CodeOf(err) != CodeTooDeep {
		t.Errorf("ReadFile deep: %v", err)
	}
	if _, _, err := r.ReadDir(strings.Repeat("d/", 33)); CodeOf(err) != CodeTooDeep {
		t.Errorf("ReadDir deep: %v", err)
	}
}

func TestWalkDoesNotFollowSymlinkedDirs(t *testing.T) {
	dir := testtree.Make(t, map[string]string{
		"a/file":     "x",
		"a/up":       "->..",
		"b/link":     "->../a",
		"b/esc":      "->/",
		"b/dangling": "->nope",
		"b/fifo":     "<fifo>",
		"b/flink":    "->../a/file",
	})
	r := open(t, dir, DefaultLimits())
	seen := map[string]Entry{}
	errs := map[string]Code{}
	mustReturn(t, func() {
		if err := r.Walk(".", func(e Entry, err error) error {
			seen[e.Rel] = e
			if err != nil {
				errs[e.Rel] = CodeOf(err)
			}
			return nil
		}); err != nil {
			t.Error(err)
		}
	})
	for p := range seen {
		if strings.HasPrefix(p, "b/link/") || strings.HasPrefix(p, "a/up/") || strings.HasPrefix(p, "b/esc/") {
			t.Errorf("walked through a symlink: %s", p)
		}
	}
	if e := seen["b/link"]; !e.Symlink || e.Type != TypeDir {
		t.Errorf("b/link = %+v", e)
	}
	if e := seen["b/flink"]; !e.Symlink || e.Type != TypeFile || e.Size != 1 {
		t.Errorf("b/flink = %+v", e)
	}
	if e := seen["b/fifo"]; e.Type != TypeOther {
		t.Errorf("b/fifo = %+v", e)
	}
	if errs["b/esc"] != CodeEscape || errs["b/dangling"] != CodeDangling {
		t.Errorf("errs %v", errs)
	}
	// Walk visits in lexical order.
	var order []string
	r.Walk("b", func(e Entry, _ error) error { order = append(order, e.Name); return nil })
	if strings.Join(order, ",") != "dangling,esc,fifo,flink,link" {
		t.Errorf("order %v", order)
	}
}

func TestLstatAndNoFollow(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"f": "data", "l": "->f", "dl/x": "y", "d": "->dl"})
	r := open(t, dir, DefaultLimits())
	if e, err := r.Lstat("l"); err != nil || !e.Symlink {
		t.Errorf("Lstat(l) = %+v, %v", e, err)
	}
	if e, err := r.Lstat("d/x"); err != nil || e.Symlink || e.Type != TypeFile {
		t.Errorf("Lstat through a parent link = %+v, %v", e, err)
	}
	if _, err := r.ReadFileNoFollow("l", 0); CodeOf(err) != CodeNotRegular {
		t.Errorf("ReadFileNoFollow(l): %v", err)
	}
	if b, err := r.ReadFileNoFollow("f", 0); err != nil || string(b) != "data" {
		t.Errorf("ReadFileNoFollow(f) = %q, %v", b, err)
	}
	if _, _, err := r.ReadDir("f"); CodeOf(err) != CodeNotDir {
		t.Errorf("ReadDir(file): %v", err)
	}
}

func TestOpen(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"pkg/f": "x", "file": "y"})
	link := filepath.Join(t.TempDir(), "via-link")
	if err := os.Symlink(filepath.Join(dir, "pkg"), link); err != nil {
		t.Fatal(err)
	}
	r := open(t, link, DefaultLimits())
	if b, err := r.ReadFile("f", 0); err != nil || string(b) != "x" {
		t.Errorf("through linked root: %q %v", b, err)
	}
	if real, _ := filepath.EvalSymlinks(filepath.Join(dir, "pkg")); r.Path() != real {
		t.Errorf("Path = %s", r.Path())
	}
	if _, err := Open(filepath.Join(dir, "file"), DefaultLimits()); CodeOf(err) != CodeNotDir {
		t.Errorf("Open(file): %v", err)
	}
	if _, err := Open(filepath.Join(dir, "missing"), DefaultLimits()); CodeOf(err) != CodeNotFound {
		t.Errorf("Open(missing): %v", err)
	}
}

func BenchmarkWalkAndRead(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 500; i++ {
		files[fmt.Sprintf("d%d/f%d", i%10, i)] = strings.Repeat("x", 1024)
	}
	dir := testtree.Make(b, files)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, _ := Open(dir, DefaultLimits())
		r.Walk(".", func(e Entry, err error) error {
			if e.Type == TypeFile {
				r.ReadFile(e.Rel, 0)
			}
			return nil
		})
		r.Close()
	}
}

// A ".." after a symlink leaves the link's target, as the kernel resolves it, not the
// link's name: lib -> /usr/lib makes lib/../bin/sh mean /usr/bin/sh, outside the root.
func TestDotDotAfterSymlinkIsPhysical(t *testing.T) {
	outside := testtree.Make(t, map[string]string{"lib/": ""})
	r := open(t, testtree.Make(t, map[string]string{
		"bin/sh":    "inside",
		"lib":       "->" + filepath.Join(outside, "lib"),
		"sub/deep/": "",
		"inner":     "->sub/deep",
	}), DefaultLimits())
	for _, p := range []string{"lib/../bin/sh", "lib/.."} {
		if _, err := r.Resolve(p); CodeOf(err) != CodeEscape {
			t.Errorf("Resolve(%q) = %v, want %s", p, err, CodeEscape)
		}
		if _, err := r.ReadFile(p, 0); CodeOf(err) != CodeEscape {
			t.Errorf("ReadFile(%q) = %v, want %s", p, err, CodeEscape)
		}
		if _, err := r.Stat(p); CodeOf(err) != CodeEscape {
			t.Errorf("Stat(%q) = %v, want %s", p, err, CodeEscape)
		}
	}
	// inner -> sub/deep, so inner/.. is sub, not the root.
	got, err := r.Resolve("inner/..")
	if err != nil || got != "sub" {
		t.Fatalf("Resolve(inner/..) = %q, %v; want sub", got, err)
	}
	if e, err := r.Lstat("inner/.."); err != nil || e.Type != TypeDir || e.Symlink {
		t.Fatalf("Lstat(inner/..) = %+v, %v", e, err)
	}
	// A plain ".." inside the root still works lexically.
	if got, err := r.Resolve("bin/../bin/sh"); err != nil || got != "bin/sh" {
		t.Fatalf("Resolve(bin/../bin/sh) = %q, %v", got, err)
	}
}

// A FIFO used as a directory (a parent element of the path) is where a directory handle
// would be opened: it must fail, not block.
func TestFIFOAsParentNeverBlocks(t *testing.T) {
	dir := testtree.Make(t, map[string]string{"pipe": "<fifo>", "ok/f": "x"})
	r := open(t, dir, DefaultLimits())
	mustReturn(t, func() {
		for _, p := range []string{"pipe/x", "pipe/x/y", "pipe/.."} {
			if _, err := r.ReadFile(p, 0); err == nil {
				t.Errorf("ReadFile(%s) succeeded", p)
			}
			if _, err := r.Stat(p); err == nil && p != "pipe/.." {
				t.Errorf("Stat(%s) succeeded", p)
			}
			if _, err := r.Lstat(p); err == nil && p != "pipe/.." {
				t.Errorf("Lstat(%s) succeeded", p)
			}
			if _, _, err := r.ReadDir(p); err == nil && p != "pipe/.." {
				t.Errorf("ReadDir(%s) succeeded", p)
			}
		}
	})
}

// The per-root caches and directory handles are an optimisation: a fresh root, one past
// its handle budget and one reused many times must answer every call the same way.
func TestCachedAnswersMatchFresh(t *testing.T) {
	files := map[string]string{
		"a/b/c/file.txt": "payload", "a/b/link": "->c/file.txt", "a/up": "->..", "a/esc": "->../../x",
		"a/b/c/dangling": "->nope", "a/dirlink": "->b/c", "pipe": "<fifo>", "empty": "",
	}
	const budget = 64 // the shared root's, lowered so that a small tree passes it
	for i := 0; i < budget+10; i++ {
		files[fmt.Sprintf("many/d%03d/f", i)] = fmt.Sprint(i)
	}
	dir := testtree.Make(t, files)
	paths := []string{".", "a", "a/b", "a/b/c/file.txt", "a/b/link", "a/up/a/b/link", "a/esc", "a/b/c/dangling",
		"a/dirlink/file.txt", "a/dirlink/../b/link", "a/b/../b/c/file.txt", "missing", "a/b/c/file.txt/x", "pipe", "empty", "many"}
	for i := 0; i < budget+10; i++ {
		paths = append(paths, fmt.Sprintf("many/d%03d/f", i))
	}
	answer := func(r *Root, p string) string {
		res, rerr := r.Resolve(p)
		st, serr := r.Stat(p)
		lst, lerr := r.Lstat(p)
		data, ferr := r.ReadFile(p, 0)
		es, _, derr := r.ReadDir(p)
		var names []string
		for _, e := range es {
			names = append(names, fmt.Sprintf("%s:%v:%d", e.Name, e.Type, e.Size))
		}
		return fmt.Sprintf("%q %s | %+v %s | %+v %s | %q %s | %v %s", res, CodeOf(rerr), st, CodeOf(serr), lst, CodeOf(lerr), data, CodeOf(ferr), names, CodeOf(derr))
	}
	shared := open(t, dir, DefaultLimits())
	shared.maxDirs = budget
	mustReturn(t, func() {
		for round := 0; round < 2; round++ {
			for _, p := range paths {
				fresh := open(t, dir, DefaultLimits())
				want := answer(fresh, p)
				fresh.Close()
				if got := answer(shared, p); got != want {
					t.Errorf("round %d, %s:\n cached %s\n fresh  %s", round, p, got, want)
				}
			}
		}
	})
	shared.mu.Lock()
	n := len(shared.dirs)
	shared.mu.Unlock()
	if n > budget {
		t.Errorf("%d directory handles, budget %d", n, budget)
	}
}

// resolveTree has every shape resolvePlain must hand over to the full walk.
var resolveTree = map[string]string{
	"a/b/c/file.txt": "payload", "a/b/link": "->c/file.txt", "a/up": "->..", "a/esc": "->../../x",
	"a/b/c/dangling": "->nope", "a/dirlink": "->b/c", "abs": "->$ROOT/a/b", "absout": "->/etc",
	"loop1": "->loop2", "loop2": "->loop1", "pipe": "<fifo>", "empty": "", "d/e/f/g/h": "deep",
}

var resolveSeeds = []string{
	".", "a", "a/", "a//b", "a/./b", "a/b/c/file.txt", "a/b/link", "a/up/a/b/link", "a/esc", "a/b/c/dangling",
	"a/dirlink/file.txt", "a/dirlink/../b/link", "a/b/../b/c/file.txt", "missing", "a/b/c/file.txt/x",
	"pipe", "pipe/x", "empty", "abs/c", "absout/passwd", "loop1", "d/e/f/g/h", "d/e/f/g/h/", "..", "a/../..",
	"a/b/c/d/e/f", "./a", "a/b/c/..", "abs/../..",
}

// The allocation-free path for plain names must answer exactly as the full walk does,
// on every path: the same real path or the same error code.
func TestResolvePlainMatchesWalk(t *testing.T) {
	dir := testtree.Make(t, resolveTree)
	lim := DefaultLimits()
	lim.MaxDepth = 4
	for _, p := range resolveSeeds {
		fast := open(t, dir, lim)
		slow := open(t, dir, lim)
		got, gerr := fast.Resolve(p)
		var want string
		var werr error
		if p == "" || p == "." {
			want = "."
		} else if werr = check(p); werr == nil {
			want, werr = slow.resolveWalk(p)
		}
		if got != want || CodeOf(gerr) != CodeOf(werr) {
			t.Errorf("Resolve(%q) = %q, %v; the full walk says %q, %v", p, got, gerr, want, werr)
		}
	}
}

func FuzzResolvePlain(f *testing.F) {
	for _, p := range resolveSeeds {
		f.Add(p)
	}
	dir := testtree.Make(f, resolveTree)
	lim := DefaultLimits()
	lim.MaxDepth = 4
	fast, err := Open(dir, lim)
	if err != nil {
		f.Fatal(err)
	}
	defer fast.Close()
	slow, err := Open(dir, lim)
	if err != nil {
		f.Fatal(err)
	}
	defer slow.Close()
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 512 {
			return
		}
		got, gerr := fast.Resolve(p)
		want, werr := ".", error(nil)
		if p != "" && p != "." {
			if werr = check(p); werr == nil {
				want, werr = slow.resolveWalk(p)
			} else {
				want = ""
			}
		}
		if got != want || CodeOf(gerr) != CodeOf(werr) {
			t.Errorf("Resolve(%q) = %q, %v; the full walk says %q, %v", p, got, gerr, want, werr)
		}
	})
}

// A directory swapped for a symlink to the outside after the root first looked at it must
// not be followed, whether or not a handle on the directory is already open.
func TestSwappedDirectoryNotFollowed(t *testing.T) {
	for _, warm := range []bool{false, true} {
		dir := testtree.Make(t, map[string]string{"a/f": "inside", "a/g": "inside too"})
		outside := testtree.Make(t, map[string]string{"f": "OUTSIDE", "g": "OUTSIDE"})
		r := open(t, dir, DefaultLimits())
		if _, err := r.Stat("a"); err != nil {
			t.Fatal(err)
		}
		if warm {
			if data, err := r.ReadFile("a/f", 0); err != nil || string(data) != "inside" {
				t.Fatalf("ReadFile(a/f) = %q, %v", data, err)
			}
		}
		if err := os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "a.old")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "a")); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"a/f", "a/g"} {
			if data, err := r.ReadFile(p, 0); strings.Contains(string(data), "OUTSIDE") {
				t.Errorf("warm=%v: ReadFile(%s) read the outside file (%v)", warm, p, err)
			}
		}
		if names, err := r.ReadDirNames("a"); err == nil && len(names) > 0 && !warm {
			t.Errorf("cold: listed the swapped directory: %v", names)
		}
	}
}

// A listing refused by MaxEntries stays refused: the directory handle it read from is
// not read again from where it stopped.
func TestRefusedListingStaysRefused(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxEntries = 10
	for _, d := range []string{"big", "."} {
		files := map[string]string{}
		for i := 0; i < 20; i++ {
			files[fmt.Sprintf("%s/f%02d", d, i)] = "x"
		}
		r := open(t, testtree.Make(t, files), lim)
		if _, err := r.Stat(d + "/."); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if _, err := r.ReadDirNames(d); CodeOf(err) != CodeTooMany {
				t.Errorf("%s, listing %d: %v, want %s", d, i, err, CodeTooMany)
			}
		}
	}
}

// A root whose directories were listed first answers from the listings (types, and on
// Linux the absence of a name): every answer must still be what a fresh root gives, and
// ReadDirTypes must describe each entry as ReadDir does, bar the size and exec bit of
// entries that are not links.
func TestListedFirstAnswersMatchFresh(t *testing.T) {
	files := map[string]string{"bin/tool": "#!/bin/sh\n", "Plugin.JSON": "{}", "skills/x/SKILL.md": "---\n---\n"}
	for k, v := range resolveTree {
		files[k] = v
	}
	dir := testtree.Make(t, files)
	paths := append([]string{"bin/tool", "plugin.json", "Plugin.JSON", "PLUGIN.json", "skills", "skills/x", "skills/x/SKILL.md", "skills/x/skill.md", "skills/absent/SKILL.md", "bin"}, resolveSeeds...)
	answer := func(r *Root, p string) string {
		res, rerr := r.Resolve(p)
		st, serr := r.Stat(p)
		lst, lerr := r.Lstat(p)
		data, ferr := r.ReadFile(p, 0)
		return fmt.Sprintf("%q %s | %+v %s | %+v %s | %q %s", res, CodeOf(rerr), st, CodeOf(serr), lst, CodeOf(lerr), data, CodeOf(ferr))
	}
	listed := open(t, dir, DefaultLimits())
	mustReturn(t, func() {
		for _, d := range []string{".", "a", "a/b", "a/b/c", "bin", "skills", "skills/x", "d", "d/e"} {
			full, _, err := listed.ReadDir(d)
			if err != nil {
				t.Fatalf("ReadDir(%s): %v", d, err)
			}
			typed, _, err := listed.ReadDirTypes(d)
			if err != nil || len(typed) != len(full) {
				t.Fatalf("ReadDirTypes(%s) = %d entries, %v; ReadDir %d", d, len(typed), err, len(full))
			}
			for i := range full {
				a, b := full[i], typed[i]
				if a.Name != b.Name || a.Rel != b.Rel || a.Type != b.Type || a.Symlink != b.Symlink {
					t.Errorf("%s: ReadDir %+v, ReadDirTypes %+v", d, a, b)
				}
			}
		}
		for _, p := range paths {
			fresh := open(t, dir, DefaultLimits())
			want := answer(fresh, p)
			fresh.Close()
			if got := answer(listed, p); got != want {
				t.Errorf("%s:\n listed first %s\n fresh        %s", p, got, want)
			}
		}
	})
	// The exec bit of a file typed by a listing comes with the read.
	r := open(t, dir, DefaultLimits())
	es, _, err := r.ReadDirTypes("bin")
	if err != nil || len(es) != 1 {
		t.Fatal(es, err)
	}
	if _, err := r.ReadFile("bin/tool", 0); err != nil {
		t.Fatal(err)
	}
	if st, err := r.Stat("bin/tool"); err != nil || !st.Exec || st.Size != int64(len("#!/bin/sh\n")) {
		t.Fatalf("Stat after the read: %+v, %v", st, err)
	}
}

package dalo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

func exampleManifest(t *testing.T) string {
	t.Helper()
	return testtree.ReadFile(t, filepath.Join(exampleSource, "plugins/design-review/PLUGIN.toml"))
}

// withManifest loads the example source with its manifest replaced.
func withManifest(t *testing.T, manifest string) *model.Package {
	t.Helper()
	dir := copyTree(t, exampleSource)
	loadertest.WriteFile(t, filepath.Join(dir, "plugins/design-review/PLUGIN.toml"), manifest)
	return loadOne(t, dir, Options{})
}

// TestManifestLimits enforces each manifest limit on its own, just above and at the bound.
func TestManifestLimits(t *testing.T) {
	base := exampleManifest(t)
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	nestedTables := func(n int) string {
		// dotted keys build nested tables without any bracket
		keys := make([]string, n)
		for i := range keys {
			keys[i] = "k"
		}
		return "[providers]\n" + strings.Join(keys, ".") + " = 1\n"
	}
	array := func(n int) string {
		return "[providers]\nx = [" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]\n"
	}
	cases := []struct {
		name, extra, code string
		ok                bool
	}{
		{"manifest 1 MiB over", "\n#" + strings.Repeat("x", 1<<20), "manifest-too-large", false},
		{"manifest 1 MiB under", "\n#" + strings.Repeat("x", (1<<20)-len(base)-3), "", true},
		{"string 16 KiB over", "\n[providers]\ns = \"" + strings.Repeat("a", 16<<10+1) + "\"\n", "manifest-string-too-long", false},
		{"string 16 KiB at", "\n[providers]\ns = \"" + strings.Repeat("a", 16<<10) + "\"\n", "", true},
		{"array 1024 over", "\n" + array(1025), "manifest-too-many-entries", false},
		{"array 1024 at", "\n" + array(1024), "", true},
		{"nesting 32 over (arrays)", "\n[providers]\nx = " + nested(40) + "\n", "manifest-too-deep", false},
		{"nesting 32 over (dotted keys)", "\n" + nestedTables(40), "manifest-too-deep", false},
		{"nesting 32 at", "\n" + nestedTables(30), "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := withManifest(t, base+tc.extra)
			if p.Valid() != tc.ok {
				t.Errorf("valid = %v, want %v: %v", p.Valid(), tc.ok, allCodes(p))
			}
			if tc.code != "" && !hasCode(p, tc.code) {
				t.Errorf("codes %v lack %s", allCodes(p), tc.code)
			}
		})
	}
	t.Run("table 1024 over", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(base + "\n[providers]\n")
		for i := 0; i < 1025; i++ {
			fmt.Fprintf(&b, "k%d = 1\n", i)
		}
		if p := withManifest(t, b.String()); !hasCode(p, "manifest-too-many-entries") {
			t.Errorf("codes %v", allCodes(p))
		}
	})
}

// TestHookListLimits: matcher tool names and bindings are limited to 256 entries each.
func TestHookListLimits(t *testing.T) {
	base := exampleManifest(t)
	toolCall := strings.Replace(strings.Replace(base, `subject = "user_prompt"`, `subject = "tool_call"`, 1), `effect = "add_context"`, `effect = "observe"`, 1)
	names := func(n int) string {
		var xs []string
		for i := 0; i < n; i++ {
			xs = append(xs, fmt.Sprintf("%q", fmt.Sprintf("T%d", i)))
		}
		return "matcher = { tool_names = [" + strings.Join(xs, ", ") + "] }\n"
	}
	withMatcher := func(n int) string {
		return strings.Replace(toolCall, "blocking_scope = \"matched_event\"\n", "blocking_scope = \"matched_event\"\n"+names(n), 1)
	}
	if p := withManifest(t, withMatcher(257)); !hasCode(p, "hook-matcher-limit") || p.Valid() {
		t.Errorf("257 matcher names: %v", allCodes(p))
	}
	if p := withManifest(t, withMatcher(256)); !p.Valid() {
		t.Errorf("256 matcher names: %v", allCodes(p))
	}
	bindings := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString("\n[[hook.bindings]]\ninput = \"project_dir\"\nfield = \"session.cwd\"\n")
		}
		return b.String()
	}
	if p := withManifest(t, base+bindings(256)); !hasCode(p, "hook-bindings-limit") || p.Valid() {
		t.Errorf("257 bindings: %v", allCodes(p))
	}
	if p := withManifest(t, base+bindings(255)); hasCode(p, "hook-bindings-limit") {
		t.Errorf("256 bindings hit the limit: %v", allCodes(p))
	}
}

// TestTOMLBombs: each bomb is refused by a limit without a large allocation (the work is
// counted in bytes allocated; a time bound would depend on the machine).
func TestTOMLBombs(t *testing.T) {
	bombs := []struct {
		name string
		data []byte
		code string
	}{
		{"deep nesting", []byte("schema_version = 1\nx = " + strings.Repeat("[", 1<<20-20)), "manifest-too-large"},
		{"deep nesting under 1 MiB", []byte("schema_version = 1\nx = " + strings.Repeat("[", 500_000) + strings.Repeat("]", 500_000)), "manifest-too-deep"},
		{"deep inline tables", []byte("x = " + strings.Repeat("{a=", 100_000) + "1" + strings.Repeat("}", 100_000)), "manifest-too-deep"},
		{"1M-entry array", []byte("x = [" + strings.Repeat("0,", 1_000_000) + "0]"), "manifest-too-large"},
		{"300k-entry array under 1 MiB", []byte("x = [" + strings.Repeat("0,", 300_000) + "0]"), "manifest-too-many-entries"},
		{"16 MiB string", []byte("x = \"" + strings.Repeat("a", 16<<20) + "\""), "manifest-too-large"},
		{"1000-segment dotted key", []byte(strings.Repeat("a.", 1000) + "a = 1"), "manifest-too-deep"},
		// The decoder's cost is quadratic in a key's segments: 8 KB made it allocate 675 MB.
		{"4000-segment dotted key", []byte(strings.Repeat("a.", 4000) + "a = 1"), "manifest-too-deep"},
		{"4000-segment quoted dotted key", []byte(strings.Repeat(`"a" . 'b'.`, 2000) + "a = 1"), "manifest-too-deep"},
		{"dotted key in an inline table", []byte("x = {" + strings.Repeat("a.", 4000) + "a = 1}"), "manifest-too-deep"},
	}
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			var m *manifest
			var diags []model.Diagnostic
			mallocs, allocated := testtree.AllocatedBy(func() { m, _, diags = parseManifest(b.data, "PLUGIN.toml") })
			if m != nil || len(diags) == 0 || diags[0].Code != b.code {
				t.Fatalf("diags = %+v, want %s", diags, b.code)
			}
			// Refused by a limit, a bomb costs at most a small multiple of its own size
			// (the decoder's linear work before the tree is bounded), never what it expands to.
			if max := 128*uint64(len(b.data)) + 1<<20; allocated > max {
				t.Errorf("%d bytes of input: %d allocations, %d bytes allocated (bound %d)", len(b.data), mallocs, allocated, max)
			}
		})
	}
	// The same through Load: the file is refused by size before it is read.
	dir := copyTree(t, exampleSource)
	loadertest.WriteFile(t, filepath.Join(dir, "plugins/design-review/PLUGIN.toml"), "x = \""+strings.Repeat("a", 16<<20)+"\"")
	if p := loadOne(t, dir, Options{}); !p.Rejected || !hasCode(p, "manifest-too-large") {
		t.Errorf("16 MiB manifest: %v", allCodes(p))
	}
}

// TestPackageLimits enforces each package limit on its own: entries, directory depth,
// per-file size and total size. Large files are sparse, and sizes are checked from the
// listing before anything is read.
func TestPackageLimits(t *testing.T) {
	t.Run("4096 entries", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		pk := filepath.Join(dir, "plugins/design-review/many")
		for i := 0; i < 4096; i++ {
			loadertest.WriteFile(t, filepath.Join(pk, fmt.Sprint(i)), "")
		}
		p := loadOne(t, dir, Options{})
		if !hasCode(p, "package-too-many-entries") || p.Valid() {
			t.Errorf("codes %v", allCodes(p))
		}
	})
	t.Run("32 directory levels", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		deep := filepath.Join(dir, "plugins/design-review", strings.Repeat("d/", 33))
		loadertest.WriteFile(t, filepath.Join(deep, "f"), "x")
		p := loadOne(t, dir, Options{})
		if !hasCode(p, "package-too-deep") || p.Valid() {
			t.Errorf("codes %v", allCodes(p))
		}
		ok := copyTree(t, exampleSource)
		shallow := filepath.Join(ok, "plugins/design-review", strings.Repeat("d/", 31))
		loadertest.WriteFile(t, filepath.Join(shallow, "f"), "x")
		if p := loadOne(t, ok, Options{}); !p.Valid() {
			t.Errorf("31 levels rejected: %v", allCodes(p))
		}
	})
	t.Run("64 MiB per file", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		testtree.Sparse(t, filepath.Join(dir, "plugins/design-review/big.bin"), 64<<20+1)
		p := loadOne(t, dir, Options{})
		if !hasCode(p, "package-file-too-large") || p.Valid() {
			t.Errorf("codes %v", allCodes(p))
		}
	})
	t.Run("256 MiB per package", func(t *testing.T) {
		dir := copyTree(t, exampleSource)
		for i := 0; i < 5; i++ {
			testtree.Sparse(t, filepath.Join(dir, fmt.Sprintf("plugins/design-review/part%d.bin", i)), 60<<20)
		}
		p := loadOne(t, dir, Options{})
		if !hasCode(p, "package-too-large") || hasCode(p, "package-file-too-large") || p.Valid() {
			t.Errorf("codes %v", allCodes(p))
		}
		// Refused from the listing, before reading: no files digest was computed, where
		// the same package without the large parts has one.
		if p.FilesDigest != "" {
			t.Errorf("files digest %s: the package was read although its size is over the limit", p.FilesDigest)
		}
		if ok := loadOne(t, copyTree(t, exampleSource), Options{}); ok.FilesDigest == "" {
			t.Error("the example itself has no files digest: the check above proves nothing")
		}
	})
	t.Run("custom limits", func(t *testing.T) {
		lim := fsguard.DefaultLimits()
		lim.MaxEntries = 1
		p := loadOne(t, exampleSource, Options{Limits: lim})
		if !hasCode(p, "package-too-many-entries") {
			t.Errorf("codes %v", allCodes(p))
		}
	})
}

// Dotted keys and numbers below the nesting limit decode as before the dotted-key bound.
func TestDottedKeysWithinLimit(t *testing.T) {
	data := []byte("schema_version = 1\nplugin.name = \"p\"\n\"plugin\" . 'description' = \"v1.2.3 a.b.c\"\n" +
		"[tool_x]\n" + strings.Repeat("k.", 30) + "k = 1.5\n")
	_, raw, diags := parseManifest(data, "PLUGIN.toml")
	if raw == nil {
		t.Fatalf("not decoded: %+v", diags)
	}
	if p, _ := raw["plugin"].(map[string]any); p["description"] != "v1.2.3 a.b.c" {
		t.Errorf("plugin %v", raw["plugin"])
	}
	for _, d := range diags {
		if d.Code == "manifest-too-deep" {
			t.Errorf("31 segments refused: %+v", d)
		}
	}
}

package splice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/review/internal/loadertest"
)

// badInputs are committed under testdata/bad as <code>__<case> so the directory itself
// documents what each file must produce. SPLICE_WRITE_BAD=1 regenerates them.
func badInputs() map[string][]byte {
	return map[string][]byte{
		"archive-unsafe-path__zip-slip.tar.gz":                   with(entry{name: "../../evil.ts", content: []byte("x")}),
		"archive-unsafe-path__absolute.tar.gz":                   with(entry{name: "/etc/passwd", content: []byte("x")}),
		"archive-unsupported-entry__symlink.tar.gz":              with(entry{name: "tools/link.ts", typ: '2'}),
		"archive-unsupported-entry__hardlink.tar.gz":             with(entry{name: "tools/hard.ts", typ: '1'}),
		"archive-unsupported-entry__pax.tar.gz":                  with(entry{name: "PaxHeader", typ: 'x', content: []byte("30 path=../../etc/passwd\n")}),
		"archive-unsupported-entry__device.tar.gz":               with(entry{name: "dev", typ: '3'}),
		"archive-directory-with-data__hidden-file.tar.gz":        with(entry{name: "tools/", typ: '5', content: padded(hidden)}),
		"archive-trailing-data__entry-after-end.tar.gz":          gz(append(append(tarOf(basePackage()), padded(hidden)...), make([]byte, 2*block)...)),
		"archive-gzip-second-member__concatenated.tar.gz":        append(with(), gz(tarOf([]entry{hidden}))...),
		"archive-prefix-not-posix__old-gnu.tar.gz":               with(entry{prefix: "examples", name: "SKILL.md", magic: "ustar ", version: " \x00", content: []byte("# replaced")}),
		"archive-checksum-mismatch__corrupt.tar.gz":              replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# Example"), badChecksum: true}),
		"archive-duplicate-path__case.tar.gz":                    with(entry{name: "skill.md", content: []byte("# other")}),
		"archive-not-gzip__truncated.tar.gz":                     with()[:100],
		"archive-too-many-files__501.tar.gz":                     manyFiles(501),
		"package-disallowed-file__hidden.tar.gz":                 with(entry{name: ".env", content: []byte("TOKEN=x")}),
		"package-disallowed-file__node-modules.tar.gz":           with(entry{name: "node_modules/x/index.js", content: []byte("x")}),
		"skill-doc-nul__nul.tar.gz":                              replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# a\x00b")}),
		"bundle-unsafe-path__zip-slip.splice-bundle.json":        bundleOf(map[string]string{"../x": "a"}, "../x"),
		"bundle-duplicate-path__case.splice-bundle.json":         bundleOf(map[string]string{"SKILL.md": "a", "skill.md": "b"}, "SKILL.md", "skill.md"),
		"manifest-unsupported-version__v2.splice-bundle.json":    bundleOf(map[string]string{"SKILL.md": "# a", "manifest.json": strings.Replace(goodManifest, `"specVersion":1`, `"specVersion":2`, 1), "tools/hello.ts": "x"}, "SKILL.md", "manifest.json", "tools/hello.ts"),
		"schema-unsupported-keyword__pattern.splice-bundle.json": bundleOf(map[string]string{"SKILL.md": "# a", "manifest.json": strings.Replace(goodManifest, `{"type":"object"}`, `{"type":"object","pattern":"x"}`, 1), "tools/hello.ts": "x"}, "SKILL.md", "manifest.json", "tools/hello.ts"),
	}
}

func TestBadInputs(t *testing.T) {
	dir := filepath.Join("testdata", "bad")
	if os.Getenv("SPLICE_WRITE_BAD") != "" {
		os.MkdirAll(dir, 0o755)
		for name, data := range badInputs() {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		code, _, ok := strings.Cut(e.Name(), "__")
		if !ok {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			pkg := Load(filepath.Join(dir, e.Name()), Options{})
			if findDiag(pkg, code) == nil {
				t.Fatalf("want %s, got %+v", code, loadertest.Diagnostics(pkg))
			}
			if pkg.Valid() {
				t.Error("bad input accepted")
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d bad inputs", n)
	}
}

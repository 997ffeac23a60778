package splice

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzArchive feeds arbitrary artifact bytes to the decoder and the package builder.
// Neither may panic, and whatever is accepted must satisfy the path rules.
func FuzzArchive(f *testing.F) {
	for _, set := range []string{"archive-test-example", "spec-test-example"} {
		for _, name := range []string{set + ".tar.gz", set + ".splice-bundle.json"} {
			if b, err := os.ReadFile(filepath.Join(fixtures, set, name)); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Decode(data)
		if err != nil {
			if _, ok := err.(*DecodeError); !ok {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		if len(files) > MaxFiles {
			t.Fatalf("%d files accepted", len(files))
		}
		seen := map[string]bool{}
		for _, fl := range files {
			if !isSafeBundlePath(fl.Path) {
				t.Fatalf("unsafe path accepted: %q", fl.Path)
			}
			if seen[dupKey(fl.Path)] {
				t.Fatalf("duplicate accepted: %q", fl.Path)
			}
			seen[dupKey(fl.Path)] = true
		}
		pkg := newPackageForTest()
		build(pkg, files, nil, true)
	})
}

// FuzzManifest runs the manifest validator and the component builder on arbitrary text.
func FuzzManifest(f *testing.F) {
	for _, p := range []string{
		filepath.Join(fixtures, "skills-example/files/manifest.json"),
		"testdata/upstream/manifests/skills-files.manifest.json",
		"testdata/upstream/manifests/agent-repo-scout.manifest.json",
	} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(goodManifest))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, issues := ValidateManifestJSON(data)
		for _, is := range issues {
			if is.Code == "" || is.Message == "" {
				t.Fatalf("issue without code or message: %+v", is)
			}
		}
		if m == nil {
			return
		}
		files := []File{{Path: "manifest.json", Content: data}, {Path: "SKILL.md", Content: []byte("# x")}}
		for _, tl := range m.Tools {
			if isValidToolEntry(tl.Entry) {
				files = append(files, File{Path: tl.Entry, Content: []byte("x")})
			}
		}
		pkg := newPackageForTest()
		build(pkg, files, nil, true)
		for _, c := range pkg.Components {
			if c.Contract != nil {
				if _, err := c.Contract.Digest(); err != nil {
					t.Fatalf("contract of %s does not serialize: %v", c.ID, err)
				}
			}
		}
	})
}

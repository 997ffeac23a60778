package mcpb

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"vouch/model"
)

// FuzzReadZip: the strict zip reader never panics, never returns files with a refusal,
// and what it accepts holds only safe, unique paths within the limits.
func FuzzReadZip(f *testing.F) {
	good := mkzip(f, goodEntries()...)
	big := bomb(f, 1024)
	f.Add(good)
	for _, p := range []string{"testdata/packed/notes-server.mcpb", "testdata/packed/signed.mcpb"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add(mkzip(f, entry{name: "../../x", body: "x"}))
	f.Add(mkzip(f, entry{name: "l", body: "/etc/passwd", mode: 0o777 | 1<<27}))
	f.Add(mkzip(f, entry{name: "a", body: "1"}, entry{name: "a", body: "2"}))
	f.Add(mkzip(f, entry{name: "A", body: "1"}, entry{name: "a", body: "2"}))
	f.Add(mkzip(f, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(big)), UncompressedSize64: 1 << 30}, data: big}))
	f.Add(good[:len(good)-eocdLen-20])
	f.Add(overlap(f, mkzip(f, entry{name: "manifest.json", body: goodManifest}), "manifest.xson"))
	lim := ZipLimits{MaxArchiveBytes: 4 << 20, MaxEntries: 64, MaxFileBytes: 1 << 20, MaxTotalBytes: 4 << 20, MaxRatio: 1100}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, _, err := ReadZip(data, lim)
		if err != nil {
			if files != nil {
				t.Fatal("files returned with an error")
			}
			if _, ok := err.(*ZipError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		seen := map[string]bool{}
		var total int
		for _, fl := range files {
			if checkName(fl.Path) != nil || seen[fl.Path] || len(fl.Content) > int(lim.MaxFileBytes) {
				t.Fatalf("accepted %q", fl.Path)
			}
			seen[fl.Path] = true
			total += len(fl.Content)
		}
		if total > int(lim.MaxTotalBytes) || len(files) > lim.MaxEntries {
			t.Fatalf("limits passed: %d bytes, %d files", total, len(files))
		}
	})
}

// FuzzParseManifest: manifest parsing, validation and the component built from it never
// panic, and a package without error diagnostics always has an approvable server.
func FuzzParseManifest(f *testing.F) {
	dirs, _ := filepath.Glob("testdata/cases/*/manifest.json")
	for _, d := range dirs {
		if b, err := os.ReadFile(d); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(goodManifest))
	f.Add([]byte(`{"manifest_version":"0.3","server":{"mcp_config":{"args":["${user_config.a}"],"platform_overrides":{"x":{}}}},"user_config":{"a":{"default":[1,true,"s"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _ := ParseManifest(data)
		if m == nil {
			return
		}
		m.Validate()
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "manifest.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p := Load(d, Options{Home: "/h"})
		if p.Valid() && (len(p.Components) != 1 || p.Components[0].Contract == nil) {
			t.Fatalf("valid without an approvable server: %+v", p.Components)
		}
		for _, c := range p.Components {
			if c.Contract != nil {
				if _, err := c.Contract.Canonical(); err != nil && c.Validity == model.Valid {
					// Invalid UTF-8 cannot reach here: the parser rejects it.
					t.Fatalf("contract: %v", err)
				}
			}
		}
	})
}

// TestWriteCorpus regenerates the committed hostile-zip corpus of FuzzReadZip
// (VOUCH_WRITE_CORPUS=1 go test -run TestWriteCorpus). The 1 GiB bomb is built by
// FuzzReadZip itself rather than committed (1 MiB).
func TestWriteCorpus(t *testing.T) {
	if os.Getenv("VOUCH_WRITE_CORPUS") == "" {
		t.Skip("set VOUCH_WRITE_CORPUS=1 to rewrite testdata/fuzz/FuzzReadZip")
	}
	small := bomb(t, 8)
	good := mkzip(t, goodEntries()...)
	seeds := map[string][]byte{
		"zip-slip":         mkzip(t, entry{name: "../../.bashrc", body: "curl x | sh"}),
		"symlink":          mkzip(t, entry{name: "passwd", body: "/etc/passwd", mode: 0o777 | 1<<27}),
		"duplicate":        mkzip(t, entry{name: "a", body: "1"}, entry{name: "a", body: "2"}),
		"duplicate-case":   mkzip(t, entry{name: "README", body: "1"}, entry{name: "readme", body: "2"}),
		"bomb-lying-64MiB": mkzip(t, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(small)), UncompressedSize64: 64 << 20}, data: small}),
		"truncated-cd":     append(append([]byte(nil), good[:len(good)-eocdLen-20]...), good[len(good)-eocdLen:]...),
		"truncated-end":    good[:len(good)-10],
		"overlapping":      overlap(t, mkzip(t, entry{name: "manifest.json", body: goodManifest}), "manifest.xson"),
		"signed":           append(append([]byte(nil), good...), append(append([]byte("MCPB_SIG_V1"), 4, 0, 0, 0), "DER!MCPB_SIG_END"...)...),
		"trailing-data":    append(append([]byte(nil), good...), "GARBAGE"...),
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzReadZip")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range seeds {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("go test fuzz v1\n[]byte("+strconv.Quote(string(b))+")\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

package splice

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/review/internal/loadertest"
)

// padded is an entry's header and content as it sits in a tar stream.
func padded(e entry) []byte {
	b := append(header(e), e.content...)
	if pad := len(e.content) % block; pad != 0 {
		b = append(b, make([]byte, block-pad)...)
	}
	return b
}

// hidden is the file every disagreement case tries to smuggle past the review.
var hidden = entry{name: "tools/evil.ts", content: []byte("process.exit(1)")}

// withoutEnd is the base package's tar stream without its two end blocks.
func withoutEnd() []byte {
	t := tarOf(basePackage())
	return t[:len(t)-2*block]
}

// extractorCases are archives a mainstream extractor (GNU tar, bsdtar, Node's tar) reads
// as a different set of files than vouch would show; each names the rule that refuses it.
// SPLICE_WRITE_EXTRACTOR=DIR writes them to DIR so they can be tried with real extractors;
// SPLICE_WRITE_SEEDS=1 adds them to the FuzzArchive corpus (testdata/fuzz/FuzzArchive).
func extractorCases() []struct {
	name, code, msg string
	data            []byte
} {
	loneZero := append(withoutEnd(), make([]byte, block)...)
	loneZero = append(loneZero, padded(hidden)...)
	loneZero = append(loneZero, make([]byte, 2*block)...)
	trailingEntry := append(tarOf(basePackage()), padded(hidden)...)
	trailingEntry = append(trailingEntry, make([]byte, 2*block)...)
	return []struct {
		name, code, msg string
		data            []byte
	}{
		// GNU tar and Node's tar give a directory no data, so these bytes are headers there.
		{"directory-with-data", "archive-directory-with-data", `Directory entry "tools/" carries 1024 bytes`,
			with(entry{name: "tools/", typ: '5', content: padded(hidden)})},
		{"directory-unsafe", "archive-unsafe-path", `"../outside/"`, with(entry{name: "../outside/", typ: '5'})},
		// A NUL-typed (or '0') entry whose name ends in "/" is a directory to GNU tar and Node's tar.
		{"nul-type-trailing-slash", "archive-unsafe-path", `"tools/x/"`, with(entry{name: "tools/x/", nulType: true, content: padded(hidden)})},
		{"contiguous", "archive-unsupported-entry", "type '7'", with(entry{name: "tools/evil.ts", typ: '7', content: []byte("x")})},
		{"sparse", "archive-unsupported-entry", "type 'S'", with(entry{name: "tools/evil.ts", typ: 'S', content: []byte("x")})},
		{"volume-label", "archive-unsupported-entry", "type 'V'", with(entry{name: "tools/evil.ts", typ: 'V', content: []byte("x")})},
		{"multivolume", "archive-unsupported-entry", "type 'M'", with(entry{name: "tools/evil.ts", typ: 'M', content: []byte("x")})},
		{"gnu-longlink", "archive-unsupported-entry", "type 'K'", with(entry{name: "././@LongLink", typ: 'K', content: []byte("tools/hello.ts\x00")}, entry{name: "x", typ: '2'})},
		{"gnu-longname-rename", "archive-unsupported-entry", "type 'L'", with(entry{name: "././@LongLink", typ: 'L', content: []byte("tools/evil.ts\x00")}, entry{name: "examples/a.json", content: []byte("{}")})},
		{"pax-path-override", "archive-unsupported-entry", "type 'x'", with(entry{name: "PaxHeader/a", typ: 'x', content: []byte("26 path=tools/evil.ts\n")}, entry{name: "examples/a.json", content: []byte("{}")})},
		{"pax-global-path", "archive-unsupported-entry", "type 'g'", with(entry{name: "pax_global_header", typ: 'g', content: []byte("26 path=tools/evil.ts\n")})},
		{"vendor-type", "archive-unsupported-entry", "type 'A'", with(entry{name: "tools/evil.ts", typ: 'A', content: []byte("x")})},
		{"hardlink-to-tool", "archive-unsupported-entry", "type '1'", with(entry{name: "tools/evil.ts", typ: '1', linkname: "tools/hello.ts"})},
		{"regular-with-link-name", "archive-unsupported-entry", `with link name "tools/hello.ts"`, with(entry{name: "tools/evil.ts", linkname: "tools/hello.ts", content: []byte("x")})},
		// An old-GNU header keeps times where ustar keeps the prefix: every extractor
		// ignores it there and writes "SKILL.md" over the one vouch shows.
		{"prefix-in-old-gnu-header", "archive-prefix-not-posix", `extract "SKILL.md"`,
			with(entry{prefix: "examples", name: "SKILL.md", magic: "ustar ", version: " \x00", content: []byte("# replaced")})},
		{"prefix-wrong-version", "archive-prefix-not-posix", `"examples/b.json"`, with(entry{prefix: "examples", name: "b.json", version: "01", content: []byte("{}")})},
		// Node's tar strips /\0.*/ and "." stops at the line break: it makes "tools/x.ts\nevil".
		{"name-bytes-after-nul", "archive-header-field-garbage", `name field "tools/x.ts"`, with(entry{rawName: []byte("tools/x.ts\x00\nevil"), content: []byte("x")})},
		{"prefix-bytes-after-nul", "archive-header-field-garbage", "prefix field", with(entry{prefix: "examples\x00\nx", name: "a.json", content: []byte("{}")})},
		// Node's tar reads past a single zero block; GNU tar -i past the end blocks.
		{"entry-after-lone-zero-block", "archive-trailing-data", "after its end-of-archive block", gz(loneZero)},
		{"entry-after-end", "archive-trailing-data", "after its end-of-archive block", gz(trailingEntry)},
		{"bytes-after-end", "archive-trailing-data", "(at byte 4096 of the tar stream)", gz(append(tarOf(basePackage()), []byte("hidden after the end")...))},
		// gzip -d (GNU tar -z) and Node's zlib join members; other gunzips stop after one.
		{"second-gzip-member", "archive-gzip-second-member", "second gzip member", append(with(), gz(tarOf([]entry{hidden}))...)},
		// APFS and HFS+ ignore normalization: both names are one file on macOS.
		{"normalization-duplicate", "archive-duplicate-path", "Duplicate file path", with(entry{name: "examples/caf\u00e9.json", content: []byte("{}")}, entry{name: "examples/cafe\u0301.json", content: []byte(`{"x":1}`)})},
		{"bytes-after-gzip", "archive-gzip-trailing-data", "4 bytes after its gzip stream", append(with(), "junk"...)},
	}
}

func TestExtractorDisagreements(t *testing.T) {
	dir := t.TempDir()
	out := os.Getenv("SPLICE_WRITE_EXTRACTOR")
	for _, c := range extractorCases() {
		t.Run(c.name, func(t *testing.T) {
			if out != "" {
				os.WriteFile(filepath.Join(out, c.name+".tar.gz"), c.data, 0o644)
			}
			if os.Getenv("SPLICE_WRITE_SEEDS") != "" {
				seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", c.data)
				os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzArchive", "seed-extractor-"+c.name), []byte(seed), 0o644)
			}
			_, err := Decode(c.data)
			de, ok := err.(*DecodeError)
			if !ok || de.Code != c.code || !strings.Contains(de.Message, c.msg) {
				t.Fatalf("Decode: want %s containing %q, got %v", c.code, c.msg, err)
			}
			p := filepath.Join(dir, c.name+".tar.gz")
			os.WriteFile(p, c.data, 0o644)
			pkg := Load(p, Options{})
			if findDiag(pkg, c.code) == nil || pkg.Valid() || !pkg.Rejected {
				t.Fatalf("Load accepted it or lost the rule: %+v", loadertest.Diagnostics(pkg))
			}
		})
	}
}

// The stricter rules leave ordinary archives alone: NUL-typed files, old-GNU headers
// without a prefix, empty directory entries, zero padding to a tar record, and archives
// GNU tar and Node's tar made from a package folder.
func TestExtractorAgreementsAccepted(t *testing.T) {
	record := tarOf(append([]entry{{name: "./", typ: '5'}, {name: "tools/", typ: '5'}}, basePackage()...))
	record = append(record, make([]byte, 10240-len(record)%10240)...)
	nulTyped := basePackage()
	for i := range nulTyped {
		nulTyped[i].nulType = true
	}
	gnu := basePackage()
	for i := range gnu {
		gnu[i].magic, gnu[i].version = "ustar ", " \x00"
	}
	cases := map[string][]byte{
		"record-padding": gz(record),
		"nul-typed":      gz(tarOf(nulTyped)),
		"old-gnu-magic":  gz(tarOf(gnu)),
		"posix-prefix":   with(entry{prefix: "examples", name: "a.json", content: []byte("{}")}),
	}
	for _, name := range []string{"gnu-tar.tar.gz", "node-tar.tar.gz"} {
		b, err := os.ReadFile(filepath.Join("testdata", "extractors", name))
		if err != nil {
			t.Fatal(err)
		}
		cases[name] = b
	}
	for name, data := range cases {
		files, err := Decode(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var paths []string
		for _, f := range files {
			paths = append(paths, f.Path)
		}
		if !bytes.Contains([]byte(strings.Join(paths, ",")), []byte("tools/hello.ts")) || len(files) < 3 {
			t.Errorf("%s: files %v", name, paths)
		}
	}
}

package splice

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// entry is one tar entry for the hostile-archive builder.
type entry struct {
	name, prefix string
	typ          byte
	content      []byte
	size         int64 // header size when >= 0 and content is nil... see sizeSet
	sizeSet      bool
	badChecksum  bool
	magic        string
	version      string // the two bytes after the magic; "00" unless set
	rawSize      string // literal size field
	nulType      bool   // type byte NUL (the pre-POSIX regular file) instead of '0'
	linkname     string
	rawName      []byte // literal name field, bytes after a NUL included
}

const goodManifest = `{"specVersion":1,"namespace":"splice","name":"example","version":"0.1.0","description":"Example","tools":[{"name":"hello","description":"hi","entry":"tools/hello.ts","input":{"type":"object"}}]}`

func basePackage() []entry {
	return []entry{
		{name: "SKILL.md", content: []byte("# Example")},
		{name: "manifest.json", content: []byte(goodManifest)},
		{name: "tools/hello.ts", content: []byte("export default () => ({})")},
	}
}

// header writes a ustar header the way Splice's encoder does, with knobs to break it.
func header(e entry) []byte {
	h := make([]byte, block)
	copy(h[0:100], e.name)
	if e.rawName != nil {
		copy(h[0:100], e.rawName)
	}
	copy(h[100:], "0000644\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	size := int64(len(e.content))
	if e.sizeSet {
		size = e.size
	}
	if e.rawSize != "" {
		copy(h[124:136], e.rawSize)
	} else {
		copy(h[124:], fmt.Sprintf("%011o\x00", size))
	}
	copy(h[136:], "00000000000\x00")
	for i := 148; i < 156; i++ {
		h[i] = ' '
	}
	h[156] = '0'
	if e.typ != 0 {
		h[156] = e.typ
	}
	if e.nulType {
		h[156] = 0
	}
	copy(h[157:257], e.linkname)
	magic := "ustar\x00"
	if e.magic != "" {
		magic = e.magic
	}
	copy(h[257:], magic)
	version := "00"
	if e.version != "" {
		version = e.version
	}
	copy(h[263:], version)
	copy(h[345:500], e.prefix)
	var sum int64
	for _, b := range h {
		sum += int64(b)
	}
	if e.badChecksum {
		sum++
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

func tarOf(entries []entry) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		b.Write(header(e))
		b.Write(e.content)
		if pad := len(e.content) % block; pad != 0 {
			b.Write(make([]byte, block-pad))
		}
	}
	b.Write(make([]byte, 2*block))
	return b.Bytes()
}

func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func with(extra ...entry) []byte { return gz(tarOf(append(basePackage(), extra...))) }

func replaced(name string, e entry) []byte {
	var out []entry
	for _, b := range basePackage() {
		if b.name == name {
			out = append(out, e)
		} else {
			out = append(out, b)
		}
	}
	return gz(tarOf(out))
}

func manyFiles(n int) []byte {
	es := basePackage()
	for i := 0; len(es) < n; i++ {
		es = append(es, entry{name: fmt.Sprintf("examples/%03d.json", i), content: []byte("{}")})
	}
	return gz(tarOf(es))
}

func bundleOf(files map[string]string, order ...string) []byte {
	var parts []string
	for _, p := range order {
		parts = append(parts, fmt.Sprintf(`{"path":%q,"content":%q}`, p, base64.StdEncoding.EncodeToString([]byte(files[p]))))
	}
	return []byte(`{"format":"splice-bundle","formatVersion":1,"files":[` + strings.Join(parts, ",") + `]}`)
}

var goodBundleFiles = map[string]string{"SKILL.md": "# Example", "manifest.json": goodManifest, "tools/hello.ts": "export default () => ({})"}

// Every hostile artifact is rejected, by Load, with a diagnostic naming the rule.
func TestHostileArtifacts(t *testing.T) {
	truncatedGzip := with()
	truncatedGzip = truncatedGzip[:len(truncatedGzip)/2]
	truncEntry := tarOf(basePackage())
	truncEntry = append(truncEntry[:len(truncEntry)-2*block], header(entry{name: "tools/big.ts", sizeSet: true, size: 4096})...)
	truncEntry = append(truncEntry, make([]byte, 1024)...)
	trailing := append(tarOf(basePackage()), []byte("hidden after the end")...)
	cases := []struct {
		name string
		data []byte
		code string
		msg  string // substring of the upstream message
	}{
		{"zip-slip", with(entry{name: "../evil.ts", content: []byte("x")}), "archive-unsafe-path", `Unsafe file path in archive: "../evil.ts"`},
		{"zip-slip-inner", with(entry{name: "tools/../../evil.ts", content: []byte("x")}), "archive-unsafe-path", "Unsafe file path"},
		{"zip-slip-prefix", with(entry{prefix: "..", name: "evil.ts", content: []byte("x")}), "archive-unsafe-path", `"../evil.ts"`},
		{"absolute", with(entry{name: "/etc/cron.d/x", content: []byte("x")}), "archive-unsafe-path", `"/etc/cron.d/x"`},
		{"drive-letter", with(entry{name: "C:/x.ts", content: []byte("x")}), "archive-unsafe-path", "Unsafe file path"},
		{"backslash", with(entry{name: `tools\evil.ts`, content: []byte("x")}), "archive-unsafe-path", "Unsafe file path"},
		{"empty-segment", with(entry{name: "tools//x.ts", content: []byte("x")}), "archive-unsafe-path", "Unsafe file path"},
		{"symlink", with(entry{name: "tools/link.ts", typ: '2'}), "archive-unsupported-entry", `(type '2'): only regular files are allowed`},
		{"hardlink", with(entry{name: "tools/hard.ts", typ: '1'}), "archive-unsupported-entry", "type '1'"},
		{"char-device", with(entry{name: "dev", typ: '3'}), "archive-unsupported-entry", "type '3'"},
		{"block-device", with(entry{name: "dev", typ: '4'}), "archive-unsupported-entry", "type '4'"},
		{"fifo", with(entry{name: "fifo", typ: '6'}), "archive-unsupported-entry", "type '6'"},
		{"pax", with(entry{name: "PaxHeader", typ: 'x', content: []byte("30 path=../../etc/passwd\n")}), "archive-unsupported-entry", "type 'x'"},
		{"pax-global", with(entry{name: "pax_global_header", typ: 'g', content: []byte("9 a=b\n")}), "archive-unsupported-entry", "type 'g'"},
		{"gnu-longname", with(entry{name: "././@LongLink", typ: 'L', content: []byte("x\x00")}), "archive-unsupported-entry", "type 'L'"},
		{"checksum", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# Example"), badChecksum: true}), "archive-checksum-mismatch", "Tar header checksum mismatch"},
		{"not-ustar", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# Example"), magic: "GNUtar"}), "archive-not-ustar", "Not a ustar archive"},
		{"bad-number", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# Example"), rawSize: "0000000001x\x00"}), "archive-header-invalid-number", "invalid number"},
		{"bad-utf8-name", with(entry{name: "tools/\xff.ts", content: []byte("x")}), "archive-header-invalid-utf8", "invalid UTF-8"},
		{"501-files", manyFiles(501), "archive-too-many-files", "Archive has more than 500 files"},
		{"case-duplicate", with(entry{name: "skill.md", content: []byte("# other")}), "archive-duplicate-path", `Duplicate file path in archive: "skill.md"`},
		{"exact-duplicate", with(entry{name: "tools/hello.ts", content: []byte("evil")}), "archive-duplicate-path", "Duplicate file path"},
		{"truncated-gzip", truncatedGzip, "archive-not-gzip", "Archive is not valid gzip"},
		{"truncated-entry", gz(truncEntry), "archive-truncated-entry", `Truncated archive entry "tools/big.ts"`},
		{"gzip-garbage", append([]byte{0x1f, 0x8b}, bytes.Repeat([]byte{0xAA}, 100)...), "archive-not-gzip", "not valid gzip"},
		{"hidden-file", with(entry{name: ".env", content: []byte("TOKEN=x")}), "package-disallowed-file", `disallowed file ".env": hidden files and node_modules are not allowed in packages`},
		{"hidden-segment", with(entry{name: "tools/.git/config", content: []byte("x")}), "package-disallowed-file", "disallowed file"},
		{"node-modules", with(entry{name: "node_modules/left-pad/index.js", content: []byte("x")}), "package-disallowed-file", "node_modules"},
		{"file-too-large", with(entry{name: "examples/big.json", content: bytes.Repeat([]byte(" "), MaxFileBytes+1)}), "package-file-too-large", `file "examples/big.json" exceeds 2097152 bytes`},
		{"skill-too-large", replaced("SKILL.md", entry{name: "SKILL.md", content: bytes.Repeat([]byte("a"), MaxSkillDocBytes+1)}), "skill-doc-too-large", "SKILL.md exceeds 262144 bytes"},
		{"skill-nul", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# a\x00b")}), "skill-doc-nul", "SKILL.md must be text (contains NUL bytes)"},
		{"skill-blank", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte(" \n\t\n")}), "skill-doc-empty", "SKILL.md is empty"},
		{"skill-not-utf8", replaced("SKILL.md", entry{name: "SKILL.md", content: []byte("# \xc3\x28")}), "skill-doc-invalid-utf8", "SKILL.md is not valid UTF-8"},
		{"skill-missing", replaced("SKILL.md", entry{name: "README.md", content: []byte("# x")}), "skill-doc-missing", "SKILL.md is missing"},
		{"manifest-missing", replaced("manifest.json", entry{name: "package.json", content: []byte("{}")}), "manifest-missing", "manifest.json is missing"},
		{"manifest-not-json", replaced("manifest.json", entry{name: "manifest.json", content: []byte("{nope")}), "manifest-invalid-json", "manifest.json is not valid JSON: "},
		{"entry-missing", replaced("tools/hello.ts", entry{name: "tools/other.ts", content: []byte("x")}), "tool-entry-missing", `tool "hello": entry file "tools/hello.ts" is missing`},
		{"trailing-data", gz(trailing), "archive-trailing-data", "after its end-of-archive block"},
		{"too-large", append(with(), make([]byte, MaxArtifactBytes)...), "archive-too-large", "(max 5242880)"},
		// Legacy bundles.
		{"bundle-zip-slip", bundleOf(map[string]string{"../x": "a"}, "../x"), "bundle-unsafe-path", `Unsafe file path in bundle: "../x"`},
		{"bundle-absolute", bundleOf(map[string]string{"/x": "a"}, "/x"), "bundle-unsafe-path", "Unsafe file path in bundle"},
		{"bundle-backslash", bundleOf(map[string]string{`a\b`: "a"}, `a\b`), "bundle-unsafe-path", "Unsafe file path in bundle"},
		{"bundle-case-duplicate", bundleOf(map[string]string{"SKILL.md": "a", "Skill.md": "b"}, "SKILL.md", "Skill.md"), "bundle-duplicate-path", `Duplicate file path in bundle: "Skill.md"`},
		{"bundle-bad-base64", []byte(`{"format":"splice-bundle","formatVersion":1,"files":[{"path":"SKILL.md","content":"!!!"}]}`), "bundle-invalid-base64", `Bundle file "SKILL.md" has invalid base64 content`},
		{"bundle-version", []byte(`{"format":"splice-bundle","formatVersion":2,"files":[]}`), "bundle-unsupported-version", "Unsupported bundle formatVersion 2"},
		{"bundle-files-not-array", []byte(`{"format":"splice-bundle","formatVersion":1,"files":{}}`), "bundle-invalid-files", "Bundle files must be an array of at most 500"},
		{"bundle-malformed", []byte(`{"format":"splice-bundle","formatVersion":1,"files":[{"path":"a"}]}`), "bundle-malformed-file", "Bundle file #0 is malformed"},
		{"bundle-hidden", bundleOf(map[string]string{".npmrc": "x", "SKILL.md": "# a", "manifest.json": goodManifest, "tools/hello.ts": "x"}, ".npmrc", "SKILL.md", "manifest.json", "tools/hello.ts"), "package-disallowed-file", `disallowed file ".npmrc"`},
		{"bundle-not-json", []byte(`{"format":"splice-bundle",`), "bundle-invalid-json", "Bundle is not valid UTF-8 JSON"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			pkg := Load(p, Options{})
			d := findDiag(pkg, c.code)
			if d == nil {
				t.Fatalf("no %s diagnostic; got %+v", c.code, loadertest.Diagnostics(pkg))
			}
			if !strings.Contains(d.Message, c.msg) {
				t.Errorf("message %q does not contain %q", d.Message, c.msg)
			}
			if pkg.Valid() || !pkg.Rejected {
				t.Errorf("hostile package accepted (valid=%v rejected=%v)", pkg.Valid(), pkg.Rejected)
			}
			for _, comp := range pkg.Components {
				if comp.Contract != nil {
					t.Errorf("%s has a contract in a rejected package", comp.ID)
				}
			}
		})
	}
	// The builder itself makes acceptable archives: the base package loads cleanly.
	p := filepath.Join(dir, "good.tar.gz")
	os.WriteFile(p, with(entry{prefix: "examples", name: "in-prefix.json", content: []byte("{}")}), 0o644)
	if pkg := Load(p, Options{}); !pkg.Valid() {
		t.Fatalf("base archive invalid: %+v", loadertest.Diagnostics(pkg))
	}
	// "./" prefixes are stripped and directory entries skipped, as upstream does.
	es := append([]entry{{name: "./tools/", typ: '5'}}, basePackage()...)
	es[1].name = "./SKILL.md"
	files, err := Decode(gz(tarOf(es)))
	if err != nil || len(files) != 3 || files[0].Path != "SKILL.md" {
		t.Fatalf("./ and directory handling: %v %+v", err, files)
	}
	// A good bundle with the same files decodes too.
	if _, err := Decode(bundleOf(goodBundleFiles, "SKILL.md", "manifest.json", "tools/hello.ts")); err != nil {
		t.Fatal(err)
	}
}

func findDiag(pkg *model.Package, code string) *model.Diagnostic {
	return loadertest.Find(loadertest.Diagnostics(pkg), code)
}

// bomb is a tar header claiming a 1 GiB SKILL.md followed by 1 GiB of zeros, gzipped on
// the fly (~1.3 MB compressed, under the 5 MiB archive limit).
func bomb(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	w.Write(header(entry{name: "SKILL.md", sizeSet: true, size: 1 << 30}))
	zero := make([]byte, 1<<20)
	for i := 0; i < 1024; i++ {
		w.Write(zero)
	}
	w.Close()
	return b.Bytes()
}

func TestGzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1 GiB stream")
	}
	data := bomb(t)
	if len(data) > MaxArtifactBytes {
		t.Fatalf("bomb is %d bytes compressed, over the archive limit", len(data))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode(data)
	runtime.ReadMemStats(&after)
	de, ok := err.(*DecodeError)
	if !ok || de.Code != "archive-expands-too-far" || de.Message != "Archive expands beyond 16777216 bytes" {
		t.Fatalf("got %v", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("compressed %d bytes; decoding allocated %.1f MiB in total", len(data), float64(alloc)/(1<<20))
	// The buffer doubles up to the 16 MiB limit (~32 MiB in total) plus the gzip state;
	// the race detector adds some. 64 MiB is far from the 1 GiB an unbounded read would take.
	if alloc > 64<<20 {
		t.Errorf("decoding the bomb allocated %d bytes; it must stop at the 16 MiB limit", alloc)
	}
}

package mcpb

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

const goodManifest = `{"manifest_version":"0.3","name":"demo","version":"1.0.0","description":"d","author":{"name":"a"},"server":{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"]}}}`

type entry struct {
	name string
	body string
	mode fs.FileMode // 0: 0644 regular
	raw  *zip.FileHeader
	data []byte // raw compressed data with raw
}

// mkzip writes entries in order with archive/zip, which checks none of what ReadZip
// refuses: it is how the hostile layouts are made.
func mkzip(t testing.TB, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range es {
		if e.raw != nil {
			fw, err := w.CreateRaw(e.raw)
			if err != nil {
				t.Fatal(err)
			}
			fw.Write(e.data)
			continue
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		mode := e.mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(e.body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func goodEntries() []entry {
	return []entry{{name: "manifest.json", body: goodManifest}, {name: "server/index.js", body: "#!/usr/bin/env node\n", mode: 0o755}, {name: "lib/util.js", body: "x\n"}}
}

// bomb is a deflate stream of n MiB of zeros, about 1 KiB per MiB: one compressed MiB
// repeated (non-final blocks whose back-references only ever see zeros), then a final
// empty block. A 1 GiB bomb costs ~1 MiB to build and nothing to refuse.
func bomb(t testing.TB, mib int) []byte {
	t.Helper()
	var one bytes.Buffer
	fw, _ := flate.NewWriter(&one, flate.BestCompression)
	fw.Write(make([]byte, 1<<20))
	fw.Flush()
	var out bytes.Buffer
	for range mib {
		out.Write(one.Bytes())
	}
	out.Write([]byte{0x03, 0x00})
	return out.Bytes()
}

// overlap duplicates the central directory record of a one-entry zip under another name
// of the same length: two names, one compressed stream.
func overlap(t testing.TB, z []byte, newName string) []byte {
	t.Helper()
	at := len(z) - eocdLen
	size := binary.LittleEndian.Uint32(z[at+12:])
	off := binary.LittleEndian.Uint32(z[at+16:])
	rec := append([]byte(nil), z[off:off+size]...)
	nl := int(binary.LittleEndian.Uint16(rec[28:]))
	if nl != len(newName) {
		t.Fatalf("name length %d", nl)
	}
	rec2 := append([]byte(nil), rec...)
	copy(rec2[46:], newName)
	out := append(append(append([]byte(nil), z[:off]...), rec...), rec2...)
	end := append([]byte(nil), z[at:]...)
	binary.LittleEndian.PutUint16(end[8:], 2)
	binary.LittleEndian.PutUint16(end[10:], 2)
	binary.LittleEndian.PutUint32(end[12:], size*2)
	return append(out, end...)
}

func TestReadZipHostile(t *testing.T) {
	good := mkzip(t, goodEntries()...)
	big := bomb(t, 1024) // 1 GiB of zeros
	small := bomb(t, 8)
	one := mkzip(t, entry{name: "manifest.json", body: goodManifest})
	cases := []struct {
		name string
		data []byte
		code string
	}{
		{"zip-slip", mkzip(t, append(goodEntries(), entry{name: "../../.bashrc", body: "curl x | sh"})...), "zip-unsafe-path"},
		{"zip-slip-inner", mkzip(t, entry{name: "server/../../x", body: "x"}), "zip-unsafe-path"},
		{"absolute", mkzip(t, entry{name: "/etc/cron.d/x", body: "x"}), "zip-unsafe-path"},
		{"backslash", mkzip(t, entry{name: `..\..\x.bat`, body: "x"}), "zip-unsafe-path"},
		{"drive", mkzip(t, entry{name: "C:/x", body: "x"}), "zip-unsafe-path"},
		{"dot-step", mkzip(t, entry{name: "./manifest.json", body: goodManifest}), "zip-unsafe-path"},
		{"control", mkzip(t, entry{name: "a\x1b[2Jb", body: "x"}), "zip-unsafe-path"},
		{"symlink", mkzip(t, append(goodEntries(), entry{name: "server/passwd", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777})...), "zip-symlink"},
		{"fifo", mkzip(t, entry{name: "p", mode: fs.ModeNamedPipe | 0o644}), "zip-special-entry"},
		{"duplicate", mkzip(t, append(goodEntries(), entry{name: "server/index.js", body: "evil"})...), "zip-duplicate-name"},
		{"duplicate-case", mkzip(t, append(goodEntries(), entry{name: "Server/Index.js", body: "evil"})...), "zip-duplicate-name-case"},
		// "é" precomposed (NFC) in one name, decomposed (NFD) in the other: one file on macOS.
		{"duplicate-nfc-nfd", mkzip(t, append(goodEntries(), entry{name: "server/caf\u00e9.js", body: "a"}, entry{name: "server/cafe\u0301.js", body: "evil"})...), "zip-duplicate-name-normalization"},
		{"duplicate-nfd-dir-file", mkzip(t, entry{name: "caf\u00e9", body: "x"}, entry{name: "cafe\u0301/b", body: "y"}), "zip-file-directory-conflict"},
		{"duplicate-dir-file", mkzip(t, entry{name: "a", body: "x"}, entry{name: "a/b", body: "y"}), "zip-file-directory-conflict"},
		{"bomb-1GiB-declared", mkzip(t, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(big)), UncompressedSize64: 1 << 30}, data: big}), "zip-file-too-large"},
		{"bomb-1GiB-lying", mkzip(t, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(big)), UncompressedSize64: 1 << 10}, data: big}), "zip-size-mismatch"},
		{"bomb-ratio", mkzip(t, entry{raw: &zip.FileHeader{Name: "z", Method: zip.Deflate, CompressedSize64: uint64(len(small)), UncompressedSize64: 60 << 20}, data: small[:1024]}), "zip-ratio-bomb"},
		{"bomb-total", mkzip(t, func() []entry {
			var es []entry
			for i := range 5 {
				es = append(es, entry{raw: &zip.FileHeader{Name: "z" + string(rune('a'+i)), Method: zip.Deflate, CompressedSize64: 60 << 10, UncompressedSize64: 60 << 20}, data: make([]byte, 60<<10)})
			}
			return es
		}()...), "zip-expands-too-far"},
		{"overlapping", overlap(t, one, "manifest.jsoN"[:13]), "zip-duplicate-name-case"},
		{"overlapping-distinct", overlap(t, one, "manifest.xson"), "zip-overlapping-entries"},
		{"truncated-end", good[:len(good)-10], "zip-central-directory-invalid"},
		{"truncated-central-directory", append(append([]byte(nil), good[:len(good)-eocdLen-20]...), good[len(good)-eocdLen:]...), "zip-central-directory-invalid"},
		{"trailing-data", append(append([]byte(nil), good...), "GARBAGE"...), "zip-trailing-data"},
		{"fake-signature", append(append([]byte(nil), good...), "MCPB_SIG_V1\x05\x00\x00\x00abMCPB_SIG_END"...), "zip-signature-malformed"},
		{"prepended", append([]byte("#!/bin/sh\nexit\n"), good...), "zip-central-directory-invalid"},
		{"empty", nil, "zip-central-directory-invalid"},
		{"not-zip", []byte(strings.Repeat("not a zip ", 10)), "zip-central-directory-invalid"},
		{"encrypted", mkzip(t, entry{raw: &zip.FileHeader{Name: "e", Method: zip.Store, Flags: 1, CompressedSize64: 1, UncompressedSize64: 1}, data: []byte("x")}), "zip-encrypted"},
		{"method", mkzip(t, entry{raw: &zip.FileHeader{Name: "m", Method: 12, CompressedSize64: 1, UncompressedSize64: 1}, data: []byte("x")}), "zip-compression-unsupported"},
		{"stored-size-lie", mkzip(t, entry{raw: &zip.FileHeader{Name: "s", Method: zip.Store, CompressedSize64: 1, UncompressedSize64: 50}, data: []byte("x")}), "zip-size-mismatch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files, _, err := ReadZip(tc.data, DefaultZipLimits())
			ze, ok := err.(*ZipError)
			if !ok || ze.Code != tc.code {
				t.Fatalf("got %v (%d files), want %s", err, len(files), tc.code)
			}
			if files != nil {
				t.Fatal("a refused archive returned files")
			}
			// The loader turns it into a rejected package with that code.
			p := loadBytes(t, tc.data)
			if !p.Rejected || !slices.Contains(loadertest.Codes(p), tc.code) || p.Valid() {
				t.Fatalf("package: rejected %v codes %v", p.Rejected, loadertest.Codes(p))
			}
		})
	}
	if len(big) > 2<<20 {
		t.Fatalf("the 1 GiB bomb is %d bytes", len(big))
	}
}

func loadBytes(t testing.TB, data []byte) *model.Package {
	t.Helper()
	p := filepath.Join(t.TempDir(), "b.mcpb")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(p, Options{Home: "/home/u"})
}

// TestArchiveMatchesFolder: a bundle packed by mcpb 2.1.2 gives the package its folder
// gives, with the same ref and digest, so an approval of the folder covers the .mcpb.
func TestArchiveMatchesFolder(t *testing.T) {
	dir := Load("../../examples/mcpb/notes-server", Options{Home: "/home/u"})
	for _, f := range []string{"notes-server.mcpb", "signed.mcpb"} {
		p := Load("testdata/packed/"+f, Options{Home: "/home/u"})
		if !p.Valid() || p.Name != dir.Name || len(p.Components) != 1 {
			t.Fatalf("%s: valid %v name %s diags %v", f, p.Valid(), p.Name, p.Diagnostics)
		}
		if p.Ref(p.Components[0]) != "notes-server#mcp-server:notes-server" {
			t.Fatalf("ref %s", p.Ref(p.Components[0]))
		}
		if got, want := p.Components[0].Contract.MustDigest(), dir.Components[0].Contract.MustDigest(); got != want {
			t.Fatalf("%s digest %s, folder %s", f, got, want)
		}
		if !strings.HasPrefix(p.Integrity, "sha256-") {
			t.Fatalf("integrity %q", p.Integrity)
		}
		// mcpb sign --self-signed: a valid signature by a signer no configured root confirms.
		want := map[string]string{"notes-server.mcpb": "bundle-signature-unsigned", "signed.mcpb": "bundle-signature-untrusted"}[f]
		if !slices.Contains(loadertest.Codes(p), want) || p.Signature == nil || (f == "signed.mcpb") != (p.Signature.Fingerprint != "") {
			t.Fatalf("%s: signature %+v, diagnostics %v; want %s", f, p.Signature, loadertest.Codes(p), want)
		}
		b, _ := p.Reader.ReadFile("server/index.js")
		if !bytes.Contains(b, []byte("notes-server started")) {
			t.Fatalf("reader: %q", b)
		}
	}
}

func TestSplitSignature(t *testing.T) {
	z := []byte("PK\x05\x06zip")
	sig := []byte("DER!")
	blk := append(append(append([]byte("MCPB_SIG_V1"), 4, 0, 0, 0), sig...), "MCPB_SIG_END"...)
	got, s := SplitSignature(append(append([]byte(nil), z...), blk...))
	if s == nil || !bytes.Equal(got, z) || s.Length != 4 || s.Offset != len(z) {
		t.Fatalf("got %q %+v", got, s)
	}
	// A wrong length is no signature: the bytes stay, and the zip reader refuses them.
	bad := append(append([]byte(nil), z...), append(append([]byte("MCPB_SIG_V1"), 9, 0, 0, 0), "DER!MCPB_SIG_END"...)...)
	if got, s := SplitSignature(bad); s != nil || len(got) != len(bad) {
		t.Fatalf("bad length accepted: %+v", s)
	}
}

// TestGoodZip: exec bits come from the zip's unix modes, directories are dropped.
func TestGoodZip(t *testing.T) {
	es := append(goodEntries(), entry{name: "lib/", mode: fs.ModeDir | 0o755})
	files, sig, err := ReadZip(mkzip(t, es...), ZipLimits{})
	if err != nil || sig != nil || len(files) != 3 {
		t.Fatalf("%v %v %d", err, sig, len(files))
	}
	if !files[1].Exec || files[2].Exec {
		t.Fatalf("exec bits %+v", files)
	}
	p := loadBytes(t, mkzip(t, goodEntries()...))
	if !p.Valid() || p.Components[0].Contract == nil {
		t.Fatalf("%v", p.Diagnostics)
	}
	if sum := strings.Join(p.Components[0].Summary, " "); !strings.Contains(sum, "<extension folder>/server/index.js") {
		t.Fatalf("__dirname of an archive: %s", sum)
	}
}

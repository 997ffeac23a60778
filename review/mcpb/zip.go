package mcpb

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ZipLimits bound what a .mcpb may make vouch read and inflate. They default to the
// limits vouch sets on any package (a bundle is a package).
type ZipLimits struct {
	MaxArchiveBytes int64 // the .mcpb file itself
	MaxEntries      int   // central directory records
	MaxFileBytes    int64 // one inflated file
	MaxTotalBytes   int64 // every inflated file together
	// MaxRatio bounds uncompressed/compressed per entry: deflate cannot exceed ~1032:1,
	// so a larger declared ratio is a lie, and a smaller bound catches bombs before any
	// byte is inflated.
	MaxRatio int64
}

// DefaultZipLimits are vouch's package limits: 256 MiB per package, 64 MiB per file, 4096 entries.
func DefaultZipLimits() ZipLimits {
	return ZipLimits{MaxArchiveBytes: 256 << 20, MaxEntries: 4096, MaxFileBytes: 64 << 20, MaxTotalBytes: 256 << 20, MaxRatio: 1100}
}

// ZipFile is one regular file of a bundle.
type ZipFile struct {
	Path    string
	Content []byte
	Exec    bool
}

// Signature is the block mcpb sign appends after the zip: "MCPB_SIG_V1", a little-endian
// uint32 length, a PKCS#7 (DER) signature over the zip bytes, "MCPB_SIG_END".
type Signature struct {
	Offset int    // where the block starts (= the zip's length)
	Length int    // bytes of the PKCS#7 blob
	Block  int64  // bytes of the whole block
	Blob   []byte // the PKCS#7 blob itself
}

// ZipError is a refusal of a bundle archive. The reader stops at the first one: a
// hostile archive is rejected whole, never partly extracted.
type ZipError struct {
	Code    string // zip-… diagnostic code
	Path    string // the entry concerned, "" for the archive
	Message string
}

func (e *ZipError) Error() string { return e.Message }

func zerr(code, p, format string, a ...any) *ZipError {
	return &ZipError{Code: code, Path: p, Message: fmt.Sprintf(format, a...)}
}

const (
	sigHeader = "MCPB_SIG_V1"
	sigFooter = "MCPB_SIG_END"
	eocdLen   = 22
	eocdSig   = 0x06054b50
	zip64Loc  = 0x07064b50
)

// IsZip reports whether data starts like a zip archive (a local file header, or the end
// record of an empty archive).
func IsZip(data []byte) bool {
	return len(data) >= 4 && data[0] == 'P' && data[1] == 'K' && (data[2] == 3 && data[3] == 4 || data[2] == 5 && data[3] == 6)
}

// SplitSignature separates an appended signature block from the zip bytes the way mcpb
// does (the last footer, the header before it), but strictly: the footer must end the
// file and the declared length must fill the block exactly, else the block is not a
// signature and the bytes are left to the zip reader (which rejects trailing data).
func SplitSignature(data []byte) ([]byte, *Signature) {
	if !bytes.HasSuffix(data, []byte(sigFooter)) {
		return data, nil
	}
	end := len(data) - len(sigFooter)
	h := bytes.LastIndex(data[:end], []byte(sigHeader))
	if h < 0 || end-h < len(sigHeader)+4 {
		return data, nil
	}
	n := binary.LittleEndian.Uint32(data[h+len(sigHeader):])
	if int64(h)+int64(len(sigHeader))+4+int64(n) != int64(end) {
		return data, nil
	}
	blob := data[h+len(sigHeader)+4 : end]
	return data[:h], &Signature{Offset: h, Length: int(n), Block: int64(len(data) - h), Blob: blob}
}

// ReadZip decodes a bundle archive strictly. It refuses, with the first problem found:
// an archive over the limit; a missing, misplaced or truncated central directory; bytes
// before the first entry or after the end record (other than a signature block, which is
// returned); zip64; encrypted entries and compression other than store and deflate;
// paths that are absolute, use backslashes or drive letters, contain "." or ".." steps,
// empty steps, NUL or control characters, or are not UTF-8 (zip-slip in every form);
// symlink and other special entries; duplicate names, exactly or ignoring case (on
// macOS and Windows one would overwrite the other, so which one runs depends on the
// unpacker); entries whose data overlap (overlapping-entry bombs); and sizes or ratios
// past the limits, checked on the declared sizes before anything is inflated and
// enforced again while inflating (a lying header stops at the declared size, never
// after). Directory entries carry no content and are dropped. Nothing is written.
func ReadZip(data []byte, lim ZipLimits) ([]ZipFile, *Signature, error) {
	if lim == (ZipLimits{}) {
		lim = DefaultZipLimits()
	}
	if int64(len(data)) > lim.MaxArchiveBytes {
		return nil, nil, zerr("zip-too-large", "", "The bundle is %d bytes, over vouch's %d-byte limit.", len(data), lim.MaxArchiveBytes)
	}
	z, sig := SplitSignature(data)
	if err := checkEnd(z, lim); err != nil {
		return nil, sig, err
	}
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		return nil, sig, zerr("zip-central-directory-invalid", "", "The bundle's central directory cannot be read (%v); the archive is truncated or damaged.", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, sig, zerr("zip-too-many-entries", "", "The bundle has %d entries, over vouch's limit of %d.", len(zr.File), lim.MaxEntries)
	}
	ix := &zipIndex{lim: lim, size: int64(len(z)), seen: map[string]string{}, dirs: map[string]bool{}}
	for _, f := range zr.File {
		if err := ix.add(f); err != nil {
			return nil, sig, err
		}
	}
	if err := ix.checkOverlap(); err != nil {
		return nil, sig, err
	}
	var out []ZipFile
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if err := ix.checkParents(f.Name); err != nil {
			return nil, sig, err
		}
		zf, err := inflateEntry(f)
		if err != nil {
			return nil, sig, err
		}
		out = append(out, zf)
	}
	return out, sig, nil
}

// zipIndex is what the central directory's entries have declared so far: the names
// (folded as case-insensitive file systems fold them), the directories, the data spans
// and the total size, so that each new entry is checked against the ones before it.
type zipIndex struct {
	lim   ZipLimits
	size  int64             // bytes of the archive without its signature
	seen  map[string]string // folded name → name as written
	dirs  map[string]bool   // folded names of directory entries
	spans []zipSpan
	total uint64
}

type zipSpan struct {
	start, end int64
	name       string
}

// add checks one entry's name, kind and uniqueness and, for a file, its declared sizes.
func (ix *zipIndex) add(f *zip.File) error {
	name := f.Name
	if err := checkName(name); err != nil {
		return err
	}
	isDir := strings.HasSuffix(name, "/")
	clean := strings.TrimSuffix(name, "/")
	if err := checkEntryMode(f.Mode(), clean, isDir); err != nil {
		return err
	}
	key := nameKey(clean)
	if prev, dup := ix.seen[key]; dup {
		return duplicateEntry(prev, clean)
	}
	ix.seen[key] = clean
	if isDir {
		ix.dirs[key] = true
		return nil
	}
	return ix.addFile(f, clean)
}

// checkEntryMode refuses links, special files and directories whose name says otherwise.
func checkEntryMode(mode fs.FileMode, clean string, isDir bool) error {
	switch {
	case mode&fs.ModeSymlink != 0:
		return zerr("zip-symlink", clean, "The bundle entry %q is a symbolic link; an unpacker would create a link that can point anywhere, so the bundle is refused.", clean)
	case mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice|fs.ModeIrregular) != 0:
		return zerr("zip-special-entry", clean, "The bundle entry %q is not a regular file or directory (mode %v).", clean, mode)
	case isDir != mode.IsDir() && mode.IsDir():
		return zerr("zip-special-entry", clean, "The bundle entry %q is marked as a directory but its name does not end in /.", clean)
	}
	return nil
}

// duplicateEntry says how two names that unpack to one file collide: exactly, by
// Unicode normalization, or by case.
func duplicateEntry(prev, clean string) error {
	switch {
	case prev == clean:
		return zerr("zip-duplicate-name", clean, "The bundle holds %q twice; unpackers disagree on which copy wins, so the bundle is refused.", clean)
	case norm.NFC.String(prev) == norm.NFC.String(clean):
		return zerr("zip-duplicate-name-normalization", clean, "The bundle holds both %+q and %+q, the same name in two Unicode normalization forms: one file on macOS file systems, so one would overwrite the other.", prev, clean)
	}
	return zerr("zip-duplicate-name-case", clean, "The bundle holds both %q and %q, which are the same file on case-insensitive file systems (macOS, Windows); one would overwrite the other.", prev, clean)
}

// addFile checks a file entry's encryption, method and declared sizes against the limits,
// and records where its data lies.
func (ix *zipIndex) addFile(f *zip.File, clean string) error {
	lim := ix.lim
	if f.Flags&0x1 != 0 {
		return zerr("zip-encrypted", clean, "The bundle entry %q is encrypted; its bytes cannot be reviewed.", clean)
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return zerr("zip-compression-unsupported", clean, "The bundle entry %q uses compression method %d; only store and deflate are allowed.", clean, f.Method)
	}
	if f.UncompressedSize64 > uint64(lim.MaxFileBytes) {
		return zerr("zip-file-too-large", clean, "The bundle entry %q declares %d bytes, over vouch's %d-byte limit per file.", clean, f.UncompressedSize64, lim.MaxFileBytes)
	}
	if f.Method == zip.Store && f.CompressedSize64 != f.UncompressedSize64 {
		return zerr("zip-size-mismatch", clean, "The stored bundle entry %q declares %d compressed and %d uncompressed bytes.", clean, f.CompressedSize64, f.UncompressedSize64)
	}
	if f.UncompressedSize64 > 1<<16 && f.UncompressedSize64/max(f.CompressedSize64, 1) > uint64(lim.MaxRatio) {
		return zerr("zip-ratio-bomb", clean, "The bundle entry %q would expand %d:1 (%d bytes from %d), more than deflate can honestly reach: a decompression bomb.", clean, f.UncompressedSize64/max(f.CompressedSize64, 1), f.UncompressedSize64, f.CompressedSize64)
	}
	ix.total += f.UncompressedSize64
	if ix.total > uint64(lim.MaxTotalBytes) {
		return zerr("zip-expands-too-far", "", "The bundle's entries declare more than vouch's %d-byte limit in total.", lim.MaxTotalBytes)
	}
	off, err := f.DataOffset()
	if err != nil {
		return zerr("zip-local-header-invalid", clean, "The local header of bundle entry %q cannot be read (%v).", clean, err)
	}
	end := off + int64(f.CompressedSize64)
	if off < 0 || end > ix.size || end < off {
		return zerr("zip-truncated-entry", clean, "The data of bundle entry %q runs past the end of the archive.", clean)
	}
	ix.spans = append(ix.spans, zipSpan{off, end, clean})
	return nil
}

// checkOverlap refuses entries whose compressed data overlap: one stream reused by
// several names.
func (ix *zipIndex) checkOverlap() error {
	spans := ix.spans
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return zerr("zip-overlapping-entries", spans[i].name, "The data of bundle entries %q and %q overlap: one compressed stream is reused by several names (an overlapping-entry bomb).", spans[i-1].name, spans[i].name)
		}
	}
	return nil
}

// checkParents refuses a file whose parent was declared as a file: it is no directory at all.
func (ix *zipIndex) checkParents(name string) error {
	for p := path.Dir(name); p != "."; p = path.Dir(p) {
		if prev, ok := ix.seen[nameKey(p)]; ok && !ix.dirs[nameKey(p)] {
			return zerr("zip-file-directory-conflict", name, "The bundle holds %q as a file and %q below it.", prev, name)
		}
	}
	return nil
}

// inflateEntry reads one file entry, refusing data that is longer or shorter than its
// header declares or that fails its checksum.
func inflateEntry(f *zip.File) (ZipFile, error) {
	rc, err := f.Open()
	if err != nil {
		return ZipFile{}, zerr("zip-entry-unreadable", f.Name, "The bundle entry %q cannot be opened (%v).", f.Name, err)
	}
	want := int64(f.UncompressedSize64)
	b := bytes.NewBuffer(make([]byte, 0, want))
	// One byte past the declared size shows a lying header without inflating more.
	n, err := io.Copy(b, io.LimitReader(rc, want+1))
	rc.Close()
	switch {
	case n > want || errors.Is(err, zip.ErrFormat) && n >= want:
		// archive/zip itself stops a stream at the declared size with ErrFormat.
		return ZipFile{}, zerr("zip-size-mismatch", f.Name, "The bundle entry %q inflates past the %d bytes its header declares.", f.Name, want)
	case errors.Is(err, zip.ErrChecksum):
		return ZipFile{}, zerr("zip-checksum-mismatch", f.Name, "The bundle entry %q does not match the CRC-32 its header declares.", f.Name)
	case err != nil:
		return ZipFile{}, zerr("zip-entry-corrupt", f.Name, "The bundle entry %q cannot be inflated (%v).", f.Name, err)
	case n != want:
		return ZipFile{}, zerr("zip-size-mismatch", f.Name, "The bundle entry %q inflates to %d bytes, not the %d its header declares.", f.Name, n, want)
	}
	return ZipFile{Path: f.Name, Content: b.Bytes(), Exec: f.Mode()&0o111 != 0}, nil
}

// nameKey is the key under which two entry names are one file somewhere: equal ignoring
// case (macOS and Windows file systems) and ignoring Unicode normalization (macOS: "é"
// precomposed and decomposed name one file), so the second would overwrite the first.
func nameKey(name string) string { return strings.ToLower(norm.NFC.String(name)) }

// checkEnd finds the end-of-central-directory record at its one legal place: the last
// 22 bytes plus its comment. The central directory must end exactly where the record
// starts and the first entry must start at byte 0, so no bytes hide before, between or
// after the zip structures (archive/zip would tolerate a prefix).
func checkEnd(z []byte, lim ZipLimits) error {
	if len(z) < eocdLen {
		return zerr("zip-central-directory-invalid", "", "The bundle is %d bytes, too short to hold a zip end record; it is truncated or not a zip.", len(z))
	}
	at := -1
	for i := len(z) - eocdLen; i >= 0 && i >= len(z)-eocdLen-0xffff; i-- {
		if binary.LittleEndian.Uint32(z[i:]) == eocdSig && i+eocdLen+int(binary.LittleEndian.Uint16(z[i+20:])) == len(z) {
			at = i
			break
		}
	}
	if at < 0 {
		if bytes.Contains(z, []byte(sigHeader)) {
			return zerr("zip-signature-malformed", "", "The bundle has bytes after its zip data that look like an MCPB signature block but do not have its layout.")
		}
		if i := bytes.LastIndex(z, []byte{'P', 'K', 5, 6}); i >= 0 && i+eocdLen <= len(z) {
			return zerr("zip-trailing-data", "", "The bundle has %d bytes after its zip end record that are not an MCPB signature block.", len(z)-i-eocdLen)
		}
		return zerr("zip-central-directory-invalid", "", "The bundle has no zip end record; the central directory is missing or truncated.")
	}
	if at >= 20 && binary.LittleEndian.Uint32(z[at-20:]) == zip64Loc {
		return zerr("zip64-unsupported", "", "The bundle uses zip64, which no bundle within vouch's limits needs.")
	}
	disk, cdDisk := binary.LittleEndian.Uint16(z[at+4:]), binary.LittleEndian.Uint16(z[at+6:])
	here, all := binary.LittleEndian.Uint16(z[at+8:]), binary.LittleEndian.Uint16(z[at+10:])
	size, off := binary.LittleEndian.Uint32(z[at+12:]), binary.LittleEndian.Uint32(z[at+16:])
	if disk != 0 || cdDisk != 0 || here != all {
		return zerr("zip-multi-disk", "", "The bundle is a multi-disk (spanned) zip archive.")
	}
	if int(all) > lim.MaxEntries {
		return zerr("zip-too-many-entries", "", "The bundle declares %d entries, over vouch's limit of %d.", all, lim.MaxEntries)
	}
	if int64(off)+int64(size) != int64(at) {
		if int64(off)+int64(size) > int64(at) {
			return zerr("zip-central-directory-invalid", "", "The bundle's central directory (%d bytes at offset %d) runs past its end record at %d; the archive is truncated.", size, off, at)
		}
		return zerr("zip-central-directory-invalid", "", "The bundle's central directory ends at %d but its end record is at %d: %d bytes are unaccounted for.", int64(off)+int64(size), at, int64(at)-int64(off)-int64(size))
	}
	if all > 0 && (len(z) < 4 || binary.LittleEndian.Uint32(z) != 0x04034b50) {
		return zerr("zip-prepended-data", "", "The bundle does not start with a zip entry: bytes are prepended to the archive.")
	}
	return nil
}

// checkName refuses every path an unpacker could place outside the bundle directory, or
// that different unpackers would place differently.
func checkName(name string) error {
	bad := func(why string) error {
		return zerr("zip-unsafe-path", name, "The bundle entry %q has an unsafe path (%s); an unpacker could write it outside the bundle, so the bundle is refused.", name, why)
	}
	switch {
	case name == "" || name == "/":
		return bad("empty")
	case !utf8.ValidString(name):
		return bad("not UTF-8")
	case strings.ContainsRune(name, '\\'):
		return bad("a backslash, which Windows reads as a separator")
	case strings.HasPrefix(name, "/"):
		return bad("absolute")
	case len(name) >= 2 && name[1] == ':':
		return bad("a drive letter")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return bad("a control character")
		}
	}
	steps := strings.Split(strings.TrimSuffix(name, "/"), "/")
	for _, s := range steps {
		switch s {
		case "":
			return bad("an empty step")
		case ".", "..":
			return bad("a " + s + " step")
		}
	}
	return nil
}

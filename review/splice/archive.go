package splice

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"vouch/internal/lazyre"
)

// Splice's artifact limits (bytes and counts), stricter than vouch's reference limits.
const (
	MaxArtifactBytes = 5 * 1024 * 1024  // archive or bundle
	MaxFiles         = 500              // files in a package
	MaxUnpackedBytes = 16 * 1024 * 1024 // decompressed tar stream
	MaxFileBytes     = 2 * 1024 * 1024  // one package file
	MaxSkillDocBytes = 256 * 1024       // SKILL.md
	block            = 512
)

// File is one decoded package file.
type File struct {
	Path    string
	Content []byte
}

// DecodeError is a refusal of an archive or bundle. Splice stops at the first one
// (SpecError INVALID_BUNDLE); Code names the rule, Message is upstream's text.
type DecodeError struct {
	Code    string
	Message string
}

func (e *DecodeError) Error() string { return e.Message }

func derr(code, format string, a ...any) *DecodeError {
	return &DecodeError{Code: code, Message: fmt.Sprintf(format, a...)}
}

// IsGzip reports whether data starts with the gzip magic, the test Splice uses to tell
// archives from JSON bundles.
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// Decode reads an artifact: a .tar.gz when it starts with the gzip magic, otherwise a
// legacy JSON bundle. Nothing is written anywhere; files are returned in archive order.
func Decode(data []byte) ([]File, error) {
	if len(data) > MaxArtifactBytes {
		return nil, derr("archive-too-large", "Archive is %d bytes (max %d)", len(data), MaxArtifactBytes)
	}
	if IsGzip(data) {
		tar, err := gunzip(data)
		if err != nil {
			return nil, err
		}
		return parseTar(tar)
	}
	return decodeBundle(data)
}

// gunzip decompresses at most MaxUnpackedBytes; a bomb is stopped when it reaches the
// limit, never after, and memory stays within the limit plus slice growth.
//
// Only one gzip member is read. Go's reader (like gzip -d under GNU tar and Node's zlib)
// would join a second member onto the first, while an extractor that stops after one
// member sees another archive; so anything after the first member is refused rather than
// guessed at, and vouch shows the stream every reader agrees on.
func gunzip(data []byte) ([]byte, error) {
	src := bytes.NewReader(data)
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil, derr("archive-not-gzip", "Archive is not valid gzip")
	}
	zr.Multistream(false)
	// The gzip trailer's ISIZE is a hint only (attacker-chosen), capped by the limit.
	hint := 64 * 1024
	if len(data) >= 18 {
		if isz := int(binary.LittleEndian.Uint32(data[len(data)-4:])); isz > 0 && isz <= MaxUnpackedBytes {
			hint = isz
		}
	}
	// Grow by hand so the buffer never passes the limit (bytes.Buffer would double past it).
	buf := make([]byte, 0, hint+1)
	limited := io.LimitReader(zr, MaxUnpackedBytes+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(max(cap(buf), 64*1024), MaxUnpackedBytes+1-len(buf)))
		}
		n, err := limited.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > MaxUnpackedBytes {
			return nil, derr("archive-expands-too-far", "Archive expands beyond %d bytes", MaxUnpackedBytes)
		}
		if err == io.EOF {
			// bytes.Reader is a flate.Reader, so gzip read exactly the member and no further.
			if rest := src.Len(); rest > 0 {
				if IsGzip(data[len(data)-rest:]) {
					return nil, derr("archive-gzip-second-member", "Archive has a second gzip member after the first (%d bytes); some extractors join it to the archive, others ignore it", rest)
				}
				return nil, derr("archive-gzip-trailing-data", "Archive has %d bytes after its gzip stream", rest)
			}
			return buf, nil
		}
		if err != nil {
			return nil, derr("archive-not-gzip", "Archive is not valid gzip")
		}
	}
}

// tarString reads a NUL-terminated header field, which must be UTF-8.
func tarString(h []byte, off, n int) (string, error) {
	f := h[off : off+n]
	if i := bytes.IndexByte(f, 0); i >= 0 {
		f = f[:i]
	}
	if !utf8.Valid(f) {
		return "", derr("archive-header-invalid-utf8", "Tar header contains invalid UTF-8")
	}
	return string(f), nil
}

// tarPath reads a name, prefix or link field and requires every byte after its first NUL
// to be NUL. Readers disagree about those bytes: GNU tar stops at the NUL, but
// Node's tar decodes the field with replace(/\0.*/, ""), whose "." stops at a line
// break, so "SKILL.md\0\nx" is the file "SKILL.md\nx" there and "SKILL.md" here.
func tarPath(h []byte, off, n int, what string) (string, error) {
	s, err := tarString(h, off, n)
	if err != nil {
		return "", err
	}
	if !allZero(h[off+len(s) : off+n]) {
		return "", derr("archive-header-field-garbage", "Tar header %s field %s has bytes after its terminating NUL; tar readers disagree about them", what, q(s))
	}
	return s, nil
}

var octalRe = lazyre.New(`^[0-7]*$`)

func tarOctal(h []byte, off, n int) (int64, error) {
	s, err := tarString(h, off, n)
	if err != nil {
		return 0, err
	}
	s = jsTrim(s)
	if !octalRe.MatchString(s) {
		return 0, derr("archive-header-invalid-number", "Tar header contains an invalid number")
	}
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 8, 64)
	if err != nil {
		return 0, derr("archive-header-invalid-number", "Tar header contains an invalid number")
	}
	return v, nil
}

// parseTar reads the ustar stream itself rather than with archive/tar: Splice verifies
// every header checksum from the raw 512 bytes and rejects PAX and GNU headers, which
// archive/tar would silently interpret.
//
// vouch is stricter than Splice wherever a mainstream extractor (GNU tar, bsdtar, Node's
// tar) would read the same bytes as a different set of files than the ones vouch shows
// (each case in extractor_test.go was checked with GNU tar 1.34 and Node's tar as npm
// bundles it):
//   - a directory entry (type '5') must have size 0: GNU tar and Node's tar read a
//     directory as having no data, so its "content" is parsed as further headers there,
//     files that Splice and vouch skip over;
//   - every type other than '0' and NUL is refused (as upstream does): 'L'/'K'/'x'/'g'
//     rename the next entry, '1'/'2' link, '7' (contiguous) and unknown types are
//     extracted as regular files by GNU tar, 'S' (sparse) has a different data layout,
//     'V' (volume label) and 'M' (continuation) carry data some readers extract;
//   - a regular file has no link name (Splice writes none; refusing one leaves nothing for
//     a reader that honours it to turn into a link);
//   - a non-empty prefix needs the POSIX magic "ustar\0" "00": GNU tar and Node's tar
//     ignore the prefix of an old-GNU ("ustar  ") header, where those bytes hold times;
//   - name, prefix and link fields are NUL-padded (see tarPath);
//   - directory paths obey the same path rule as files;
//   - nothing but zero bytes follows the first zero block: Node's tar treats a single
//     zero block as padding and reads the next header, GNU tar with -i reads past the
//     end, so any entry after it would be extracted by them and never shown here.
func parseTar(tar []byte) ([]File, error) {
	var files []File
	seen := map[string]bool{}
	off := 0
	for off+block <= len(tar) {
		h := tar[off : off+block]
		if allZero(h) {
			break
		}
		var sum int64
		for i, b := range h {
			if i >= 148 && i < 156 {
				sum += 0x20
			} else {
				sum += int64(b)
			}
		}
		stored, err := tarOctal(h, 148, 8)
		if err != nil {
			return nil, err
		}
		if stored != sum {
			return nil, derr("archive-checksum-mismatch", "Tar header checksum mismatch")
		}
		magic, err := tarString(h, 257, 6)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(magic, "ustar") {
			return nil, derr("archive-not-ustar", "Not a ustar archive")
		}
		typ := h[156]
		size, err := tarOctal(h, 124, 12)
		if err != nil {
			return nil, err
		}
		prefix, err := tarPath(h, 345, 155, "prefix")
		if err != nil {
			return nil, err
		}
		name, err := tarPath(h, 0, 100, "name")
		if err != nil {
			return nil, err
		}
		link, err := tarPath(h, 157, 100, "link name")
		if err != nil {
			return nil, err
		}
		p := name
		if prefix != "" {
			p = prefix + "/" + name
		}
		p = strings.TrimPrefix(p, "./")
		if prefix != "" && string(h[257:265]) != "ustar\x0000" {
			return nil, derr("archive-prefix-not-posix", "Archive entry %s uses the ustar prefix field in a non-POSIX (%s) header; GNU tar and Node's tar ignore it there and extract %s", q(p), q(string(bytes.TrimRight(h[257:265], "\x00"))), q(name))
		}
		start := int64(off + block)
		end := start + size
		if end > int64(len(tar)) {
			return nil, derr("archive-truncated-entry", "Truncated archive entry %s", q(p))
		}
		off = int(start + (size+block-1)/block*block)
		if typ == '5' {
			if size != 0 {
				return nil, derr("archive-directory-with-data", "Directory entry %s carries %d bytes of data; GNU tar and Node's tar read those bytes as further archive entries, which Splice skips", q(p), size)
			}
			if d := strings.TrimSuffix(p, "/"); d != "" && !isSafeBundlePath(d) {
				return nil, derr("archive-unsafe-path", "Unsafe file path in archive: %s", q(p))
			}
			continue // directory entries carry no content
		}
		if typ != '0' && typ != 0 {
			return nil, derr("archive-unsupported-entry", "Unsupported archive entry %s (type '%s'): only regular files are allowed", q(p), typeName(typ))
		}
		if link != "" {
			return nil, derr("archive-unsupported-entry", "Unsupported archive entry %s (type '%s' with link name %s): only regular files are allowed", q(p), typeName(typ), q(link))
		}
		if err := admitPath(seen, p, "archive"); err != nil {
			return nil, err
		}
		files = append(files, File{Path: p, Content: bytes.Clone(tar[start:end])})
		if len(files) > MaxFiles {
			return nil, derr("archive-too-many-files", "Archive has more than %d files", MaxFiles)
		}
	}
	if rest := tar[min(off, len(tar)):]; !allZero(rest) {
		return nil, derr("archive-trailing-data", "The archive has data after its end-of-archive block (at byte %d of the tar stream); Splice ignores it, but Node's tar and GNU tar -i read entries there that vouch would not show", len(tar)-len(rest)+bytes.IndexFunc(rest, func(r rune) bool { return r != 0 }))
	}
	return files, nil
}

// typeName is String.fromCharCode(type) as upstream prints it; a NUL-like or non-ASCII
// byte is shown as its code so the message stays printable.
func typeName(t byte) string {
	if t < 0x20 || t >= 0x7f {
		return fmt.Sprintf("\\x%02x", t)
	}
	return string(rune(t))
}

// admitPath is the rule a tar archive and a legacy bundle share for each file's path: a
// safe bundle path, and not another spelling (case, Unicode normalization) of a path
// already in seen, which it joins. form is the container, the stem of the codes
// (archive-unsafe-path, bundle-duplicate-path) and the word in their messages.
func admitPath(seen map[string]bool, p, form string) error {
	if !isSafeBundlePath(p) {
		return derr(form+"-unsafe-path", "Unsafe file path in "+form+": %s", q(p))
	}
	key := dupKey(p)
	if seen[key] {
		return derr(form+"-duplicate-path", "Duplicate file path in "+form+": %s", q(p))
	}
	seen[key] = true
	return nil
}

// jsLower is toLowerCase for the duplicate check. Go's simple lowercase mapping folds a
// few more characters together than JavaScript's (İ), which only makes the check stricter.
func jsLower(s string) string { return strings.ToLower(s) }

// dupKey is the duplicate-check key: Splice's case-insensitive one, and also blind to
// Unicode normalization, because macOS file systems are: "é" written precomposed and
// decomposed are two entries here but one file there, the second overwriting the first.
func dupKey(s string) string { return jsLower(norm.NFC.String(s)) }

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// decodeBundle reads a legacy splice-bundle JSON document.
func decodeBundle(data []byte) ([]File, error) {
	if !utf8.Valid(data) {
		return nil, derr("bundle-invalid-json", "Bundle is not valid UTF-8 JSON")
	}
	// TextDecoder strips a leading BOM before JSON.parse sees the text.
	raw, err := parseJSON(strings.TrimPrefix(string(data), "\uFEFF"))
	if err != nil {
		return nil, derr("bundle-invalid-json", "Bundle is not valid UTF-8 JSON")
	}
	var o *object
	switch x := raw.(type) {
	case *object:
		o = x
	case []any:
		// typeof [] is "object" upstream: an array passes this test and fails the next.
		return nil, derr("bundle-not-splice", "Not a Splice bundle")
	default:
		return nil, derr("bundle-not-object", "Bundle must be an object")
	}
	if f, _ := o.get("format"); f != "splice-bundle" {
		return nil, derr("bundle-not-splice", "Not a Splice bundle")
	}
	fv, present := o.get("formatVersion")
	if f, isNum := fv.(float64); !isNum || f != 1 {
		shown := "undefined"
		if present {
			shown = jsString(fv)
		}
		return nil, derr("bundle-unsupported-version", "Unsupported bundle formatVersion %s", shown)
	}
	fr, _ := o.get("files")
	arr, isArr := fr.([]any)
	if !isArr || len(arr) > MaxFiles {
		return nil, derr("bundle-invalid-files", "Bundle files must be an array of at most %d", MaxFiles)
	}
	seen := map[string]bool{}
	var files []File
	for i, e := range arr {
		fo, _ := e.(*object)
		var p, c string
		okP, okC := false, false
		if fo != nil {
			pv, _ := fo.get("path")
			cv, _ := fo.get("content")
			p, okP = pv.(string)
			c, okC = cv.(string)
		}
		if !okP || !okC {
			return nil, derr("bundle-malformed-file", "Bundle file #%d is malformed", i)
		}
		if err := admitPath(seen, p, "bundle"); err != nil {
			return nil, err
		}
		content, err := atob(c)
		if err != nil {
			return nil, derr("bundle-invalid-base64", "Bundle file %s has invalid base64 content", q(p))
		}
		files = append(files, File{Path: p, Content: content})
	}
	return files, nil
}

// atob decodes like the browser's atob: ASCII whitespace is removed, padding is optional
// when the length works out, and anything else outside the alphabet is an error.
func atob(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\f', '\r':
			return -1
		}
		return r
	}, s)
	if len(s)%4 == 0 && strings.HasSuffix(s, "==") {
		s = s[:len(s)-2]
	} else if len(s)%4 == 0 && strings.HasSuffix(s, "=") {
		s = s[:len(s)-1]
	}
	if len(s)%4 == 1 {
		return nil, errors.New("invalid length")
	}
	// atob ignores non-zero trailing bits; base64's strict mode would reject them.
	return base64.RawStdEncoding.DecodeString(s)
}

// Integrity is Splice's integrity string: "sha256-" + hex SHA-256 of the artifact bytes.
func Integrity(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256-" + hex.EncodeToString(sum[:])
}

// FilesDigest is the integrity of the lines "path\0<sha256 hex>\n" sorted by path
// (JavaScript string order), as splice.lock records it.
func FilesDigest(files []File) string {
	sorted := append([]File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return lessUTF16(sorted[i].Path, sorted[j].Path) })
	var b bytes.Buffer
	for _, f := range sorted {
		sum := sha256.Sum256(f.Content)
		b.WriteString(f.Path)
		b.WriteByte(0)
		b.WriteString(hex.EncodeToString(sum[:]))
		b.WriteByte('\n')
	}
	return Integrity(b.Bytes())
}

func lessUTF16(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

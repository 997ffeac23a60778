package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// ContractVersion is written into every canonical contract so a future change of what a
// contract holds can never collide with an old digest.
const ContractVersion = "vouch-contract/1"

// Contract is what an approval binds to: the security-relevant fields of a component and
// the SHA-256 of every file in its closure. Files outside the closure (a README) are not
// part of it, so editing them keeps the approval.
type Contract struct {
	Kind   Kind
	Fields Fields
	Files  []File
}

// Canonical returns the RFC 8785 (JCS) serialization of the contract.
func (c *Contract) Canonical() ([]byte, error) {
	s, err := c.canonicalText()
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// canonicalText is Canonical as the string it is built in.
func (c *Contract) canonicalText() (string, error) {
	// Written in RFC 8785 order directly (keys sorted: contract, fields, files, kind; a
	// file's exec, path, sha256, size, or link, path): the same bytes writeCanonical gives
	// the equivalent maps (TestCanonicalDirectMatchesMaps), without building them, since
	// every component of every package is digested on each run.
	// Closures come sorted by path: a copy is sorted only when this one is not.
	sorted := c.Files
	if !slices.IsSortedFunc(sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) }) {
		sorted = append([]File(nil), c.Files...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	}
	var b strings.Builder
	b.Grow(96 + 128*len(sorted))
	b.WriteString(`{"contract":`)
	writeCanonicalString(&b, ContractVersion)
	b.WriteString(`,"fields":`)
	if err := writeFields(&b, c.Fields); err != nil {
		return "", err
	}
	b.WriteString(`,"files":[`)
	for i, f := range sorted {
		if i > 0 {
			b.WriteByte(',')
		}
		if f.IsLink() {
			// A link has no bytes: it is bound by its path and target. The key exists only
			// on link entries, so the digests of link-free contracts are what they were.
			b.WriteString(`{"link":`)
			if err := writeCanonical(&b, f.Link); err != nil {
				return "", err
			}
			b.WriteString(`,"path":`)
			if err := writeCanonical(&b, f.Path); err != nil {
				return "", err
			}
			b.WriteByte('}')
			continue
		}
		if f.Exec {
			b.WriteString(`{"exec":true,"path":`)
		} else {
			b.WriteString(`{"exec":false,"path":`)
		}
		if err := writeCanonical(&b, f.Path); err != nil {
			return "", err
		}
		b.WriteString(`,"sha256":`)
		if err := writeCanonical(&b, f.SHA256); err != nil {
			return "", err
		}
		b.WriteString(`,"size":`)
		b.WriteString(strconv.FormatInt(f.Size, 10))
		b.WriteByte('}')
	}
	b.WriteString(`],"kind":`)
	if err := writeCanonical(&b, string(c.Kind)); err != nil {
		return "", err
	}
	b.WriteByte('}')
	return b.String(), nil
}

// writeCanonicalArray writes xs as a JSON array: each element canonical, in order.
func writeCanonicalArray[T any](b *strings.Builder, xs []T) error {
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeCanonical(b, x); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// writeCanonicalObject writes m as a JSON object: keys in RFC 8785 order, each value
// canonical.
func writeCanonicalObject[V any](b *strings.Builder, m map[string]V) error {
	fields := make([]Field, 0, len(m))
	for k, v := range m {
		fields = append(fields, Field{Key: k, Value: v})
	}
	sortFields(fields)
	return writeSortedFields(b, fields)
}

// writeFields writes fields as the canonical JSON object of their keys and values; two
// fields with one key are an error, as they are for a map built from them.
func writeFields(b *strings.Builder, fields []Field) error {
	sorted := fields
	if !slices.IsSortedFunc(sorted, func(a, b Field) int {
		if lessUTF16(a.Key, b.Key) {
			return -1
		}
		if lessUTF16(b.Key, a.Key) {
			return 1
		}
		return 0
	}) {
		sorted = append([]Field(nil), fields...)
		sortFields(sorted)
	}
	return writeSortedFields(b, sorted)
}

// sortFields sorts fields by key in RFC 8785 order: by the keys' UTF-16 code units.
func sortFields(fields []Field) {
	sort.Slice(fields, func(i, j int) bool { return lessUTF16(fields[i].Key, fields[j].Key) })
}

// writeSortedFields writes fields, sorted by sortFields, as a canonical JSON object.
func writeSortedFields(b *strings.Builder, sorted []Field) error {
	b.WriteByte('{')
	for i, f := range sorted {
		if i > 0 {
			if sorted[i-1].Key == f.Key {
				return fmt.Errorf("canonical json: duplicate key %q", f.Key)
			}
			b.WriteByte(',')
		}
		if err := writeCanonical(b, f.Key); err != nil {
			return err
		}
		b.WriteByte(':')
		if err := writeCanonical(b, f.Value); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// Digest returns "sha256:<hex>" of the canonical contract.
func (c *Contract) Digest() (string, error) {
	canon, err := c.canonicalText()
	if err != nil {
		return "", err
	}
	// Hashed in place: a contract's text is tens of KiB for a skill, and every
	// component of every package is digested on each run. The hash only reads it.
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(canon), len(canon)))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// MustDigest is Digest for contracts built only from supported value types; it returns
// "" on error so that a bad contract can never match a recorded digest.
func (c *Contract) MustDigest() string {
	d, err := c.Digest()
	if err != nil {
		return ""
	}
	return d
}

// CanonicalJSON serializes a JSON-like value as RFC 8785 canonical JSON.
func CanonicalJSON(v any) ([]byte, error) {
	var b strings.Builder
	if err := writeCanonical(&b, v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func writeCanonical(b *strings.Builder, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		if !utf8.ValidString(x) {
			// RFC 8785 needs valid UTF-8; mapping bad bytes to U+FFFD would let two different
			// byte strings share a digest, so such a contract cannot be approved at all.
			return fmt.Errorf("canonical json: invalid UTF-8 in %q", x)
		}
		writeCanonicalString(b, x)
	case int:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case float64:
		s, err := es6Number(x)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []string:
		return writeCanonicalArray(b, x)
	case []any:
		return writeCanonicalArray(b, x)
	case Fields:
		return writeCanonical(b, []Field(x))
	case []Field:
		return writeFields(b, x)
	case map[string]string:
		return writeCanonicalObject(b, x)
	case map[string]any:
		return writeCanonicalObject(b, x)
	default:
		return fmt.Errorf("canonical json: unsupported value type %T", v)
	}
	return nil
}

// lessUTF16 orders strings by their UTF-16 code units without converting them: UTF-8
// byte order is code point order, which differs from UTF-16 order only between a BMP
// character at or above U+E000 and a supplementary one (encoded as surrogates D800-DBFF).
func lessUTF16(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	// Back up to the start of the rune that differs.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	return utf16Key(ra) < utf16Key(rb)
}

// utf16Key maps a rune to a value that sorts as its first UTF-16 code unit would, with
// ties broken by the code point (the second unit follows code point order).
func utf16Key(r rune) int64 {
	if r >= 0x10000 {
		return int64(0xD800+((r-0x10000)>>10))<<21 | int64(r)
	}
	return int64(r) << 21
}

// WriteJSONString writes s as a JSON string the way RFC 8785 §3.2.2.2, ECMAScript's
// JSON.stringify and serde_json all do: only '"', '\\' and control characters are escaped,
// with the short forms where JSON has them and lowercase \u00XX otherwise; everything else
// (/, U+2028, non-ASCII) is written as is, and an invalid byte as U+FFFD. Loaders that must
// reproduce a client's hash of JSON text (Codex, Splice) write strings through it.
func WriteJSONString(b *strings.Builder, s string) { writeCanonicalString(b, s) }

// writeCanonicalString is WriteJSONString. Contracts have checked UTF-8 before.
func writeCanonicalString(b *strings.Builder, s string) {
	b.WriteByte('"')
	// Runs that need no escape (printable ASCII but the quote and backslash, and valid
	// multi-byte runes, which WriteRune would write back byte for byte) are copied whole.
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if c >= utf8.RuneSelf && (r != utf8.RuneError || size > 1) {
			i += size
			continue
		}
		b.WriteString(s[start:i])
		i += size
		start = i
		writeEscapedRune(b, r) // for an invalid byte r is U+FFFD, written as is
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// writeEscapedRune writes r as a JSON string holds it: '"', '\\' and control characters
// escaped (the short forms where JSON has them, lowercase \u00XX otherwise), any other
// rune as is.
func writeEscapedRune(b *strings.Builder, r rune) {
	switch {
	case r == '"':
		b.WriteString(`\"`)
	case r == '\\':
		b.WriteString(`\\`)
	case r == '\b':
		b.WriteString(`\b`)
	case r == '\f':
		b.WriteString(`\f`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case r < 0x20:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		b.WriteRune(r)
	}
}

// es6Number formats a float as ECMAScript Number.prototype.toString does (RFC 8785 §3.2.2.3).
func es6Number(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("canonical json: %v is not a JSON number", f)
	}
	if f == 0 {
		return "0", nil
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes e+07 / e-07; ECMAScript writes e+7 / e-7.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		return mant + "e" + string(sign) + digits, nil
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

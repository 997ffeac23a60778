package jsontext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Options are the bounds and the dialect of one parse. The zero value is strict RFC 8259
// with no bounds.
type Options struct {
	// MaxDepth bounds how deep arrays and objects nest (0: unbounded). Going deeper stops
	// the parse with CodeTooDeep: the depth of the parser's own recursion is what it bounds.
	MaxDepth int
	// CountEnclosing makes MaxDepth bound the arrays and objects around every value,
	// scalars included, instead of how deep arrays and objects nest: an innermost array or
	// object may then be one level deeper when it is empty. Splice's loader counts so.
	CountEnclosing bool
	// MaxString bounds the bytes of one decoded string, names included (0: unbounded).
	// A longer string is kept and reported (CodeStringTooLong).
	MaxString int
	// MaxEntries bounds the elements of an array and the members of an object (0:
	// unbounded). The first MaxEntries are kept, the rest parsed, dropped and reported
	// (CodeTooManyEntries).
	MaxEntries int
	// OwnStrings gives every string of the tree (names included) its own copy instead of
	// a slice of the text: for a caller that keeps a few strings of each document for
	// long (the console holding thousands of packages), so that a kept name does not keep
	// its whole file alive. It costs an allocation per string.
	OwnStrings bool
	// AllowDuplicates stops reporting repeated member names (CodeDuplicateKey). The tree
	// keeps every occurrence either way.
	AllowDuplicates bool
	// Lenient takes the text as a JavaScript engine would after a lenient decode: bytes
	// that are not UTF-8 become U+FFFD (one per byte) inside strings and are unexpected
	// characters elsewhere, and a byte order mark is an unexpected character like any other.
	// Strict parsing (the default) rejects the whole text instead (CodeInvalidUTF8, and
	// CodeSyntax for a BOM), since a JSON text must be UTF-8 without one.
	Lenient bool
}

// Limits are vouch's bounds on any one manifest, so a hostile file stays cheap: 32 nesting
// levels, 16 KiB strings, 1,024 entries.
var Limits = Options{MaxDepth: 32, MaxString: 16 << 10, MaxEntries: 1024}

// Codes of Error and Issue. Loaders put their own prefix in place of "json-".
const (
	CodeSyntax         = "json-syntax"
	CodeInvalidUTF8    = "json-invalid-utf8"
	CodeTooDeep        = "json-too-deep"
	CodeDuplicateKey   = "json-duplicate-key"
	CodeStringTooLong  = "json-string-too-long"
	CodeTooManyEntries = "json-too-many-entries"
)

// Reason says precisely why a text is not JSON, for loaders that word errors their own
// way (Splice reproduces JSON.parse's messages).
type Reason uint8

const (
	ReasonInvalidUTF8     Reason = iota + 1
	ReasonBOM                    // a byte order mark before the value
	ReasonTrailing               // text after the value
	ReasonEOF                    // the text ends where a value should start
	ReasonTooDeep                // nesting beyond MaxDepth
	ReasonUnexpected             // a character that cannot start a value
	ReasonLiteral                // t, f or n not starting true, false or null
	ReasonNumberDigits           // a minus sign without digits
	ReasonNumberFraction         // a decimal point without digits
	ReasonNumberExponent         // an exponent without digits
	ReasonControl                // an unescaped control character in a string
	ReasonEOFString              // the text ends inside a string
	ReasonUnicodeEscape          // \u without four hex digits
	ReasonEscape                 // a backslash before a character that is no escape; Off is that character
	ReasonMemberName             // no quoted name where an object member should start
	ReasonColon                  // no ':' after a member name
	ReasonEOFObject              // the text ends inside an object
	ReasonObjectSeparator        // neither ',' nor '}' after a member
	ReasonEOFArray               // the text ends inside an array
	ReasonArraySeparator         // neither ',' nor ']' after an element
)

// Error stops a parse: the text is not JSON, or nests deeper than MaxDepth.
type Error struct {
	Code   string // CodeSyntax, CodeInvalidUTF8 or CodeTooDeep
	Reason Reason
	Off    int    // byte offset where the problem was found
	Msg    string // completes a sentence that starts with the file name: "plugin.json " + Msg
}

func (e *Error) Error() string { return e.Msg }

// Issue is a finding that does not stop the parse: a bound exceeded or a repeated name.
// Pointer lets the caller attribute it to the narrowest boundary.
type Issue struct {
	Code    string // CodeDuplicateKey, CodeStringTooLong or CodeTooManyEntries
	Off     int
	Pointer string
	Msg     string // a clause: "In plugin.json, " + Msg
}

// Parse parses data as one JSON value. It never panics, its work is linear in len(data),
// and its recursion is bounded by MaxDepth. Strings in the tree share one copy of data.
func Parse(data []byte, o Options) (*Value, []Issue, *Error) {
	return ParseString(string(data), o)
}

// ParseString is Parse for text already held as a string (no copy is made).
func ParseString(s string, o Options) (*Value, []Issue, *Error) {
	if !o.Lenient {
		if !utf8.ValidString(s) {
			off := 0
			for off < len(s) {
				r, n := utf8.DecodeRuneInString(s[off:])
				if r == utf8.RuneError && n <= 1 {
					break
				}
				off += n
			}
			return nil, nil, &Error{Code: CodeInvalidUTF8, Reason: ReasonInvalidUTF8, Off: off, Msg: fmt.Sprintf("is not valid UTF-8 (invalid byte at offset %d)", off)}
		}
		if strings.HasPrefix(s, "\xef\xbb\xbf") {
			return nil, nil, &Error{Code: CodeSyntax, Reason: ReasonBOM, Off: 0, Msg: "starts with a byte order mark, which JSON text must not have"}
		}
	}
	p := &parser{s: s, o: o}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, p.issues, err
	}
	p.ws()
	if p.pos != len(p.s) {
		return nil, p.issues, p.fail(ReasonTrailing, "has unexpected text after the JSON value")
	}
	return v, p.issues, nil
}

type parser struct {
	s      string
	pos    int
	o      Options
	path   []step // where the parser is, formatted only when an issue needs a pointer
	issues []Issue

	// Values come from slabs, and the entries of the arrays and objects being parsed
	// wait on shared stacks until their container closes and gets an exact-size slice:
	// a few allocations per document instead of several per value.
	slab []Value
	vals []*Value
	mems []Member

	// lone is set by str when it replaced a lone surrogate escape with U+FFFD.
	lone bool
}

type step struct {
	key string
	idx int // when key is not a name
	arr bool
}

func (p *parser) newValue(k Kind, off int) *Value {
	if len(p.slab) == cap(p.slab) {
		n := 2 * cap(p.slab)
		n = max(n, 16)
		n = min(n, 512)
		p.slab = make([]Value, 0, n)
	}
	p.slab = append(p.slab, Value{Kind: k, Off: off})
	return &p.slab[len(p.slab)-1]
}

func (p *parser) fail(r Reason, format string, a ...any) *Error {
	return &Error{Code: CodeSyntax, Reason: r, Off: p.pos, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) issue(code string, off int, msg string) {
	var b strings.Builder
	for _, st := range p.path {
		b.WriteByte('/')
		if st.arr {
			b.WriteString(strconv.Itoa(st.idx))
		} else {
			b.WriteString(escapeToken(st.key))
		}
	}
	p.issues = append(p.issues, Issue{Code: code, Off: off, Pointer: b.String(), Msg: msg})
}

func (p *parser) ws() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value at p.pos; enclosing counts the arrays and objects around it.
func (p *parser) value(enclosing int) (*Value, *Error) {
	if m := p.o.MaxDepth; m > 0 {
		deep := enclosing > m
		if !p.o.CountEnclosing {
			deep = enclosing >= m && p.pos < len(p.s) && (p.s[p.pos] == '{' || p.s[p.pos] == '[')
		}
		if deep {
			return nil, &Error{Code: CodeTooDeep, Reason: ReasonTooDeep, Off: p.pos, Msg: fmt.Sprintf("nests deeper than %d levels", m)}
		}
	}
	if p.pos >= len(p.s) {
		return nil, p.fail(ReasonEOF, "ends where a value was expected")
	}
	start := p.pos
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(enclosing)
	case c == '[':
		return p.array(enclosing)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v := p.newValue(String, start)
		v.Str = s
		return v, nil
	case c == 't':
		return p.lit("true", Bool, true)
	case c == 'f':
		return p.lit("false", Bool, false)
	case c == 'n':
		return p.lit("null", Null, false)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.fail(ReasonUnexpected, "has an unexpected character %q where a value was expected", rune(c))
	}
}

func (p *parser) lit(word string, k Kind, b bool) (*Value, *Error) {
	if !strings.HasPrefix(p.s[p.pos:], word) {
		return nil, p.fail(ReasonLiteral, "has an invalid literal (expected %s)", word)
	}
	v := p.newValue(k, p.pos)
	v.Bool = b
	p.pos += len(word)
	return v, nil
}

func (p *parser) number() (*Value, *Error) {
	start := p.pos
	s := p.s
	if s[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(s) && s[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.fail(ReasonNumberDigits, "has an invalid number")
	}
	if p.pos < len(s) && s[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail(ReasonNumberFraction, "has an invalid number")
		}
	}
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E') {
		p.pos++
		if p.pos < len(s) && (s[p.pos] == '+' || s[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail(ReasonNumberExponent, "has an invalid number")
		}
	}
	v := p.newValue(Number, start)
	v.Str = s[start:p.pos]
	return v, nil
}

// str parses a string starting at its opening quote.
func (p *parser) str() (string, *Error) {
	start := p.pos
	p.pos++
	s := p.s
	// Most strings have no escapes and are valid UTF-8: they are slices of the text.
	nonASCII := false
	for i := p.pos; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			out := s[p.pos:i]
			if nonASCII && p.o.Lenient && !utf8.ValidString(out) {
				break
			}
			p.pos = i + 1
			p.checkLen(start, len(out))
			if p.o.OwnStrings {
				out = strings.Clone(out)
			}
			return out, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.pos = i
			return "", p.fail(ReasonControl, "has a control character inside a string (escape it)")
		}
		if c >= 0x80 {
			nonASCII = true
		}
	}
	var b strings.Builder
	for p.pos < len(s) {
		c := s[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.checkLen(start, b.Len())
			return b.String(), nil
		case c < 0x20:
			return "", p.fail(ReasonControl, "has a control character inside a string (escape it)")
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[p.pos:])
			if r == utf8.RuneError && n == 1 {
				b.WriteRune(utf8.RuneError) // only reachable when Lenient
			} else {
				b.WriteString(s[p.pos : p.pos+n])
			}
			p.pos += n
			continue
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(s) {
			return "", p.fail(ReasonEOFString, "ends inside a string")
		}
		e := s[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail(ReasonUnicodeEscape, "has an invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A valid pair decodes to one rune; a lone surrogate becomes U+FFFD, as
				// in encoding/json (JavaScript keeps it, but a Go string cannot, and
				// U+FFFD has the same UTF-16 length).
				if p.pos+1 < len(s) && s[p.pos] == '\\' && s[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					r2, ok := p.hex4()
					if !ok {
						return "", p.fail(ReasonUnicodeEscape, "has an invalid \\u escape")
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b.WriteRune(dec)
						continue
					}
					p.pos = save
				}
				r = utf8.RuneError
				p.lone = true
			}
			b.WriteRune(r)
		default:
			p.pos--
			return "", p.fail(ReasonEscape, "has an invalid escape \\%c in a string", rune(e))
		}
	}
	return "", p.fail(ReasonEOFString, "ends inside a string")
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.pos : p.pos+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	p.pos += 4
	return r, true
}

func (p *parser) checkLen(off, n int) {
	if m := p.o.MaxString; m > 0 && n > m {
		p.issue(CodeStringTooLong, off, fmt.Sprintf("a string is %d bytes, over the %d-byte limit", n, m))
	}
}

func (p *parser) array(enclosing int) (*Value, *Error) {
	v := p.newValue(Array, p.pos)
	p.pos++
	p.ws()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	base := len(p.vals)
	limit := p.o.MaxEntries
	reported := false // one issue per array, however many elements it drops
	for {
		n := len(p.vals) - base // elements kept so far; dropped ones share the next index
		p.path = append(p.path, step{idx: n, arr: true})
		p.ws()
		el, err := p.value(enclosing + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return nil, err
		}
		if limit > 0 && n == limit && !reported {
			reported = true
			p.issue(CodeTooManyEntries, v.Off, fmt.Sprintf("an array has more than %d elements", limit))
		}
		if limit == 0 || n < limit {
			p.vals = append(p.vals, el)
		}
		p.ws()
		if p.pos >= len(p.s) {
			return nil, p.fail(ReasonEOFArray, "ends inside an array")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			v.Arr = append([]*Value(nil), p.vals[base:]...)
			clear(p.vals[base:])
			p.vals = p.vals[:base]
			return v, nil
		default:
			return nil, p.fail(ReasonArraySeparator, "has an unexpected character %q in an array (expected , or ])", rune(p.s[p.pos]))
		}
	}
}

func (p *parser) object(enclosing int) (*Value, *Error) {
	v := p.newValue(Object, p.pos)
	p.pos++
	p.ws()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	base := len(p.mems) // every member waits here, the ones beyond MaxEntries too (for duplicates)
	limit := p.o.MaxEntries
	var seen map[string]struct{}
	for {
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return nil, p.fail(ReasonMemberName, "has an object member without a quoted name")
		}
		keyOff := p.pos
		p.lone = false
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		ident := ""
		if p.lone {
			ident = wtf8(p.s[keyOff+1:p.pos-1], p.o.Lenient)
		}
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.fail(ReasonColon, "is missing ':' after an object member name")
		}
		p.pos++
		p.ws()
		p.path = append(p.path, step{key: key})
		val, err := p.value(enclosing + 1)
		if err != nil {
			return nil, err
		}
		id := key
		if ident != "" {
			id = ident
		}
		if !p.o.AllowDuplicates && p.repeated(base, id, &seen) {
			p.issue(CodeDuplicateKey, keyOff, fmt.Sprintf("the member %q appears more than once in the same object", key))
		}
		p.path = p.path[:len(p.path)-1]
		p.mems = append(p.mems, Member{Key: key, KeyOff: keyOff, Val: val, ident: ident})
		if count := len(p.mems) - base; limit > 0 && count == limit+1 {
			p.issue(CodeTooManyEntries, v.Off, fmt.Sprintf("an object has more than %d members", limit))
		}
		p.ws()
		if p.pos >= len(p.s) {
			return nil, p.fail(ReasonEOFObject, "ends inside an object")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			kept := p.mems[base:]
			if limit > 0 && len(kept) > limit {
				kept = kept[:limit]
			}
			v.Obj = append([]Member(nil), kept...)
			clear(p.mems[base:])
			p.mems = p.mems[:base]
			return v, nil
		default:
			return nil, p.fail(ReasonObjectSeparator, "has an unexpected character %q in an object (expected , or })", rune(p.s[p.pos]))
		}
	}
}

// repeated reports whether the name id (Member.Ident) names an earlier member of the object whose members start
// at p.mems[base]; small objects are scanned, larger ones get a set.
func (p *parser) repeated(base int, key string, seen *map[string]struct{}) bool {
	earlier := p.mems[base:]
	if *seen == nil {
		if len(earlier) < 16 {
			for i := range earlier {
				if earlier[i].Ident() == key {
					return true
				}
			}
			return false
		}
		*seen = make(map[string]struct{}, 2*len(earlier))
		for i := range earlier {
			(*seen)[earlier[i].Ident()] = struct{}{}
		}
	}
	if _, dup := (*seen)[key]; dup {
		return true
	}
	(*seen)[key] = struct{}{}
	return false
}

// wtf8 decodes the body of a string literal already parsed by str, as str does, except
// that a lone surrogate is kept as its three-byte generalized UTF-8 (WTF-8) form instead
// of U+FFFD. Valid UTF-8 never holds those bytes, so the result tells apart every pair of
// names JavaScript tells apart. Only names with a lone surrogate come here.
func wtf8(lit string, lenient bool) string {
	var b strings.Builder
	for i := 0; i < len(lit); {
		c := lit[i]
		if c != '\\' {
			r, n := utf8.DecodeRuneInString(lit[i:])
			if r == utf8.RuneError && n == 1 && lenient {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(lit[i : i+n])
			}
			i += n
			continue
		}
		e := lit[i+1]
		i += 2
		if e != 'u' {
			b.WriteString(map[byte]string{'"': "\"", '\\': "\\", '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}[e])
			continue
		}
		r := hexRune(lit[i : i+4])
		i += 4
		if utf16.IsSurrogate(r) {
			if i+6 <= len(lit) && lit[i] == '\\' && lit[i+1] == 'u' {
				if dec := utf16.DecodeRune(r, hexRune(lit[i+2:i+6])); dec != utf8.RuneError {
					b.WriteRune(dec)
					i += 6
					continue
				}
			}
			b.Write([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F})
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func hexRune(h string) rune {
	v, _ := strconv.ParseUint(h, 16, 32)
	return rune(v)
}

package agentplugins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a small strict JSON parser. encoding/json cannot give what a reviewer
// needs: the byte offset of every key (for line numbers), members in declaration order
// (for display), duplicate keys (which different clients resolve differently, so the
// value a reviewer sees could differ from the one a client runs), and bounded depth.
// It accepts exactly RFC 8259 JSON in UTF-8; FuzzManifest checks it against encoding/json.

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jkind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

type jmember struct {
	Key    string
	KeyOff int
	Val    *jvalue
}

type jvalue struct {
	Kind jkind
	Off  int    // byte offset of the value's first byte
	Str  string // string value, or the literal text of a number
	Bool bool
	Arr  []*jvalue
	Obj  []jmember
}

// get returns the last member named key (encoding/json semantics) or nil.
func (v *jvalue) get(key string) *jmember {
	if v == nil || v.Kind != jObject {
		return nil
	}
	for i := len(v.Obj) - 1; i >= 0; i-- {
		if v.Obj[i].Key == key {
			return &v.Obj[i]
		}
	}
	return nil
}

// jsonLimits are the DESIGN §10 bounds applied while parsing.
type jsonLimits struct {
	MaxDepth   int // nesting levels
	MaxString  int // bytes in one decoded string
	MaxEntries int // elements of one array or members of one object
}

var defaultJSONLimits = jsonLimits{MaxDepth: 32, MaxString: 16 << 10, MaxEntries: 1024}

// jsonIssue is a finding that does not stop parsing: a limit exceeded or a duplicate key.
// The caller attributes it to the narrowest boundary by its pointer.
type jsonIssue struct {
	Code    string // json-duplicate-key, json-string-too-long, json-too-many-entries
	Off     int
	Pointer string
	Msg     string
}

// jsonError stops parsing: the text is not JSON (or nests deeper than the limit).
type jsonError struct {
	Code string // json-syntax, json-invalid-utf8, json-too-deep
	Off  int
	Msg  string
}

func (e *jsonError) Error() string { return e.Msg }

type jparser struct {
	data   []byte
	pos    int
	lim    jsonLimits
	path   []string
	issues []jsonIssue
}

// parseJSON parses data as one JSON value. It never panics and its work is linear in
// len(data); depth is bounded by lim.MaxDepth.
func parseJSON(data []byte, lim jsonLimits) (*jvalue, []jsonIssue, *jsonError) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, nil, &jsonError{Code: "json-invalid-utf8", Off: off, Msg: fmt.Sprintf("is not valid UTF-8 (invalid byte at offset %d)", off)}
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, nil, &jsonError{Code: "json-syntax", Off: 0, Msg: "starts with a byte order mark, which JSON text must not have"}
	}
	p := &jparser{data: data, lim: lim}
	p.ws()
	v, err := p.value(1)
	if err != nil {
		return nil, p.issues, err
	}
	p.ws()
	if p.pos != len(p.data) {
		return nil, p.issues, p.errf("has unexpected text after the JSON value")
	}
	return v, p.issues, nil
}

func (p *jparser) errf(format string, a ...any) *jsonError {
	return &jsonError{Code: "json-syntax", Off: p.pos, Msg: fmt.Sprintf(format, a...)}
}

func (p *jparser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) issue(code string, off int, msg string) {
	p.issues = append(p.issues, jsonIssue{Code: code, Off: off, Pointer: pointer(p.path...), Msg: msg})
}

func (p *jparser) value(depth int) (*jvalue, *jsonError) {
	if p.pos >= len(p.data) {
		return nil, p.errf("ends where a value was expected")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth > p.lim.MaxDepth {
			return nil, &jsonError{Code: "json-too-deep", Off: start, Msg: fmt.Sprintf("nests deeper than %d levels", p.lim.MaxDepth)}
		}
		if c == '{' {
			return p.object(depth)
		}
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jvalue{Kind: jString, Off: start, Str: s}, nil
	case c == 't':
		return p.lit("true", &jvalue{Kind: jBool, Off: start, Bool: true})
	case c == 'f':
		return p.lit("false", &jvalue{Kind: jBool, Off: start})
	case c == 'n':
		return p.lit("null", &jvalue{Kind: jNull, Off: start})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.errf("has an unexpected character %q where a value was expected", rune(c))
	}
}

func (p *jparser) lit(word string, v *jvalue) (*jvalue, *jsonError) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.errf("has an invalid literal (expected %s)", word)
	}
	p.pos += len(word)
	return v, nil
}

func (p *jparser) number() (*jvalue, *jsonError) {
	start := p.pos
	d := p.data
	if p.pos < len(d) && d[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(d) && d[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.errf("has an invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errf("has an invalid number")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errf("has an invalid number")
		}
	}
	return &jvalue{Kind: jNumber, Off: start, Str: string(d[start:p.pos])}, nil
}

// str parses a string starting at the opening quote.
func (p *jparser) str() (string, *jsonError) {
	start := p.pos
	p.pos++
	d := p.data
	// Fast path: no escapes.
	for i := p.pos; i < len(d); i++ {
		c := d[i]
		if c == '"' {
			s := string(d[p.pos:i])
			p.pos = i + 1
			p.checkLen(start, len(s))
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			p.pos = i
			return "", p.errf("has a control character inside a string (escape it)")
		}
	}
	var b strings.Builder
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.checkLen(start, b.Len())
			return b.String(), nil
		case c < 0x20:
			return "", p.errf("has a control character inside a string (escape it)")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(d) {
			return "", p.errf("ends inside a string")
		}
		e := d[p.pos+1]
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
				return "", p.errf("has an invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A valid pair decodes to one rune; a lone surrogate becomes U+FFFD,
				// as encoding/json does.
				if p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					r2, ok := p.hex4()
					if !ok {
						return "", p.errf("has an invalid \\u escape")
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b.WriteRune(dec)
						continue
					}
					p.pos = save
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			p.pos--
			return "", p.errf("has an invalid escape \\%c in a string", rune(e))
		}
	}
	return "", p.errf("ends inside a string")
}

func (p *jparser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	for _, c := range p.data[p.pos : p.pos+4] {
		if c == '+' || c == '-' || c == '_' { // ParseUint is more lenient than JSON
			return 0, false
		}
	}
	p.pos += 4
	return rune(n), true
}

func (p *jparser) checkLen(off, n int) {
	if n > p.lim.MaxString {
		p.issue("json-string-too-long", off, fmt.Sprintf("a string is %d bytes, over the %d-byte limit", n, p.lim.MaxString))
	}
}

func (p *jparser) array(depth int) (*jvalue, *jsonError) {
	v := &jvalue{Kind: jArray, Off: p.pos}
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.path = append(p.path, strconv.Itoa(len(v.Arr)))
		p.ws()
		el, err := p.value(depth + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return nil, err
		}
		if len(v.Arr) == p.lim.MaxEntries {
			p.issue("json-too-many-entries", v.Off, fmt.Sprintf("an array has more than %d elements", p.lim.MaxEntries))
		}
		if len(v.Arr) < p.lim.MaxEntries {
			v.Arr = append(v.Arr, el)
		}
		p.ws()
		if p.pos >= len(p.data) {
			return nil, p.errf("ends inside an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, p.errf("has an unexpected character %q in an array (expected , or ])", rune(p.data[p.pos]))
		}
	}
}

func (p *jparser) object(depth int) (*jvalue, *jsonError) {
	v := &jvalue{Kind: jObject, Off: p.pos}
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	var seen map[string]bool
	count := 0
	for {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errf("has an object member without a quoted name")
		}
		keyOff := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errf("is missing ':' after an object member name")
		}
		p.pos++
		p.ws()
		p.path = append(p.path, key)
		val, err := p.value(depth + 1)
		if err != nil {
			p.path = p.path[:len(p.path)-1]
			return nil, err
		}
		if seen == nil {
			seen = make(map[string]bool, 8)
		}
		if seen[key] {
			p.issue("json-duplicate-key", keyOff, fmt.Sprintf("the member %q appears more than once in the same object", key))
		}
		seen[key] = true
		p.path = p.path[:len(p.path)-1]
		count++
		if count == p.lim.MaxEntries+1 {
			p.issue("json-too-many-entries", v.Off, fmt.Sprintf("an object has more than %d members", p.lim.MaxEntries))
		}
		if count <= p.lim.MaxEntries {
			v.Obj = append(v.Obj, jmember{Key: key, KeyOff: keyOff, Val: val})
		}
		p.ws()
		if p.pos >= len(p.data) {
			return nil, p.errf("ends inside an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return nil, p.errf("has an unexpected character %q in an object (expected , or })", rune(p.data[p.pos]))
		}
	}
}

// toAny converts a parsed value to the form jsonschema validates (json.Number for
// numbers; later duplicate members win, as in encoding/json).
func toAny(v *jvalue) any {
	switch v.Kind {
	case jNull:
		return nil
	case jBool:
		return v.Bool
	case jNumber:
		return json.Number(v.Str)
	case jString:
		return v.Str
	case jArray:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = toAny(e)
		}
		return out
	default:
		out := make(map[string]any, len(v.Obj))
		for _, m := range v.Obj {
			out[m.Key] = toAny(m.Val)
		}
		return out
	}
}

// toDisplay converts a parsed value to model field values, keeping member order.
func toDisplay(v *jvalue) any {
	switch v.Kind {
	case jNull:
		return nil
	case jBool:
		return v.Bool
	case jNumber:
		return v.Str
	case jString:
		return v.Str
	case jArray:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = toDisplay(e)
		}
		return out
	default:
		out := make(fieldsT, 0, len(v.Obj))
		for _, m := range v.Obj {
			out = append(out, fieldT{Key: m.Key, Value: toDisplay(m.Val)})
		}
		return out
	}
}

// pointer builds an RFC 6901 JSON pointer from unescaped tokens.
func pointer(tokens ...string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}

// lineAt returns the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	if off < 0 || off > len(data) {
		return 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

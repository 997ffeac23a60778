package splice

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Splice validates manifests with JavaScript (JSON.parse, Object.keys, String.length), and
// its error messages and their order follow from that. This file reproduces the parts of
// those semantics that change what a reviewer sees: duplicate keys keep their first
// position and last value, integer-like keys come first in Object.keys, numbers are
// IEEE doubles (1e400 is Infinity), lengths count UTF-16 code units.

// maxJSONDepth bounds nesting. Splice's schema depth limit (16 levels of properties/items)
// needs about 37 JSON levels, so the reference limit of 32 would reject valid manifests.
const maxJSONDepth = 64

// object is a JSON object with JavaScript key order.
type object struct {
	order []string // insertion order of first occurrence
	vals  map[string]any
}

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// keys returns the keys in Object.keys order: array-index keys ascending, then the rest in
// insertion order.
func (o *object) keys() []string {
	var idx, rest []string
	for _, k := range o.order {
		if isArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	sort.Slice(idx, func(i, j int) bool {
		a, _ := strconv.ParseUint(idx[i], 10, 64)
		b, _ := strconv.ParseUint(idx[j], 10, 64)
		return a < b
	})
	return append(idx, rest...)
}

func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < math.MaxUint32
}

// parseJSON parses text (BOM already stripped) as JSON.parse would.
func parseJSON(text string) (any, error) {
	v, _, err := parseJSONPositions(text, false)
	return v, err
}

// parseJSONPositions also returns where each value starts, by JSON pointer.
func parseJSONPositions(text string, track bool) (any, map[string]int, error) {
	p := &jsonParser{s: text}
	if track {
		p.pos = map[string]int{}
	}
	v, err := p.parse()
	return v, p.pos, err
}

func (p *jsonParser) parse() (any, error) {
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(p.s) {
		return nil, p.errf("unexpected non-whitespace character after JSON")
	}
	return v, nil
}

type jsonParser struct {
	s    string
	i    int
	path []string
	pos  map[string]int // JSON pointer → offset of its value, when tracked
}

func (p *jsonParser) mark() {
	if p.pos != nil {
		ptr := ""
		if len(p.path) > 0 {
			ptr = "/" + strings.Join(p.path, "/")
		}
		p.pos[ptr] = p.i
	}
}

func (p *jsonParser) errf(format string, a ...any) error {
	return fmt.Errorf(format+" at position %d", append(a, p.i)...)
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.errf("nesting deeper than %d levels", maxJSONDepth)
	}
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end of JSON input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, nil
	}
	return nil, p.errf("unexpected token")
}

func (p *jsonParser) object(depth int) (any, error) {
	p.i++
	o := &object{vals: map[string]any{}}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return o, nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("expected property name")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':' after property name")
		}
		p.i++
		p.ws()
		p.path = append(p.path, strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
		p.mark()
		v, err := p.value(depth + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return nil, err
		}
		if _, dup := o.vals[k]; !dup {
			o.order = append(o.order, k)
		}
		o.vals[k] = v
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of JSON input")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return o, nil
		default:
			return nil, p.errf("expected ',' or '}' after property value")
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	p.i++
	out := []any{}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return out, nil
	}
	for {
		p.ws()
		p.path = append(p.path, strconv.Itoa(len(out)))
		p.mark()
		v, err := p.value(depth + 1)
		p.path = p.path[:len(p.path)-1]
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of JSON input")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return out, nil
		default:
			return nil, p.errf("expected ',' or ']' after array element")
		}
	}
}

func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.errf("unterminated string in JSON")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.errf("bad control character in string literal")
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.errf("unterminated string in JSON")
			}
			e := p.s[p.i+1]
			p.i += 2
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
					return "", p.errf("bad Unicode escape in JSON")
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], `\u`) {
					save := p.i
					p.i += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b.WriteRune(d)
							continue
						}
					}
					p.i = save
				}
				// A lone surrogate cannot be kept in a Go string; it becomes U+FFFD,
				// which has the same UTF-16 length.
				b.WriteRune(r)
			default:
				return "", p.errf("bad escaped character in JSON")
			}
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r)
			p.i += size
		}
	}
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func (p *jsonParser) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.errf("no number after minus sign in JSON")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errf("unterminated fractional number in JSON")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errf("exponent part is missing a number in JSON")
		}
	}
	// Out-of-range values become ±Infinity or 0, as in JavaScript.
	f, _ := strconv.ParseFloat(p.s[start:p.i], 64)
	return f, nil
}

// jsLen is String.prototype.length: UTF-16 code units.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// jsTrim is String.prototype.trim: ECMAScript WhiteSpace and LineTerminator.
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
			return true
		}
		return r >= 0x2000 && r <= 0x200A
	})
}

func isInteger(v any) bool {
	f, ok := v.(float64)
	return ok && !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f)
}

// jsString is JSON.stringify for parsed values (compact, key order preserved).
func jsString(v any) string {
	var b strings.Builder
	writeJS(&b, v)
	return b.String()
}

func writeJS(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case float64:
		b.WriteString(jsNumber(x))
	case string:
		writeJSString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteByte(']')
	case *object:
		b.WriteByte('{')
		for i, k := range x.keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, k)
			b.WriteByte(':')
			writeJS(b, x.vals[k])
		}
		b.WriteByte('}')
	}
}

func writeJSString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// jsNumber formats a double as Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		return "null" // JSON.stringify writes non-finite numbers as null
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// toModel converts a parsed value into the JSON-like values model.Contract accepts,
// keeping object key order (model.Fields) and integral numbers as int64.
func toModel(v any) any {
	switch x := v.(type) {
	case float64:
		if isInteger(x) && math.Abs(x) <= 1<<53 {
			return int64(x)
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toModel(e)
		}
		return out
	case *object:
		return objectFields(x)
	}
	return v
}

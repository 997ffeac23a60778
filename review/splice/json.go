package splice

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/review/jsontext"
)

// Splice validates manifests with JavaScript (JSON.parse, Object.keys, String.length), and
// its error messages and their order follow from that. This file reproduces the parts of
// those semantics that change what a reviewer sees: duplicate keys keep their first
// position and last value, integer-like keys come first in Object.keys, numbers are
// IEEE doubles (1e400 is Infinity), lengths count UTF-16 code units, parse errors read as
// JSON.parse's. The parsing itself is jsontext's.

// maxJSONDepth bounds the arrays and objects around any value. Splice's schema depth limit
// (16 levels of properties/items) needs about 37 JSON levels, so the reference limit of 32
// would reject valid manifests.
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

// jsonOptions parse as JSON.parse does: no bounds of its own (the depth bound only keeps
// recursion finite), repeated names allowed, and text that was not UTF-8 read as a lenient
// decoder would have left it.
var jsonOptions = jsontext.Options{MaxDepth: maxJSONDepth, CountEnclosing: true, AllowDuplicates: true, Lenient: true}

// parseJSON parses text (BOM already stripped) as JSON.parse would.
func parseJSON(text string) (any, error) {
	v, _, err := parseJSONPositions(text, false)
	return v, err
}

// parseJSONPositions also returns where each value starts, by JSON pointer (the root has
// none). A repeated name's pointer ends at its last occurrence.
func parseJSONPositions(text string, track bool) (any, map[string]int, error) {
	tree, _, jerr := jsontext.ParseString(text, jsonOptions)
	if jerr != nil {
		return nil, nil, jsParseError(text, jerr)
	}
	var pos map[string]int
	if track {
		pos = map[string]int{}
	}
	return fromTree(tree, "", pos), pos, nil
}

// fromTree converts a parsed value to the values JavaScript would hold: float64 numbers,
// and objects whose repeated names keep their first position and their last value. Every
// occurrence is visited in document order, so pos ends as a single pass recording each
// value's start would leave it.
func fromTree(v *jsontext.Value, ptr string, pos map[string]int) any {
	if x, ok := v.Scalar(); ok {
		return x
	}
	switch v.Kind {
	case jsontext.Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			var p string
			if pos != nil {
				p = ptr + "/" + strconv.Itoa(i)
				pos[p] = e.Off
			}
			out[i] = fromTree(e, p, pos)
		}
		return out
	default:
		o := &object{vals: make(map[string]any, len(v.Obj))}
		for _, m := range v.Obj {
			var p string
			if pos != nil {
				p = ptr + jsontext.Pointer(m.Key)
				pos[p] = m.Val.Off
			}
			val := fromTree(m.Val, p, pos)
			if _, dup := o.vals[m.Key]; !dup {
				o.order = append(o.order, m.Key)
			}
			o.vals[m.Key] = val
		}
		return o
	}
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
		model.WriteJSONString(b, x)
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
			model.WriteJSONString(b, k)
			b.WriteByte(':')
			writeJS(b, x.vals[k])
		}
		b.WriteByte('}')
	}
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

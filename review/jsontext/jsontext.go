// Package jsontext parses JSON text into a tree that remembers where everything was.
//
// It exists because encoding/json gives a value and nothing else, and a reviewer needs
// more: the byte offset of every key and value (diagnostics carry line numbers), object
// members in document order with repeated names kept (display follows declaration order;
// clients resolve a repeated name differently, so vouch must see every occurrence), and
// bounds applied while parsing (Limits), so a hostile file costs linear work and a
// diagnostic rather than memory or a crash.
//
// The Agent Plugins and Splice loaders both parse with it. Their differences are Options
// (limits, whether repeated names are reported, how invalid UTF-8 and depth are treated)
// and the conversions they call on the tree: Any for encoding/json-style values, Float
// for JavaScript numbers (1e400 is +Inf), Get for the value JSON.parse and encoding/json
// both keep for a repeated name (the last). Only RFC 8259 JSON is accepted; FuzzParse
// checks that against encoding/json.
package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String names the kind as diagnostics write it ("a JSON number").
func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Member is one name/value pair of an object.
type Member struct {
	Key    string
	KeyOff int // byte offset of the key's opening quote
	Val    *Value
	// ident is the name as Ident returns it when it differs from Key, else "".
	ident string
}

// Ident is the member's name as JavaScript holds it, for telling names apart: Key,
// unless the name has a lone surrogate escape ("\ud800"), which a Go string cannot hold
// and Key shows as U+FFFD; then each lone surrogate is kept as its three WTF-8 bytes, so
// "\ud800", "\ud801" and "\ufffd" are three different names, as in JSON.parse.
// Repeated names (CodeDuplicateKey) are found by Ident.
func (m *Member) Ident() string {
	if m.ident != "" {
		return m.ident
	}
	return m.Key
}

// Value is one parsed JSON value.
type Value struct {
	Kind Kind
	Off  int    // byte offset of the value's first byte
	Str  string // the decoded string, or the literal text of a number
	Bool bool
	Arr  []*Value
	Obj  []Member // every member in document order, repeated names included
}

// Get returns the last member named key, or nil when v is not an object or has no such
// member. The last occurrence is the value both encoding/json and JSON.parse keep.
func (v *Value) Get(key string) *Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Obj) - 1; i >= 0; i-- {
		if v.Obj[i].Key == key {
			return &v.Obj[i]
		}
	}
	return nil
}

// Firsts gives each member name of object v once, at its first occurrence, in document
// order: where a finding about the name points, while Get gives the value it holds (the
// last occurrence's). Nil when v is not an object.
func (v *Value) Firsts() []Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	seen := make(map[string]bool, len(v.Obj))
	out := make([]Member, 0, len(v.Obj))
	for _, m := range v.Obj {
		if !seen[m.Key] {
			seen[m.Key] = true
			out = append(out, m)
		}
	}
	return out
}

// Float is the number as JavaScript reads it: an IEEE double, with out-of-range
// magnitudes becoming ±Inf or 0 instead of an error. Zero for other kinds.
func (v *Value) Float() float64 {
	if v.Kind != Number {
		return 0
	}
	f, _ := strconv.ParseFloat(v.Str, 64)
	return f
}

// Scalar is a null, boolean, number or string as JavaScript holds it: nil, bool, float64
// (as Float reads it) or string. ok is false for arrays and objects.
func (v *Value) Scalar() (x any, ok bool) {
	switch v.Kind {
	case Null:
		return nil, true
	case Bool:
		return v.Bool, true
	case Number:
		return v.Float(), true
	case String:
		return v.Str, true
	}
	return nil, false
}

// Any converts v to what encoding/json decodes with UseNumber (and what jsonschema
// validates): nil, bool, json.Number, string, []any, map[string]any, the last of
// repeated names winning.
func (v *Value) Any() any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Str)
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = e.Any()
		}
		return out
	default:
		out := make(map[string]any, len(v.Obj))
		for _, m := range v.Obj {
			out[m.Key] = m.Val.Any()
		}
		return out
	}
}

// Offset returns the byte offset of the value at the unescaped pointer tokens loc (a
// member's key offset when the last step is a name), falling back to the deepest
// ancestor that exists: never wrong, at worst less precise.
func (v *Value) Offset(loc []string) int {
	off := v.Off
	for _, tok := range loc {
		switch v.Kind {
		case Object:
			m := v.Get(tok)
			if m == nil {
				return off
			}
			off, v = m.KeyOff, m.Val
		case Array:
			i := 0
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(v.Arr) {
				return off
			}
			v = v.Arr[i]
			off = v.Off
		default:
			return off
		}
	}
	return off
}

// Pointer builds an RFC 6901 JSON pointer from unescaped tokens.
func Pointer(tokens ...string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	if strings.ContainsAny(t, "~/") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return t
}

// SplitPointer splits an RFC 6901 pointer into unescaped tokens.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts
}

// Line returns the 1-based line of byte offset off in text, or 0 when off is outside it.
func Line[T string | []byte](text T, off int) int {
	if off < 0 || off > len(text) {
		return 0
	}
	switch t := any(text).(type) {
	case string:
		return strings.Count(t[:off], "\n") + 1
	default:
		return bytes.Count(t.([]byte)[:off], []byte{'\n'}) + 1
	}
}

// Literal returns the string literal that starts at byte offset off of text (a Member's
// KeyOff or a string Value's Off), quotes and escapes as written: the one faithful way to
// show a name Key cannot hold (Member.Ident). "" when no literal starts there.
func Literal[T string | []byte](text T, off int) string {
	if off < 0 || off >= len(text) || text[off] != '"' {
		return ""
	}
	for i := off + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"':
			return string(text[off : i+1])
		}
	}
	return ""
}

package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"vouch/review/jsontext"
)

// jsonObject is a JSON object being edited: its members in file order, each with the
// exact text of its name and value, so that whatever vouch does not change is written
// back byte for byte (Claude Code writes its settings as JSON.stringify(x, null, 2), and
// a file in that shape comes back identical but for the keys vouch owns).
type jsonObject struct {
	members []jsonMember
}

type jsonMember struct {
	key    string
	rawKey []byte // the name's text, quotes and escapes as written
	raw    []byte // the value's text
	val    *jsontext.Value
}

// parseObject reads a JSON object with exact member names, as Claude Code's JSON.parse
// does (encoding/json would match names ignoring case). A text that is not one object,
// or that repeats a name (Claude keeps the last; a rewrite would have to choose), is
// refused with the file named: vouch never rewrites a file it cannot read as the client
// does.
func parseObject(file string, data []byte) (*jsonObject, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &jsonObject{}, nil
	}
	v, issues, perr := jsontext.Parse(data, jsontext.Options{MaxDepth: 64})
	if perr != nil {
		return nil, fmt.Errorf("%s is not JSON (line %d: %s); fix it by hand, vouch does not rewrite a file it cannot read", file, jsontext.Line(data, perr.Off), perr.Msg)
	}
	for _, is := range issues {
		if is.Code == jsontext.CodeDuplicateKey {
			return nil, fmt.Errorf("%s repeats a member name (line %d, %s); "+observed+" keeps the last one, so fix it by hand before vouch rewrites it", file, jsontext.Line(data, is.Off), is.Pointer)
		}
	}
	return objectOf(file, data, v)
}

func objectOf(file string, data []byte, v *jsontext.Value) (*jsonObject, error) {
	if v.Kind != jsontext.Object {
		return nil, fmt.Errorf("%s holds %s where an object belongs; fix it by hand, vouch does not rewrite a file it cannot read", file, v.Kind)
	}
	o := &jsonObject{}
	for _, m := range v.Obj {
		raw, err := valueText(data, m.Val.Off)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		o.members = append(o.members, jsonMember{key: m.Key, rawKey: []byte(jsontext.Literal(data, m.KeyOff)), raw: raw, val: m.Val})
	}
	return o, nil
}

// valueText is the text of the JSON value starting at off.
func valueText(data []byte, off int) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data[off:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	return data[off : off+int(dec.InputOffset())], nil
}

func (o *jsonObject) get(key string) *jsonMember {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return &o.members[i]
		}
	}
	return nil
}

// child is the member key as an object to edit (an empty one when absent). A member
// that is not an object is refused: it is the user's, and vouch will not replace it.
func (o *jsonObject) child(file, key string) (*jsonObject, error) {
	m := o.get(key)
	if m == nil {
		return &jsonObject{}, nil
	}
	if m.val.Kind != jsontext.Object {
		return nil, fmt.Errorf("%s has %q as %s, not an object; fix it by hand", file, key, m.val.Kind)
	}
	return objectOf(file, m.raw, reparse(m.raw))
}

// reparse parses a value's own text again, so offsets are relative to it.
func reparse(raw []byte) *jsontext.Value {
	v, _, _ := jsontext.Parse(raw, jsontext.Options{AllowDuplicates: true})
	return v
}

// set replaces key's value with raw, in place, or appends it.
func (o *jsonObject) set(key string, raw []byte) {
	if m := o.get(key); m != nil {
		m.raw, m.val = raw, reparse(raw)
		return
	}
	o.members = append(o.members, jsonMember{key: key, rawKey: quote(key), raw: raw, val: reparse(raw)})
}

func (o *jsonObject) delete(key string) {
	kept := o.members[:0]
	for _, m := range o.members {
		if m.key != key {
			kept = append(kept, m)
		}
	}
	o.members = kept
}

// render writes the object as JSON.stringify(x, null, 2) would at nesting level depth,
// every value that was not set from vouch's own text kept as it was written.
func (o *jsonObject) render(depth int) []byte {
	if len(o.members) == 0 {
		return []byte("{}")
	}
	pad := strings.Repeat("  ", depth+1)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, m := range o.members {
		b.WriteString(pad)
		b.Write(m.rawKey)
		b.WriteString(": ")
		b.Write(m.raw)
		if i < len(o.members)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteByte('}')
	return b.Bytes()
}

// quote is a JSON string as JSON.stringify writes it (no HTML escapes).
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// renderArray writes elements (each a value's text) as JSON.stringify(x, null, 2) would.
func renderArray(elems [][]byte, depth int) []byte {
	if len(elems) == 0 {
		return []byte("[]")
	}
	pad := strings.Repeat("  ", depth+1)
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, e := range elems {
		b.WriteString(pad)
		b.Write(e)
		if i < len(elems)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteByte(']')
	return b.Bytes()
}

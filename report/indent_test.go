package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encoderIndented is what encoding/json's Encoder writes with SetIndent: the definition
// indentCompact reproduces.
func encoderIndented(t testing.TB, v any, prefix string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestIndentCompactMatchesEncoder(t *testing.T) {
	values := map[string]any{
		"empties":  map[string]any{"a": []int{}, "b": map[string]int{}, "c": []any{[]int{}, map[string]any{}}},
		"strings":  []string{`"`, `\`, `\"`, `a\\"b`, "\u2028", "<&>", "tab\there", "ü", `{"[,:]"}`, ""},
		"nested":   map[string]any{"x": []any{1, 2.5, true, nil, map[string]any{"y": []string{"z"}}}},
		"scalar":   "just a string",
		"number":   42,
		"report":   Package{Format: "agent-plugins", Name: "p\"q", Components: []Component{{Ref: "p#skill:a", Summary: []string{"x"}}}},
		"keys":     map[string]string{`k"e\y`: `v:a,l`},
		"deep":     []any{[]any{[]any{[]any{}}}},
		"controls": "\x01\x1f\x7f",
	}
	for name, v := range values {
		for _, prefix := range []string{"", "    "} {
			got, err := encodeIndented(v, prefix)
			if err != nil {
				t.Fatal(err)
			}
			want := escapeInvisible(encoderIndented(t, v, prefix))
			if !bytes.Equal(got, want) {
				t.Errorf("%s (prefix %q):\n got %q\nwant %q", name, prefix, got, want)
			}
		}
	}
}

// FuzzIndentCompact: any strings, in keys, values and lists, indent as the encoder does.
func FuzzIndentCompact(f *testing.F) {
	f.Add(`a"b`, `\`, "x")
	f.Add("", "{}", "[],")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		v := map[string]any{a: []any{b, map[string]any{c: []string{}}, []any{}}, "k": map[string]string{b: c}}
		got, err := encodeIndented(v, "  ")
		if err != nil {
			t.Fatal(err)
		}
		if want := escapeInvisible(encoderIndented(t, v, "  ")); !bytes.Equal(got, want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}

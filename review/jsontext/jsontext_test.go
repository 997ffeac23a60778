package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		opts   Options
		code   string
		reason Reason
		off    int
		msg    string
	}{
		{"", Limits, CodeSyntax, ReasonEOF, 0, "ends where a value was expected"},
		{"  ", Limits, CodeSyntax, ReasonEOF, 2, "ends where a value was expected"},
		{"{} x", Limits, CodeSyntax, ReasonTrailing, 3, "has unexpected text after the JSON value"},
		{"\xef\xbb\xbf{}", Limits, CodeSyntax, ReasonBOM, 0, "starts with a byte order mark, which JSON text must not have"},
		{"{\"a\":\"\xff\"}", Limits, CodeInvalidUTF8, ReasonInvalidUTF8, 6, "is not valid UTF-8 (invalid byte at offset 6)"},
		{"[x]", Limits, CodeSyntax, ReasonUnexpected, 1, "has an unexpected character 'x' where a value was expected"},
		{"[tru]", Limits, CodeSyntax, ReasonLiteral, 1, "has an invalid literal (expected true)"},
		{"nul", Limits, CodeSyntax, ReasonLiteral, 0, "has an invalid literal (expected null)"},
		{"-", Limits, CodeSyntax, ReasonNumberDigits, 1, "has an invalid number"},
		{"1.", Limits, CodeSyntax, ReasonNumberFraction, 2, "has an invalid number"},
		{"1e+", Limits, CodeSyntax, ReasonNumberExponent, 3, "has an invalid number"},
		{"01", Limits, CodeSyntax, ReasonTrailing, 1, "has unexpected text after the JSON value"},
		{"\"a\tb\"", Limits, CodeSyntax, ReasonControl, 2, "has a control character inside a string (escape it)"},
		{"\"a\\\"", Limits, CodeSyntax, ReasonEOFString, 4, "ends inside a string"},
		{"\"ab", Limits, CodeSyntax, ReasonEOFString, 3, "ends inside a string"},
		{`"\u12g4"`, Limits, CodeSyntax, ReasonUnicodeEscape, 3, `has an invalid \u escape`},
		{`"\ud800\u12"`, Limits, CodeSyntax, ReasonUnicodeEscape, 9, `has an invalid \u escape`},
		{`"a\qb"`, Limits, CodeSyntax, ReasonEscape, 3, `has an invalid escape \q in a string`},
		{`{1:2}`, Limits, CodeSyntax, ReasonMemberName, 1, "has an object member without a quoted name"},
		{`{"a",1}`, Limits, CodeSyntax, ReasonColon, 4, "is missing ':' after an object member name"},
		{`{"a":1`, Limits, CodeSyntax, ReasonEOFObject, 6, "ends inside an object"},
		{`{"a":1]`, Limits, CodeSyntax, ReasonObjectSeparator, 6, "has an unexpected character ']' in an object (expected , or })"},
		{`{"a":1,}`, Limits, CodeSyntax, ReasonMemberName, 7, "has an object member without a quoted name"},
		{`[1`, Limits, CodeSyntax, ReasonEOFArray, 2, "ends inside an array"},
		{`[1}`, Limits, CodeSyntax, ReasonArraySeparator, 2, "has an unexpected character '}' in an array (expected , or ])"},
		{`[1,]`, Limits, CodeSyntax, ReasonUnexpected, 3, "has an unexpected character ']' where a value was expected"},
		// Depth: 32 nested arrays pass, the 33rd fails at its bracket.
		{strings.Repeat("[", 33) + strings.Repeat("]", 33), Limits, CodeTooDeep, ReasonTooDeep, 32, "nests deeper than 32 levels"},
		// Counting enclosing arrays: a scalar inside MaxDepth+1 arrays fails where it starts.
		{"[[[1]]]", Options{MaxDepth: 2, CountEnclosing: true}, CodeTooDeep, ReasonTooDeep, 3, "nests deeper than 2 levels"},
		// Lenient: a BOM and stray bytes are unexpected characters, not special cases.
		{"\xef\xbb\xbf{}", Options{Lenient: true}, CodeSyntax, ReasonUnexpected, 0, "has an unexpected character 'ï' where a value was expected"},
		{"[\xff]", Options{Lenient: true}, CodeSyntax, ReasonUnexpected, 1, "has an unexpected character 'ÿ' where a value was expected"},
	} {
		v, _, err := ParseString(tc.in, tc.opts)
		if err == nil {
			t.Errorf("%q: parsed (%v), want %s", tc.in, v.Kind, tc.code)
			continue
		}
		if v != nil || err.Code != tc.code || err.Reason != tc.reason || err.Off != tc.off || err.Msg != tc.msg || err.Error() != tc.msg {
			t.Errorf("%q: got %+v (value %v), want %s reason %d at %d: %s", tc.in, *err, v, tc.code, tc.reason, tc.off, tc.msg)
		}
	}
}

func TestDepthBoundaries(t *testing.T) {
	nest := func(n int, inner string) string { return strings.Repeat("[", n) + inner + strings.Repeat("]", n) }
	for _, tc := range []struct {
		in   string
		opts Options
		ok   bool
	}{
		{nest(32, "1"), Limits, true},
		{nest(32, ""), Limits, true},
		{nest(33, ""), Limits, false},
		{nest(33, ""), Options{}, true},
		// CountEnclosing with 2: a value may have two arrays around it, so a third, empty
		// array is fine but anything inside it is not.
		{nest(2, "1"), Options{MaxDepth: 2, CountEnclosing: true}, true},
		{nest(3, ""), Options{MaxDepth: 2, CountEnclosing: true}, true},
		{nest(3, "1"), Options{MaxDepth: 2, CountEnclosing: true}, false},
		{nest(4, ""), Options{MaxDepth: 2, CountEnclosing: true}, false},
	} {
		_, _, err := ParseString(tc.in, tc.opts)
		if (err == nil) != tc.ok {
			t.Errorf("%s with %+v: err %v, want ok=%v", tc.in, tc.opts, err, tc.ok)
		}
	}
}

func TestIssues(t *testing.T) {
	type is struct {
		Code, Pointer string
		Off           int
	}
	small := Options{MaxDepth: 8, MaxString: 3, MaxEntries: 2}
	for _, tc := range []struct {
		name string
		in   string
		opts Options
		want []is
		keys []string // kept member names of the root, when it is an object
	}{
		{"duplicate names, in the order found, pointing at the repeat",
			`{"a":1,"b":{"x":1,"x":2},"a":3}`, Limits,
			[]is{{CodeDuplicateKey, "/b/x", 18}, {CodeDuplicateKey, "/a", 25}}, []string{"a", "b", "a"}},
		{"duplicates allowed", `{"a":1,"a":2}`, Options{AllowDuplicates: true}, nil, []string{"a", "a"}},
		{"pointer escapes", `{"a/b~":{"c":1,"c":2}}`, Limits, []is{{CodeDuplicateKey, "/a~1b~0/c", 15}}, []string{"a/b~"}},
		{"long string value and long name", `{"abcd":"xyzw"}`, small,
			[]is{{CodeStringTooLong, "", 1}, {CodeStringTooLong, "/abcd", 8}}, []string{"abcd"}},
		{"long escaped string counts decoded bytes", `["a\u00e9b"]`, small, []is{{CodeStringTooLong, "/0", 1}}, nil},
		{"too many elements: extra ones dropped, their index stays", `[1,2,"long"]`, small,
			[]is{{CodeStringTooLong, "/2", 5}, {CodeTooManyEntries, "", 0}}, nil},
		{"too many members: a duplicate among the dropped still counts", `{"a":1,"b":2,"c":3,"a":4}`, small,
			[]is{{CodeTooManyEntries, "", 0}, {CodeDuplicateKey, "/a", 19}}, []string{"a", "b"}},
	} {
		v, issues, err := ParseString(tc.in, tc.opts)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var got []is
		for _, i := range issues {
			if i.Msg == "" {
				t.Errorf("%s: issue without a message", tc.name)
			}
			got = append(got, is{i.Code, i.Pointer, i.Off})
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: issues %+v, want %+v", tc.name, got, tc.want)
		}
		if v.Kind == Object {
			var keys []string
			for _, m := range v.Obj {
				keys = append(keys, m.Key)
			}
			if !reflect.DeepEqual(keys, tc.keys) {
				t.Errorf("%s: kept %q, want %q", tc.name, keys, tc.keys)
			}
		}
	}
	// The element limit keeps the first ones.
	v, _, _ := ParseString(`[1,2,3]`, small)
	if len(v.Arr) != 2 || v.Arr[1].Str != "2" {
		t.Errorf("kept %d elements", len(v.Arr))
	}
}

func TestTree(t *testing.T) {
	in := "{\n  \"name\": \"x\",\n  \"list\": [1.5e3, true, null, \"\\ud83d\\ude00\\ud800\"],\n  \"name\": \"y\"\n}"
	v, _, err := ParseString(in, Limits)
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != Object || len(v.Obj) != 3 {
		t.Fatalf("root %v with %d members", v.Kind, len(v.Obj))
	}
	if m := v.Get("name"); m.Val.Str != "y" || Line(in, m.KeyOff) != 4 {
		t.Errorf("Get(name) = %q on line %d, want the last occurrence, y, on line 4", m.Val.Str, Line(in, m.KeyOff))
	}
	if v.Get("missing") != nil || v.Obj[0].Val.Get("x") != nil {
		t.Error("Get found a member that is not there")
	}
	list := v.Get("list").Val
	if list.Arr[0].Kind != Number || list.Arr[0].Str != "1.5e3" || list.Arr[0].Float() != 1500 {
		t.Errorf("number %+v", *list.Arr[0])
	}
	if !list.Arr[1].Bool || list.Arr[2].Kind != Null || list.Arr[3].Str != "😀\uFFFD" {
		t.Errorf("elements %+v %+v %q", *list.Arr[1], *list.Arr[2], list.Arr[3].Str)
	}
	if off := v.Offset([]string{"list", "3"}); in[off] != '"' || Line(in, off) != 3 {
		t.Errorf("Offset(list/3) = %d", off)
	}
	if off := v.Offset([]string{"list", "9", "x"}); off != v.Get("list").KeyOff {
		t.Errorf("Offset past the end = %d, want the array's key at %d", off, v.Get("list").KeyOff)
	}
	if off := v.Offset([]string{"name"}); off != v.Get("name").KeyOff {
		t.Errorf("Offset(name) = %d, want the last key's offset", off)
	}
	got, _ := json.Marshal(v.Any())
	if string(got) != `{"list":[1.5e3,true,null,"😀�"],"name":"y"}` {
		t.Errorf("Any = %s", got)
	}
	for _, tc := range []struct {
		lit  string
		want float64
	}{{"1e400", math.Inf(1)}, {"-1e400", math.Inf(-1)}, {"1e-400", 0}, {"-0", math.Copysign(0, -1)}, {"0.1", 0.1}} {
		n, _, _ := ParseString(tc.lit, Options{})
		if f := n.Float(); f != tc.want || math.Signbit(f) != math.Signbit(tc.want) {
			t.Errorf("Float(%s) = %v, want %v", tc.lit, f, tc.want)
		}
	}
}

func TestLenientStrings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\"a\xffb\"", "a\uFFFDb"},
		{"\"\xe2\x82\"", "\uFFFD\uFFFD"}, // one U+FFFD per byte, as before the shared parser
		{"\"\xed\xa0\x80\"", "\uFFFD\uFFFD\uFFFD"},
		{"\"\\n\xff\"", "\n\uFFFD"},
		{"\"\uFFFD é\"", "\uFFFD é"},
	} {
		v, _, err := ParseString(tc.in, Options{Lenient: true})
		if err != nil || v.Str != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, v.Str, err, tc.want)
		}
		if _, _, err := ParseString(tc.in, Options{}); utf8.ValidString(tc.in) != (err == nil) {
			t.Errorf("%q strict: %v", tc.in, err)
		}
	}
}

func TestPointers(t *testing.T) {
	for _, toks := range [][]string{nil, {"a"}, {"a/b", "~c", "0"}, {""}, {"~1"}} {
		p := Pointer(toks...)
		if back := SplitPointer(p); !reflect.DeepEqual(back, toks) && !(len(back) == 0 && len(toks) == 0) {
			t.Errorf("%q → %q → %q", toks, p, back)
		}
	}
	if p := Pointer("a/b", "~c"); p != "/a~1b/~0c" {
		t.Errorf("Pointer = %q", p)
	}
	for _, tc := range []struct {
		text string
		off  int
		want int
	}{{"a\nb\nc", 0, 1}, {"a\nb\nc", 2, 2}, {"a\nb\nc", 5, 3}, {"a\nb", 4, 0}, {"a", -1, 0}} {
		if got := Line(tc.text, tc.off); got != tc.want {
			t.Errorf("Line(%q, %d) = %d, want %d", tc.text, tc.off, got, tc.want)
		}
		if got := Line([]byte(tc.text), tc.off); got != tc.want {
			t.Errorf("Line([]byte %q, %d) = %d, want %d", tc.text, tc.off, got, tc.want)
		}
	}
}

// FuzzParse: for UTF-8 text without a BOM, Parse accepts exactly what encoding/json
// accepts (up to the depth bound) and decodes the same value; Lenient parsing agrees
// with strict parsing on such text; offsets point where they say.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"$schema": "x", "name": "a", "extensions": {"dev.pi.agent": {"x": [1, 2.5e3, null, true]}}, "other": "\ud83d\ude00\ud800"}`,
		`[-0, 0.5, 1E+2, 1e-2, "\u00e9\n\"\\\/\b\f\r\t", {}, [], {"": ""}]`,
		`{"a": 1, "a": [2], "a/b": {"~": false}}`,
		"\xef\xbb\xbf{}", "{\"a\":\"\xff\"}", `"\ud800\udc00"`, `"\udc00\ud800"`, `[1,]`, `{"a":1,}`, `01`, `1.e3`, " \t\r\n7 ",
	} {
		f.Add([]byte(s))
	}
	unbounded := Options{MaxDepth: 10000}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, err := Parse(data, unbounded)
		if !utf8.Valid(data) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			if err == nil {
				t.Fatalf("accepted invalid UTF-8 or a BOM")
			}
			return
		}
		var std any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		stdErr := dec.Decode(&std)
		if stdErr == nil {
			// Decoder stops after one value; make sure only whitespace follows.
			if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
				stdErr = errors.New("trailing data")
			}
		}
		if (err == nil) != (stdErr == nil) {
			if err != nil && err.Code == CodeTooDeep {
				return
			}
			t.Fatalf("Parse err=%v, encoding/json err=%v for %q", err, stdErr, data)
		}
		if err != nil {
			if err.Off < 0 || err.Off > len(data) || err.Reason == 0 {
				t.Fatalf("error %+v out of range", *err)
			}
		} else {
			got, _ := json.Marshal(v.Any())
			want, _ := json.Marshal(std)
			if !bytes.Equal(got, want) {
				t.Fatalf("decoded %s, encoding/json %s", got, want)
			}
			checkOffsets(t, data, v)
		}
		lv, _, lerr := Parse(data, Options{MaxDepth: 10000, Lenient: true})
		if (err == nil) != (lerr == nil) || (err != nil && *err != *lerr) {
			t.Fatalf("lenient err %v, strict %v", lerr, err)
		}
		if err == nil {
			a, _ := json.Marshal(v.Any())
			b, _ := json.Marshal(lv.Any())
			if !bytes.Equal(a, b) {
				t.Fatalf("lenient %s, strict %s", b, a)
			}
		}
	})
}

func checkOffsets(t *testing.T, data []byte, v *Value) {
	first := map[Kind]string{Null: "n", Bool: "tf", Number: "-0123456789", String: `"`, Array: "[", Object: "{"}[v.Kind]
	if v.Off >= len(data) || !strings.ContainsRune(first, rune(data[v.Off])) {
		t.Fatalf("a %v at offset %d starts with %q", v.Kind, v.Off, data[v.Off:])
	}
	for _, e := range v.Arr {
		checkOffsets(t, data, e)
	}
	for _, m := range v.Obj {
		if data[m.KeyOff] != '"' || m.KeyOff >= m.Val.Off {
			t.Fatalf("member %q at %d, value at %d", m.Key, m.KeyOff, m.Val.Off)
		}
		checkOffsets(t, data, m.Val)
	}
}

// TestBadInputs: each file under testdata/bad is named <code>--<case>.json and must
// produce that code, as the error or as an issue, under the default Limits.
func TestBadInputs(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad inputs: %v", err)
	}
	for _, f := range files {
		want, _, _ := strings.Cut(filepath.Base(f), "--")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, issues, perr := Parse(data, Limits)
		var got []string
		if perr != nil {
			got = append(got, perr.Code)
		}
		for _, is := range issues {
			got = append(got, is.Code)
		}
		if !slices.Contains(got, want) {
			t.Errorf("%s: codes %q, want %s", f, got, want)
		}
	}
}

func TestOversizedArrayReportedOnce(t *testing.T) {
	doc := "[" + strings.TrimSuffix(strings.Repeat("1,", 2000), ",") + "]"
	v, issues, err := ParseString(doc, Options{MaxEntries: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Arr) != 10 {
		t.Fatalf("kept %d elements, want 10", len(v.Arr))
	}
	n := 0
	for _, is := range issues {
		if is.Code == CodeTooManyEntries {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d too-many-entries issues for one array, want 1", n)
	}
}

// TestFirsts: each name once, where it first stands (its offset), in document order;
// nothing for what is not an object.
func TestFirsts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // key@offset of each member given
	}{
		{`{}`, ""},
		{`[1,2]`, ""},
		{`"x"`, ""},
		{`{"a":1,"b":2}`, "a@1 b@7"},
		{`{"a":1,"b":2,"a":3}`, "a@1 b@7"},
		{`{"b":1,"a":2,"b":3,"a":4,"c":5}`, "b@1 a@7 c@25"},
	} {
		v, _, err := ParseString(tc.in, Options{AllowDuplicates: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		var got []string
		for _, m := range v.Firsts() {
			got = append(got, m.Key+"@"+strconv.Itoa(m.KeyOff))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Firsts(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if (*Value)(nil).Firsts() != nil {
		t.Error("a nil value has members")
	}
}

package jsontext

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// Member names are told apart as JavaScript tells them apart: by their UTF-16 code
// units. A lone surrogate is shown as U+FFFD in Key, but two different lone surrogates
// are two names, and neither is the name "\ufffd".
func TestDuplicateNamesWithLoneSurrogates(t *testing.T) {
	tests := []struct {
		doc     string
		lenient bool
		dups    int
	}{
		{`{"\ud800": 1, "\ud801": 2}`, false, 0},
		{`{"\ud800": 1, "\ud800": 2}`, false, 1},
		{`{"\ud800": 1, "\ufffd": 2}`, false, 0},
		{`{"\ud800": 1, "` + "\ufffd" + `": 2}`, false, 0},
		{`{"\ufffd": 1, "` + "\ufffd" + `": 2}`, false, 1},
		{`{"\udc00\ud800": 1, "\ud800\udc00": 2}`, false, 0},
		{`{"\ud83d\ude00": 1, "😀": 2}`, false, 1},
		{`{"a\ud800b": 1, "a\ud800b": 2, "a\udbffb": 3}`, false, 1},
		{`{"\ud800\ud800": 1, "\ud800": 2}`, false, 0},
		{`{"\ud800\"": 1, "\ud800\u0022": 2, "\ud800\\": 3}`, false, 1},
		// Lenient: a byte that is not UTF-8 becomes U+FFFD, as TextDecoder makes it.
		{"{\"\xff\": 1, \"\\ufffd\": 2}", true, 1},
		{"{\"\xff\": 1, \"\\ud800\": 2}", true, 0},
		{"{\"\xff\\ud800\": 1, \"\\ufffd\\ud800\": 2, \"\\ufffd\\udbff\": 3}", true, 1},
	}
	for _, tt := range tests {
		v, issues, err := ParseString(tt.doc, Options{Lenient: tt.lenient})
		if err != nil {
			t.Fatalf("%s: %v", tt.doc, err)
		}
		dups := 0
		for _, is := range issues {
			if is.Code == CodeDuplicateKey {
				dups++
			}
		}
		if dups != tt.dups {
			t.Errorf("%s: %d duplicate names reported, want %d (%v)", tt.doc, dups, tt.dups, issues)
		}
		for _, m := range v.Obj {
			if !utf8.ValidString(m.Key) {
				t.Errorf("%s: Key %q is not UTF-8", tt.doc, m.Key)
			}
		}
	}
	// The same in an object large enough for the set-based check.
	doc := "{"
	for i := 0; i < 40; i++ {
		if i > 0 {
			doc += ","
		}
		doc += `"\ud8` + strconv.FormatInt(int64(0x10+i), 16) + `": 0`
	}
	doc += `, "\ud810": 1}`
	_, issues, _ := ParseString(doc, Options{})
	if len(issues) != 1 || issues[0].Code != CodeDuplicateKey || issues[0].Msg != "the member \"\ufffd\" appears more than once in the same object" {
		t.Errorf("40 lone surrogates and one repeat: %+v", issues)
	}
	v, _, _ := ParseString(`{"\ud800": 1, "\ud801": 2}`, Options{})
	if v.Obj[0].Key != "\ufffd" || v.Obj[0].Ident() == v.Obj[1].Ident() || v.Obj[0].Ident() == "\ufffd" {
		t.Errorf("keys %q %q, idents %q %q", v.Obj[0].Key, v.Obj[1].Key, v.Obj[0].Ident(), v.Obj[1].Ident())
	}
}

// jsUnits decodes the body of a JSON string literal to UTF-16 code units, as JSON.parse
// holds them: an oracle for name equality written independently of the parser.
func jsUnits(lit string) []uint16 {
	var out []uint16
	for i := 0; i < len(lit); {
		if lit[i] != '\\' {
			r, n := utf8.DecodeRuneInString(lit[i:])
			out = utf16.AppendRune(out, r)
			i += n
			continue
		}
		e := lit[i+1]
		if e == 'u' {
			v, _ := strconv.ParseUint(lit[i+2:i+6], 16, 16)
			out = append(out, uint16(v))
			i += 6
			continue
		}
		// \b \f \n \r \t stand for their control characters; any other escaped
		// character (", \, /) for itself.
		if j := strings.IndexByte("bfnrt", e); j >= 0 {
			e = "\b\f\n\r\t"[j]
		}
		out = append(out, uint16(e))
		i += 2
	}
	return out
}

func FuzzDuplicateNames(f *testing.F) {
	for _, s := range [][2]string{{`\ud800`, `\ud801`}, {`\ud800`, `\ud800`}, {`\ud83d\ude00`, "😀"}, {`\ud800`, "\ufffd"}, {`a\"`, `a\u0022`}, {`\udc00\ud800`, `\ud800\udc00`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		doc := `{"` + a + `": 1, "` + b + `": 2}`
		v, issues, err := ParseString(doc, Options{})
		if err != nil || len(v.Obj) != 2 {
			return // not two names (a quote or bad escape inside), or not JSON
		}
		lit := func(m Member) string { // the literal body, found from the key's offset
			i := m.KeyOff + 1
			for doc[i] != '"' {
				if doc[i] == '\\' {
					i++
				}
				i++
			}
			return doc[m.KeyOff+1 : i]
		}
		ua, ub := jsUnits(lit(v.Obj[0])), jsUnits(lit(v.Obj[1]))
		same := len(ua) == len(ub)
		for i := 0; same && i < len(ua); i++ {
			same = ua[i] == ub[i]
		}
		reported := len(issues) == 1 && issues[0].Code == CodeDuplicateKey
		if same != reported {
			t.Fatalf("%s: JavaScript says same name %v, parser reported %v", doc, same, reported)
		}
	})
}

func TestLiteral(t *testing.T) {
	doc := `{"a\"\\\ud800": 1, "b": "x"}`
	for _, tt := range []struct {
		off  int
		want string
	}{{1, `"a\"\\\ud800"`}, {0, ""}, {-1, ""}, {len(doc), ""}, {19, `"b"`}} {
		if got := Literal(doc, tt.off); got != tt.want {
			t.Errorf("Literal(%d) = %q, want %q", tt.off, got, tt.want)
		}
	}
	if got := Literal([]byte(`"open`), 0); got != "" {
		t.Errorf("unterminated: %q", got)
	}
}

package model

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonicalStringOracle is writeCanonicalString as it was written rune by rune, before
// runs were copied whole: the oracle that the faster one writes the same bytes.
func canonicalStringOracle(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
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
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestCanonicalStringRuns(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r\x00\x1f\x7f", "caf\u00e9 \U0001F600 \ufffd", "bad\xff\xfe utf8 \xe2\x82", "\xed\xa0\x80 surrogate", "end\\"} {
		var b strings.Builder
		writeCanonicalString(&b, s)
		if want := canonicalStringOracle(s); b.String() != want {
			t.Errorf("%q: %q, want %q", s, b.String(), want)
		}
	}
}

func FuzzCanonicalString(f *testing.F) {
	f.Add("a\"b\\c\x01\xff\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		writeCanonicalString(&b, s)
		if want := canonicalStringOracle(s); b.String() != want {
			t.Fatalf("%q: %q, want %q", s, b.String(), want)
		}
		if !utf8.ValidString(b.String()) {
			t.Fatalf("%q: invalid UTF-8 out", s)
		}
	})
}

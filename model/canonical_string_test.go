package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// canonicalStringOracle is writeCanonicalString as it was written rune by rune, before
// runs were copied whole: the oracle that the faster one writes the same bytes. Both
// escape a rune through writeEscapedRune; TestEscapedRune holds that to the JSON rules.
func canonicalStringOracle(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		writeEscapedRune(&b, r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestEscapedRune(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want string
	}{
		{'"', `\"`}, {'\\', `\\`}, {'\b', `\b`}, {'\f', `\f`}, {'\n', `\n`}, {'\r', `\r`}, {'\t', `\t`},
		{0x00, `\u0000`}, {0x1f, `\u001f`}, {0x7f, "\x7f"}, {'/', "/"}, {'a', "a"},
		{0x2028, "\u2028"}, {0x1F600, "\U0001F600"}, {utf8.RuneError, "\ufffd"},
	} {
		var b strings.Builder
		writeEscapedRune(&b, c.r)
		if b.String() != c.want {
			t.Errorf("%U: %q, want %q", c.r, b.String(), c.want)
		}
	}
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

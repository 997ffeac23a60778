package skills

import (
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark/util"
)

func TestHiddenCharRefs(t *testing.T) {
	cases := []struct {
		in   string
		want []string // Describe of each reference found
	}{
		{"a&#13;b", []string{"&#13; → U+000D CONTROL CHARACTER"}},
		{"&#x202E;", []string{"&#x202E; → U+202E RIGHT-TO-LEFT OVERRIDE"}},
		{"&#X202e;", []string{"&#X202e; → U+202E RIGHT-TO-LEFT OVERRIDE"}},
		{"&#8203;", []string{"&#8203; → U+200B ZERO WIDTH SPACE"}},
		{"&#xE0041;", []string{"&#xE0041; → U+E0041 TAG LATIN CAPITAL LETTER A"}},
		{"&ZeroWidthSpace;&rlm;", []string{"&ZeroWidthSpace; → U+200B ZERO WIDTH SPACE", "&rlm; → U+200F RIGHT-TO-LEFT MARK"}},
		{"x&#x202E y", []string{"&#x202E → U+202E RIGHT-TO-LEFT OVERRIDE"}},     // no ';': html.UnescapeString decodes it
		{"&shy-", []string{"&shy → U+00AD SOFT HYPHEN"}},                        // legacy name without ';'
		{"&shyness;", []string{"&shyness; → U+00AD SOFT HYPHEN"}},               // the legacy prefix inside a longer name
		{"&#4294967309;", []string{"&#4294967309; → U+000D CONTROL CHARACTER"}}, // wraps round in html.UnescapeString
		{"&#155;", []string{"&#155; → U+009B C1 CONTROL CHARACTER"}},            // goldmark's reading (the standard one is U+203A)
		{"&#0000027;[8m", []string{"&#0000027; → U+001B CONTROL CHARACTER"}},    // leading zeros
		{"&#x202Eb;", nil},      // U+202EB, a CJK ideograph
		{"&NewLine;&Tab;", nil}, // LF and TAB are shown as line breaks and tabs
		{"&amp;#x202E; &lt; &#65; &#; &#x; & x &unknown; &", nil}, // decoded once, harmless, or no reference
		{"&amp;&#13;", []string{"&#13; → U+000D CONTROL CHARACTER"}},
		{"&" + strings.Repeat("a", 200) + ";&#13;", []string{"&#13; → U+000D CONTROL CHARACTER"}},
	}
	for _, c := range cases {
		var got []string
		for _, r := range HiddenCharRefs(c.in) {
			got = append(got, r.Describe(c.in))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// The scan reports references with their lines, in the order of the file, also past the
// shortcut that skips the parse when nothing can be an HTML construct.
func TestScanHiddenCharacterReferences(t *testing.T) {
	md := "# t\n\nplain &#x202E; text\n\n`code &#13;`\n\n<!-- c --> &zwj;\n"
	got := ScanHidden(md, 10)
	var refs []string
	for _, h := range got {
		if h.Kind == HiddenCharacterReference {
			refs = append(refs, h.Text+"@"+strconv.Itoa(h.Line))
		}
	}
	want := []string{"&#x202E; → U+202E RIGHT-TO-LEFT OVERRIDE@12", "&#13; → U+000D CONTROL CHARACTER@14", "&zwj; → U+200D ZERO WIDTH JOINER@16"}
	if strings.Join(refs, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", refs, want)
	}
	if h := ScanHidden("no html here &#8203;", 1); len(h) != 1 || h[0].Kind != HiddenCharacterReference {
		t.Fatalf("fast path: %+v", h)
	}
}

// A run of a million letters or digits after "&" is one span, read once.
func TestHiddenCharRefsLongRuns(t *testing.T) {
	for _, s := range []string{"&" + strings.Repeat("a", 1<<20), "&#" + strings.Repeat("9", 1<<20) + ";", strings.Repeat("&", 1<<20), strings.Repeat("&#1", 1<<18)} {
		if refs := HiddenCharRefs(s); len(refs) > 1<<18 {
			t.Fatalf("%d references in a run", len(refs))
		}
	}
	if refs := HiddenCharRefs(strings.Repeat("&#13;", 1000)); len(refs) != 1000 {
		t.Fatalf("found %d of 1000", len(refs))
	}
}

// hiddenCount counts the runes a terminal would act on or hide.
func hiddenCount(s string) int {
	n := 0
	for _, r := range s {
		if IsInvisible(r) {
			n++
		}
	}
	return n
}

// FuzzHiddenCharRefs checks the property the console relies on: once every reported
// reference is replaced, neither glamour's decoder (html.UnescapeString) nor goldmark's
// can make a hidden code point out of what is left.
func FuzzHiddenCharRefs(f *testing.F) {
	for _, s := range []string{"a&#13;b", "&#x202E", "&shy", "&#4294967309;", "&#155;", "&amp;#13;", "&ZeroWidthSpace;", "&&#x1b;[8m", "&#x&#13;", "&a&#13;;", "&#38;ZeroWidthSpace;", "&#38;#13;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		refs := HiddenCharRefs(s)
		var b strings.Builder
		last := 0
		for _, r := range refs {
			if r.Start < last || r.End <= r.Start || r.End > len(s) || s[r.Start] != '&' || len(r.Hidden) == 0 {
				t.Fatalf("bad reference %+v in %q", r, s)
			}
			b.WriteString(s[last:r.Start])
			b.WriteString("·")
			last = r.End
		}
		b.WriteString(s[last:])
		rest := b.String()
		raw := hiddenCount(rest)
		if n := hiddenCount(html.UnescapeString(rest)); n > raw {
			t.Fatalf("html.UnescapeString still decodes %d hidden characters from %q (rest %q)", n-raw, s, rest)
		}
		// Each of goldmark's resolvers on its own: their chain (numeric, then names, which
		// decodes "&#38;ZeroWidthSpace;" twice) only runs in goldmark's HTML renderer for
		// link URLs, which glamour does not use; glamour prints URLs undecoded.
		for name, dec := range map[string]func([]byte) []byte{"numeric": util.ResolveNumericReferences, "names": util.ResolveEntityNames} {
			if n := hiddenCount(string(dec([]byte(rest)))); n > raw {
				t.Fatalf("goldmark's %s resolver still decodes %d hidden characters from %q (rest %q)", name, n-raw, s, rest)
			}
		}
	})
}

// BenchmarkHiddenCharRefs: a 256 KiB SKILL.md (the render limit) dense with references,
// half of them hidden, and one with none.
func BenchmarkHiddenCharRefs(b *testing.B) {
	dense := strings.Repeat("Text &amp; &#x202E; more &lt;b&gt; &ZeroWidthSpace; words.\n", 256<<10/60)
	plain := strings.Repeat("Plain prose with no references at all, line after line.\n", 256<<10/57)
	for name, s := range map[string]string{"dense": dense, "plain": plain} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				HiddenCharRefs(s)
			}
		})
	}
}

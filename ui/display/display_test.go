package display

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		hidden int
	}{
		{"plain", "hello, world", "hello, world", 0},
		{"newline and tab kept", "a\n\tb", "a\n\tb", 0},
		{"unicode kept", "héllo 世界 🙂", "héllo 世界 🙂", 0},
		{"replacement char kept", "a\uFFFDb", "a\uFFFDb", 0},
		{"CSI clear", "a\x1b[2Jb", "a␛[2Jb", 1},
		{"SGR", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m", 2},
		{"CSI private", "\x1b[?1049h", "␛[?1049h", 1},
		{"CSI cut short", "\x1b[12", "␛[12", 1},
		{"CSI bad final", "\x1b[1\x01x", "␛[1␁x", 2},
		{"OSC title BEL", "\x1b]0;pwned\x07after", "␛]0;pwned␇after", 1},
		{"OSC 8 link ST", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", `␛]8;;https://evil.example␛\click␛]8;;␛\`, 2},
		{"OSC 52 clipboard", "\x1b]52;c;Y3VybCBldmls\x07", "␛]52;c;Y3VybCBldmls␇", 1},
		{"OSC unterminated", "\x1b]0;title", "␛]0;title", 1},
		{"OSC with controls inside", "\x1b]0;a\rb\x07", "␛]0;a␍b␇", 1},
		{"OSC aborted by ESC", "\x1b]0;x\x1b[2J", "␛]0;x␛[2J", 2},
		{"DCS", "\x1bP+q544e\x1b\\", `␛P+q544e␛\`, 1},
		{"APC", "\x1b_Gf=100;AAAA\x1b\\", `␛_Gf=100;AAAA␛\`, 1},
		{"PM", "\x1b^secret\x1b\\", `␛^secret␛\`, 1},
		{"SOS", "\x1bXsecret\x1b\\", `␛Xsecret␛\`, 1},
		{"8-bit CSI", "a\u009b2Jb", "a⟨CSI⟩2Jb", 1},
		{"8-bit OSC", "\u009d0;t\u009c", "⟨OSC⟩0;t⟨ST⟩", 1},
		{"8-bit DCS", "\u0090x\u009c", "⟨DCS⟩x⟨ST⟩", 1},
		{"8-bit APC", "\u009fx\u009c", "⟨APC⟩x⟨ST⟩", 1},
		{"C1 NEL", "a\u0085b", "a⟨U+0085 NEL⟩b", 1},
		{"two-byte ESC", "\x1bc", "␛c", 1},
		{"nF ESC", "\x1b(B", "␛(B", 1},
		{"ESC at end", "x\x1b", "x␛", 1},
		{"ESC then non-ascii", "\x1bé", "␛é", 1},
		{"carriage return", "safe\rEVIL", "safe␍EVIL", 1},
		{"CRLF", "a\r\nb", "a␍\nb", 1},
		{"NUL BEL BS", "\x00\x07\x08", "␀␇␈", 3},
		{"DEL", "a\x7fb", "a␡b", 1},
		{"invalid utf8", "a\xffb\xc3", "a⟨0xFF⟩b⟨0xC3⟩", 2},
		{"RLO", "abc\u202Edef", "abc⟨U+202E RLO⟩def", 1},
		{"all bidi", "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069", "⟨U+202A LRE⟩⟨U+202B RLE⟩⟨U+202C PDF⟩⟨U+202D LRO⟩⟨U+202E RLO⟩⟨U+2066 LRI⟩⟨U+2067 RLI⟩⟨U+2068 FSI⟩⟨U+2069 PDI⟩", 9},
		{"LRM RLM ALM", "\u200e\u200f\u061c", "⟨U+200E LRM⟩⟨U+200F RLM⟩⟨U+061C ALM⟩", 3},
		{"zero width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", "a⟨U+200B ZWSP⟩b⟨U+200C ZWNJ⟩c⟨U+200D ZWJ⟩d⟨U+2060 WJ⟩e⟨U+FEFF BOM⟩f", 5},
		{"soft hyphen", "in\u00advisible", "in⟨U+00AD SHY⟩visible", 1},
		{"variation selectors", "x\ufe0fy\U000E0100", "x⟨U+FE0F⟩y⟨U+E0100⟩", 2},
		{"hangul filler", "\u3164\u115f", "⟨U+3164 HF⟩⟨U+115F HCF⟩", 2},
		{"line and paragraph separators", "a\u2028b\u2029c", "a⟨U+2028 LSEP⟩b⟨U+2029 PSEP⟩c", 2},
		{"tag characters", "ok\U000E0069\U000E0067\U000E007F", "ok⟨TAG i⟩⟨TAG g⟩⟨U+E007F⟩", 3},
		{"combining grapheme joiner", "a\u034fb", "a⟨U+034F CGJ⟩b", 1},
		{"token-looking text is left alone", "␛[2J ⟨U+202E⟩", "␛[2J ⟨U+202E⟩", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Escape(tt.in)
			if got != tt.want || n != tt.hidden {
				t.Errorf("Escape(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.hidden)
			}
			assertSafe(t, got, false)
		})
	}
}

func TestEscapeLine(t *testing.T) {
	tests := []struct {
		in, want string
		hidden   int
	}{
		{"plain", "plain", 0},
		{"two\nlines", "two␤lines", 0},
		{"a\tb", "a␉b", 0},
		{"\x1b]0;x\ny\x07", "␛]0;x␊y␇", 1},
		{"evil\u202e\r", "evil⟨U+202E RLO⟩␍", 2},
	}
	for _, tt := range tests {
		got, n := EscapeLine(tt.in)
		if got != tt.want || n != tt.hidden {
			t.Errorf("EscapeLine(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.hidden)
		}
		assertSafe(t, got, true)
	}
}

// TestEveryHiddenRune walks the whole code space: each rune IsHidden reports must be
// replaced, and each it does not must survive unchanged.
func TestEveryHiddenRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		s := string(r)
		got, n := Escape(s)
		if r == 0x1b || r == 0x9b || r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f {
			if n != 1 {
				t.Errorf("U+%04X: count %d, want 1", r, n)
			}
			continue
		}
		if IsHidden(r) {
			if n != 1 || got == s {
				t.Errorf("U+%04X: Escape = %q, %d; want a token", r, got, n)
			}
		} else if got != s || n != 0 {
			t.Errorf("U+%04X: Escape = %q, %d; want unchanged", r, got, n)
		}
		if t.Failed() {
			return
		}
	}
}

func TestIsHiddenCovers(t *testing.T) {
	for _, r := range []rune{0x00, 0x0d, 0x1b, 0x7f, 0x80, 0x9b, 0x9f, 0x200b, 0x200d, 0x202e, 0x2066, 0x2069, 0x2028, 0x2029, 0xfe00, 0xfe0f, 0xe0001, 0xe0041, 0xe007f, 0x3164, 0xfeff, 0x180e} {
		if !IsHidden(r) {
			t.Errorf("IsHidden(U+%04X) = false", r)
		}
	}
	for _, r := range []rune{'a', '\n', '\t', ' ', 0xa0, 0xe9, 0x4e16, 0x1f642, 0xfffd} {
		if IsHidden(r) {
			t.Errorf("IsHidden(U+%04X) = true", r)
		}
	}
}

func assertSafe(t *testing.T, out string, line bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not valid UTF-8: %q", out)
	}
	for _, r := range out {
		if IsHidden(r) || (line && (r == '\n' || r == '\t')) {
			t.Fatalf("output %q holds raw U+%04X", out, r)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "\x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\", "\x1b]52;c;AAAA\x07", "\u009b31m", "\x1bP", "\x1b", "a\rb", "\u202e", "\U000E0041", "\xff\xfe", "\x1b]0;\u009c", strings.Repeat("\x1b[", 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n := Escape(s)
		assertSafe(t, out, false)
		if n < 0 || (n == 0 && out != s) {
			t.Fatalf("count %d for %q -> %q", n, s, out)
		}
		line, ln := EscapeLine(s)
		assertSafe(t, line, true)
		if ln != n {
			t.Fatalf("EscapeLine count %d, Escape count %d for %q", ln, n, s)
		}
		// Escaping is idempotent on its own output: tokens are printable text.
		if again, m := Escape(out); again != out || m != 0 {
			t.Fatalf("Escape not stable on %q: %q, %d", out, again, m)
		}
	})
}

func TestEscapeStyled(t *testing.T) {
	mark := func(s string) string { return "<" + s + ">" }
	got, n := EscapeStyled("a\x1b[2Jb\u202ec\rd", mark)
	if want := "a<␛[2J>b<⟨U+202E RLO⟩>c<␍>d"; got != want || n != 3 {
		t.Fatalf("EscapeStyled = %q, %d; want %q, 3", got, n, want)
	}
	got, n = EscapeLineStyled("x\ny\x1b]0;t\x07", mark)
	if want := "x<␤>y<␛]0;t␇>"; got != want || n != 1 {
		t.Fatalf("EscapeLineStyled = %q, %d; want %q, 1", got, n, want)
	}
	if got, _ := EscapeStyled("plain", mark); got != "plain" {
		t.Fatalf("plain text was styled: %q", got)
	}
}

package textclip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	const (
		eAcute = "e\u0301"                                    // e + combining acute: one character, two runes
		family = "\U0001F468\u200D\U0001F469\u200D\U0001F467" // man ZWJ woman ZWJ girl: one character, five runes
		flag   = "\U0001F1EB\U0001F1F7"                       // regional indicators F R: one character, two runes
	)
	cases := []struct {
		name string
		s    string
		max  int
		mark string
		want string
	}{
		{"short ASCII is kept", "hello", 5, "…", "hello"},
		{"ASCII over the limit", "hello world", 8, "...", "hello..."},
		{"ellipsis counts as one character", "hello world", 6, "…", "hello…"},
		{"no mark", "abcdef", 3, "", "abc"},
		{"two-byte letters are not split", "ééééé", 4, "…", "ééé…"},
		{"more bytes than max but few characters is kept", "日本語", 3, "…", "日本語"},
		{"wide characters are kept whole", "日本語テキスト", 4, "…", "日本語…"},
		{"a combining mark stays with its letter", strings.Repeat(eAcute, 4), 3, "…", eAcute + eAcute + "…"},
		{"an emoji ZWJ sequence is one character", family + family + family, 2, "…", family + "…"},
		{"a flag is not split into its two letters", flag + flag + flag, 2, "…", flag + "…"},
		{"four-byte characters", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", 3, "…", "𝔘𝔫…"},
		{"mark longer than max", "abcdef", 2, "...", "..."},
		{"max zero", "abc", 0, "", ""},
		{"empty", "", 0, "…", ""},
		{"invalid UTF-8 counts per byte", "ab\xff\xfecd", 4, "…", "ab\xff…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Clip(tc.s, tc.max, tc.mark)
			if got != tc.want {
				t.Errorf("Clip(%q, %d, %q) = %q, want %q", tc.s, tc.max, tc.mark, got, tc.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	cases := []struct {
		s        string
		n        int
		wantHead string
		wantMore int
	}{
		{"hello", 10, "hello", 0},
		{"hello", 5, "hello", 0},
		{"hello", 2, "he", 3},
		{"日本語テキスト", 3, "日本語", 4},
		{"e\u0301e\u0301e\u0301", 1, "e\u0301", 2},
		{"", 0, "", 0},
	}
	for _, tc := range cases {
		head, more := Cut(tc.s, tc.n)
		if head != tc.wantHead || more != tc.wantMore {
			t.Errorf("Cut(%q, %d) = %q, %d; want %q, %d", tc.s, tc.n, head, more, tc.wantHead, tc.wantMore)
		}
	}
}

// FuzzClip holds Clip and Cut to their promises on any input: the result is a prefix of
// s (plus the mark), within the limit, and never splits a UTF-8 sequence that s had whole.
func FuzzClip(f *testing.F) {
	for _, s := range []string{"", "hello world", "ééééé", "日本語テキスト", "e\u0301e\u0301", "\U0001F468\u200D\U0001F469", "ab\xff\xfecd"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<12 {
			return
		}
		got := Clip(s, max, "…")
		if got == s {
			if Count(s) > max {
				t.Fatalf("Clip kept %q whole, which has %d characters, over %d", s, Count(s), max)
			}
			return
		}
		if Count(got) > max && got != "…" {
			t.Fatalf("Clip(%q, %d) = %q has %d characters", s, max, got, Count(got))
		}
		head := strings.TrimSuffix(got, "…")
		if !strings.HasPrefix(s, head) {
			t.Fatalf("Clip(%q, %d) = %q is not a prefix of s", s, max, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(head) {
			t.Fatalf("Clip(%q, %d) = %q cuts inside a UTF-8 sequence", s, max, got)
		}
		h, more := Cut(s, max)
		if !strings.HasPrefix(s, h) || Count(h)+more != Count(s) && more != 0 {
			t.Fatalf("Cut(%q, %d) = %q, %d does not add up to %d characters", s, max, h, more, Count(s))
		}
	})
}

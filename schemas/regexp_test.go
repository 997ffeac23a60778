package schemas

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The classes as JavaScript (node v20) has them under the "u" flag, code point ranges in
// hex, printed by testing /^\s$/u, /^\d$/u, /^\w$/u, /^.$/u and /^\S$/u on every code
// point outside the surrogates (which a Go string cannot hold).
var jsClasses = map[string]string{
	`\s`: "9-d 20 a0 1680 2000-200a 2028-2029 202f 205f 3000 feff",
	`\d`: "30-39",
	`\w`: "30-39 41-5a 5f 61-7a",
	`.`:  "0-9 b-c e-2027 202a-d7ff e000-10ffff",
	`\S`: "0-8 e-1f 21-9f a1-167f 1681-1fff 200b-2027 202a-202e 2030-205e 2060-2fff 3001-d7ff e000-fefe ff00-10ffff",
}

func inRanges(t *testing.T, ranges string, r rune) bool {
	for _, part := range strings.Fields(ranges) {
		lo, hi, found := strings.Cut(part, "-")
		if !found {
			hi = lo
		}
		a, err1 := strconv.ParseInt(lo, 16, 32)
		b, err2 := strconv.ParseInt(hi, 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad range %q", part)
		}
		if rune(a) <= r && r <= rune(b) {
			return true
		}
	}
	return false
}

// Every class matches exactly what JavaScript matches: each code point of the Basic
// Multilingual Plane, and every 61st one beyond it plus the plane edges.
func TestECMARegexpClassesMatchJavaScript(t *testing.T) {
	for class, ranges := range jsClasses {
		re, err := ECMARegexp("^" + class + "$")
		if err != nil {
			t.Fatal(err)
		}
		mismatches := 0
		check := func(r rune) {
			if !utf8.ValidRune(r) {
				return
			}
			if got, want := re.MatchString(string(r)), inRanges(t, ranges, r); got != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("%s on U+%04X: %v, JavaScript %v", class, r, got, want)
				}
			}
		}
		for r := rune(0); r <= 0xFFFF; r++ {
			check(r)
		}
		for r := rune(0x10000); r <= utf8.MaxRune; r += 61 {
			check(r)
		}
		for _, r := range []rune{0x10000, 0x1FFFF, 0x20000, 0xE0001, utf8.MaxRune} {
			check(r)
		}
		if mismatches > 0 {
			t.Errorf("%s: %d code points differ from JavaScript", class, mismatches)
		}
	}
}

// Patterns as the embedded schemas use them, with verdicts JavaScript gives.
func TestECMARegexpPatterns(t *testing.T) {
	tests := []struct {
		pattern, value string
		match          bool
	}{
		{`\S`, "\u00a0\u3000", false}, // Dalo's description: blank to JavaScript
		{`\S`, "\u200b", true},
		{`\S`, " x ", true},
		// Agent Plugins' name: a lookahead, which RE2 cannot express.
		{`^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, "good-name.v2", true},
		{`^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, "bad--name", false},
		{`^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, "a\u2028--b", false},
		// Not anchored unless the pattern says so.
		{`^skill:`, "xskill:", false},
		{`skill:`, "xskill:", true},
		// $ is the end of the input only (no multiline), as in JavaScript.
		{`^a$`, "a\n", false},
		// Unicode semantics: one "." is one code point, astral ones included.
		{`^.$`, "😀", true},
		{`^\u{1F600}$`, "😀", true},
		// At the loaders' 16 KiB string bound every pattern still decides (a match past
		// regexp2's backtracking stack would read as "does not match").
		{`^[a-z0-9]+(?:-[a-z0-9]+)*$`, strings.Repeat("a-", 8191) + "a", true},
		{`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`, strings.Repeat("a", 16<<10), true},
		{`^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$`, strings.Repeat("a.", 8191) + "a", true},
		{`\S`, strings.Repeat(" ", 16<<10) + "x", true},
		{`^[A-Za-z0-9.+=<> -]+$`, strings.Repeat("a ", 8192), true},
	}
	for _, tt := range tests {
		re, err := ECMARegexp(tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		if got := re.MatchString(tt.value); got != tt.match {
			t.Errorf("/%s/u on %.40q (%d bytes): %v, want %v", tt.pattern, tt.value, len(tt.value), got, tt.match)
		}
		if re.String() != tt.pattern {
			t.Errorf("String() = %q, want %q", re.String(), tt.pattern)
		}
	}
	if _, err := ECMARegexp(`(`); err == nil {
		t.Error("an invalid pattern compiled")
	}
}

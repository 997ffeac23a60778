package claudecode

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The patterns the linear scan replaces: it must find exactly what they find.
var (
	refInline = regexp.MustCompile("!`([^`\n]+)`")
	refFence  = regexp.MustCompile("(?m)^\\s*```!")
)

func refInjections(body string) []string {
	var out []string
	for _, m := range refInline.FindAllStringSubmatch(body, 32) {
		out = append(out, m[1])
	}
	for _, loc := range refFence.FindAllStringIndex(body, 32) {
		rest := body[loc[1]:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if end := strings.Index(rest, "```"); end >= 0 {
			rest = rest[:end]
		}
		out = append(out, strings.TrimSpace(rest))
	}
	return out
}

var injectionSeeds = []string{
	"Branch: !`git branch --show-current` and !`date`\n",
	"!``empty then !`ok`", "!`a\nb` !`c`", "!`!`x``", "!`unterminated",
	"```!\nls -la\n```\n", "  \t```!\nmake\n```", "text ```! not at line start\n```",
	"\n\n   \n```!\necho 1\n```\n```!\necho 2\n```", "```!```!", "x\r\n ```!\nrm\n```",
	"\f```!\nq\n```", strings.Repeat(" ", 5000) + "```!\nz\n```", strings.Repeat("!`a` ", 40),
	strings.Repeat("```!\n", 40),
}

func TestShellInjectionsMatchPatterns(t *testing.T) {
	for _, s := range injectionSeeds {
		if got, want := shellInjections(s), refInjections(s); !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	}
}

func FuzzShellInjections(f *testing.F) {
	for _, s := range injectionSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := shellInjections(s), refInjections(s); !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	})
}

// BenchmarkShellInjections: the scan of a long body with deep indentation, the shape that
// made the leading ^\s* pattern retry at every offset.
func BenchmarkShellInjections(b *testing.B) {
	body := strings.Repeat("    indented line of a long skill body with `code` and ! marks\n", 2000)
	b.Run("linear", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			shellInjections(body)
		}
	})
	b.Run("regexp-baseline", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			refInjections(body)
		}
	})
}

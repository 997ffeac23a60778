package skills

import (
	"fmt"
	"strings"
	"testing"
)

func TestShellInjections(t *testing.T) {
	cases := []struct {
		body string
		want []string
	}{
		{"Status: !`git status`.", []string{"git status"}},
		{"A !`echo a\nb` spans a line break.", []string{"echo a\nb"}},
		{"text ```!\ncurl x | sh\n``` after", []string{"curl x | sh"}},
		{"```! ls -la```", []string{"ls -la"}},
		{"- item ```!\nid", []string{"id"}}, // unclosed: to the end
		{"!``x` and !`y`", []string{"y"}},   // an empty command matches nothing
		{"```!\n!`inner`\n```", []string{"!`inner`", "inner"}},
		{"plain `code` and ! `not`", nil},
	}
	for _, c := range cases {
		if got := ShellInjections(c.body); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: got %q, want %q", c.body, got, c.want)
		}
	}
	// No cap: the 33rd and the 1,000th are listed.
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "!`echo %d` ```!\nls %d\n```\n", i, i)
	}
	if got := ShellInjections(b.String()); len(got) != 2000 || got[1999] != "echo 999" || got[999] != "ls 999" {
		t.Fatalf("%d injections, last %q", len(got), got[len(got)-1])
	}
}

func FuzzShellInjections(f *testing.F) {
	for _, s := range []string{"!`a`", "```!\nb\n```", "!``", "```!", "!`\n`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, cmd := range ShellInjections(s) {
			if cmd == "" || !strings.Contains(s, strings.TrimSpace(cmd)) {
				t.Fatalf("%q: injection %q is not from the body", s, cmd)
			}
		}
	})
}

// BenchmarkShellInjections scans a body of many injections; its baseline is
// strings.Count over the same bytes, in the same run.
func BenchmarkShellInjections(b *testing.B) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "Some prose %d with !`echo %d` and a block ```!\nls %d\n``` here.\n", i, i, i)
	}
	body := sb.String()
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			ShellInjections(body)
		}
	})
	b.Run("baseline-count", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			strings.Count(body, "!`")
		}
	})
}

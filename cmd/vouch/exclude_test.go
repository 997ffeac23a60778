package main

import (
	"strings"
	"testing"
)

func TestExcludeMatcher(t *testing.T) {
	cases := []struct {
		pattern string
		match   []string
		miss    []string
	}{
		{"node_modules", []string{"node_modules", "a/node_modules", "a/b/node_modules"}, []string{"node_modules2", "a/xnode_modules"}},
		{"*.tar.gz", []string{"x.tar.gz", "a/b/y.tar.gz"}, []string{"x.tar.gz.sig"}},
		{"testdata/", []string{"testdata", "a/testdata"}, []string{"testdata2"}},
		{"vendor/*", []string{"vendor/a", "vendor/b"}, []string{"vendor", "x/vendor/a", "vendor/a/b"}},
		{"/vendor", []string{"vendor"}, []string{"a/vendor"}},
		{"./vendor", []string{"vendor"}, []string{"a/vendor"}},
		{"**/testdata", []string{"testdata", "a/testdata", "a/b/testdata"}, []string{"testdata/x"}},
		{"plugins/**/old", []string{"plugins/old", "plugins/a/old", "plugins/a/b/old"}, []string{"old", "x/plugins/old"}},
		{"a/[bc]?", []string{"a/bx", "a/cy"}, []string{"a/dx", "a/b"}},
	}
	for _, c := range cases {
		if err := checkPattern(c.pattern); err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		m := excludeMatcher([]string{c.pattern})
		for _, rel := range c.match {
			if !m(rel) {
				t.Errorf("%q does not match %q", c.pattern, rel)
			}
		}
		for _, rel := range c.miss {
			if m(rel) {
				t.Errorf("%q matches %q", c.pattern, rel)
			}
		}
	}
	if excludeMatcher(nil) != nil {
		t.Error("no patterns gave a matcher: every search would ask it for nothing")
	}
	for _, bad := range []string{"[", "a/[b", "", "a//b", "/"} {
		if checkPattern(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// --exclude leaves folders out of every command that takes SOURCEs, says so in the
// report, and a bad pattern is a usage error.
func TestExcludeFlag(t *testing.T) {
	dir := configProject(t, "")
	code, out, errs := runIn(t, dir, "status", "--exclude", "vendor", "--exclude", "beta", ".")
	if code != 0 || skillsIn(out) != "alpha - -" || !strings.Contains(out, "search-excluded") || !strings.Contains(out, "left out 2 folders and files") {
		t.Fatalf("exit %d %s\n%s%s", code, skillsIn(out), out, errs)
	}
	if code, _, errs := runIn(t, dir, "validate", "--exclude", "[", "."); code != 2 || !strings.Contains(errs, `--exclude pattern "[" is not a glob`) {
		t.Errorf("bad pattern: exit %d %q", code, errs)
	}
	// approve and check take SOURCEs too: gamma, excluded, is not found there, though it
	// is without the pattern.
	if code, _, errs := runIn(t, dir, "approve", "--yes", "--exclude", "gamma", ".", "gamma#skill:gamma"); code == 0 {
		t.Errorf("approve found an excluded package: %s", errs)
	}
	home := t.TempDir()
	for _, args := range [][]string{{"approve", "--yes", ".", "gamma#skill:gamma"}, {"check", ".", "gamma#skill:gamma"}} {
		if code, _, errs := runIn(t, dir, append([]string{"--home", home}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
	}
	if code, _, errs := runIn(t, dir, "--home", home, "check", "--exclude", "vendor", ".", "gamma#skill:gamma"); code == 0 || !strings.Contains(errs, "gamma#skill:gamma") {
		t.Errorf("check found an excluded package: exit %d %s", code, errs)
	}
}

// Any pattern is accepted or refused, and a matcher never panics on any path.
func FuzzExclude(f *testing.F) {
	for _, s := range []string{"node_modules", "**/x", "a/[bc]/*", "/v", "[", "a//b"} {
		f.Add(s, "a/b/c")
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		if checkPattern(pattern) != nil {
			return
		}
		m := excludeMatcher([]string{pattern})
		got := m(rel)
		// A pattern with no slash is about the name alone, wherever it is.
		if !strings.Contains(strings.TrimSuffix(pattern, "/"), "/") {
			name := rel[strings.LastIndex(rel, "/")+1:]
			if m(name) != got {
				t.Fatalf("%q matches %q: %v, but its name %q: %v", pattern, rel, got, name, !got)
			}
		}
	})
}

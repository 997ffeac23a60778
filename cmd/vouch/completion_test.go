package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCompletion(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join("..", "..", "examples", "dalo", "design-review")
	cases := []struct {
		name string
		args []string
		want []string // candidates expected
		not  []string // candidates that must not appear
	}{
		{"refs after source", []string{"__complete", "approve", src, ""}, []string{"design-review#hook:review-context", "design-review#tool:context"}, nil},
		{"prefix filters", []string{"__complete", "check", src, "design-review#tool"}, []string{"design-review#tool:context"}, []string{"design-review#hook:review-context"}},
		{"typed refs not offered again", []string{"__complete", "approve", src, "design-review#tool:context", ""}, []string{"design-review#hook:review-context"}, []string{"design-review#tool:context"}},
		{"check takes one ref", []string{"__complete", "check", src, "design-review#tool:context", ""}, nil, []string{"design-review#"}},
		{"missing source completes nothing", []string{"__complete", "approve", filepath.Join(home, "nope"), ""}, nil, []string{"#"}},
		{"subcommands", []string{"__complete", ""}, []string{"approve", "check", "completion", "validate", "version"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runVouch(t, home, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(out, "\n") {
				name, _, _ := strings.Cut(l, "\t")
				lines[name] = true
			}
			for _, w := range tc.want {
				if !lines[w] {
					t.Errorf("missing candidate %q in:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				for l := range lines {
					if strings.HasPrefix(l, n) {
						t.Errorf("unexpected candidate %q", l)
					}
				}
			}
		})
	}
}

// A package name carrying a terminal escape must never be printed as a candidate: the
// shell writes candidates straight into the command line.
func TestCompletionDropsUnsafeRefs(t *testing.T) {
	for _, ref := range []string{"a\x1b[2Jb#skill:x", "a\nb#skill:x", "a\u202eb#skill:x"} {
		if shellSafe(ref) {
			t.Errorf("shellSafe(%q) = true", ref)
		}
	}
	if !shellSafe("design-review#hook:review-context") {
		t.Error("a plain ref is refused")
	}
}

func TestVersion(t *testing.T) {
	home := t.TempDir()
	code, out, _ := runVouch(t, home, "--version")
	if code != 0 || !strings.HasPrefix(out, "vouch ") || !strings.Contains(out, "/") {
		t.Fatalf("--version: exit %d, %q", code, out)
	}
	code, out, _ = runVouch(t, home, "version", "--json")
	if code != 0 || !strings.Contains(out, `"platform"`) || !strings.Contains(out, `"version"`) {
		t.Fatalf("version --json: exit %d, %q", code, out)
	}
	old := releaseVersion
	releaseVersion = "v9.8.7"
	defer func() { releaseVersion = old }()
	if v := currentVersion(); v.Version != "v9.8.7" {
		t.Fatalf("-ldflags version not used: %+v", v)
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := runVouch(t, home, "completion", shell)
		if code != 0 || len(out) < 100 {
			t.Errorf("completion %s: exit %d, %d bytes, %s", shell, code, len(out), errOut)
		}
	}
}

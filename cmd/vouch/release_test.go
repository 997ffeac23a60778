package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scripts/release writes one archive per platform with the binaries, LICENSE, notices,
// completions and man pages, SHA256SUMS over the archives and a Homebrew formula; each
// binary's build info says vcs.modified=false when the checkout is clean (dist/ is
// ignored, so writing the first binary does not make the tree dirty for the next).
func TestReleaseScript(t *testing.T) {
	// Three builds with -trimpath share nothing with the test build: minutes on a loaded
	// machine, so the suite runs it on request (VOUCH_RELEASE_TEST=1), as .ci/run does.
	if os.Getenv("VOUCH_RELEASE_TEST") != "1" {
		t.Skip("set VOUCH_RELEASE_TEST=1 to build a release")
	}
	for _, tool := range []string{"bash", "git", "tar", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "release"), "v0.0.0-test", out)
	cmd.Env = append(os.Environ(), "VOUCH_RELEASE_TARGETS=linux/amd64", "VOUCH_RELEASE_URL=https://example.invalid/dl")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release: %v\n%s", err, b)
	}
	name := "vouch_v0.0.0-test_linux_amd64"
	f, err := os.Open(filepath.Join(out, name+".tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	tr := tar.NewReader(gz)
	dir := t.TempDir()
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		have[h.Name] = true
		if base := filepath.Base(h.Name); base == "vouch" || base == "vouch-gate" {
			dst, _ := os.OpenFile(filepath.Join(dir, base), os.O_CREATE|os.O_WRONLY, 0o755)
			io.Copy(dst, tr)
			dst.Close()
		}
	}
	for _, want := range []string{"vouch", "vouch-gate", "LICENSE", "THIRD_PARTY_NOTICES", "completions/vouch.bash", "completions/vouch.zsh", "completions/vouch.fish", "man/vouch-check.1"} {
		if !have[name+"/"+want] {
			t.Errorf("the archive lacks %s (has %v)", want, have)
		}
	}
	sums := exec.Command("sha256sum", "-c", "SHA256SUMS")
	sums.Dir = out
	if b, err := sums.CombinedOutput(); err != nil || !strings.Contains(string(b), name+".tar.gz: OK") {
		t.Errorf("SHA256SUMS: %v\n%s", err, b)
	}
	formula, _ := os.ReadFile(filepath.Join(out, "vouch.rb"))
	if !strings.Contains(string(formula), `url "https://example.invalid/dl/`+name+`.tar.gz"`) || !strings.Contains(string(formula), "sha256 \"") || !strings.Contains(string(formula), "class Vouch < Formula") {
		t.Errorf("formula:\n%s", formula)
	}
	status, _ := exec.Command("git", "-C", root, "status", "--porcelain").Output()
	for _, bin := range []string{"vouch", "vouch-gate"} {
		info, err := exec.Command("go", "version", "-m", filepath.Join(dir, bin)).Output()
		if err != nil {
			t.Fatalf("go version -m %s: %v", bin, err)
		}
		if !strings.Contains(string(info), "vcs.modified=") {
			// The go command stamps a checkout whose .git is a folder; a git worktree's
			// .git is a file, and Go 1.26 stamps nothing there.
			if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && !st.IsDir() {
				t.Logf("%s: no VCS stamp in a git worktree", bin)
				continue
			}
			t.Errorf("%s has no VCS stamp:\n%s", bin, info)
		}
		if len(status) == 0 && !strings.Contains(string(info), "vcs.modified=false") {
			t.Errorf("%s is stamped modified from a clean checkout:\n%s", bin, info)
		}
	}
}

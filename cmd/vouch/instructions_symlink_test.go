package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstructionsSymlinkTarget: a repository's AGENTS.md planted as a link to a .pth file.
// The preview names the destination; without a terminal, --yes alone writes nothing (the
// destination stays byte for byte and nothing is recorded); --follow-symlink --yes writes
// the destination and keeps the link; at a terminal the question names the destination.
func TestInstructionsSymlinkTarget(t *testing.T) {
	requireDaloLoader(t)
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	dest := filepath.Join(root, "site-packages", "startup.pth")
	os.MkdirAll(repo, 0o755)
	os.MkdirAll(filepath.Dir(dest), 0o755)
	orig := []byte("import sys\n")
	os.WriteFile(dest, orig, 0o644)
	link := filepath.Join(repo, "AGENTS.md")
	if err := os.Symlink(dest, link); err != nil {
		t.Skip(err)
	}
	unchanged := func(what string) {
		t.Helper()
		if got, _ := os.ReadFile(dest); !bytes.Equal(got, orig) {
			t.Fatalf("%s: the destination changed: %q", what, got)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: the link was replaced", what)
		}
	}
	home := t.TempDir()
	code, out, errs := runVouch(t, home, "instructions", "preview", "--target", link, instrSource, instrRef)
	if code != 0 || !strings.Contains(out, "Writes to:  "+dest) || !strings.Contains(out, "+++ "+dest) {
		t.Fatalf("preview does not name the destination: exit %d\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{{"apply", "--yes"}, {"remove", "--yes"}} {
		code, _, errs = runVouch(t, home, append(append([]string{"instructions"}, args...), "--target", link, instrSource, instrRef)...)
		if args[0] == "apply" && (code != 1 || !strings.Contains(errs, "symbolic link") || !strings.Contains(errs, "--follow-symlink")) {
			t.Fatalf("%v through an unconfirmed link: exit %d: %s", args, code, errs)
		}
		unchanged(strings.Join(args, " "))
	}
	if l := listInstructions(t, home); len(l.Instructions) != 0 {
		t.Fatalf("an unconfirmed link write was recorded: %+v", l)
	}

	// At a terminal the question names the destination; n writes nothing.
	code, out, errs = atTerminal(t, home, "n", "instructions", "apply", "--target", link, instrSource, instrRef)
	if code != 1 || !strings.Contains(out, "Write this change to "+dest+" (the file the symbolic link "+link+" points to)?") {
		t.Fatalf("terminal question: exit %d\n%s%s", code, out, errs)
	}
	unchanged("declined at a terminal")

	code, out, errs = runVouch(t, home, "instructions", "apply", "--yes", "--follow-symlink", "--target", link, instrSource, instrRef)
	if code != 0 {
		t.Fatalf("apply --follow-symlink: exit %d: %s%s", code, out, errs)
	}
	got, _ := os.ReadFile(dest)
	if !bytes.HasPrefix(got, orig) || !bytes.Contains(got, []byte("<!-- vouch:start "+instrRef+" -->")) {
		t.Fatalf("the confirmed destination was not written: %q", got)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
}

// A target inside the package under review (its plugin directory, or the directories of its
// skills and instructions) is refused before anything is shown or written, also through a
// link into the package.
func TestInstructionsTargetInsidePackage(t *testing.T) {
	requireDaloLoader(t)
	src := filepath.Join(t.TempDir(), "source")
	if err := os.CopyFS(src, os.DirFS(instrSource)); err != nil {
		t.Fatal(err)
	}
	into := filepath.Join(t.TempDir(), "into")
	os.Symlink(filepath.Join(src, "skills", "design-review"), into)
	home := t.TempDir()
	for _, c := range []struct{ target, written string }{
		{filepath.Join(src, "instructions", "AGENTS.md"), filepath.Join(src, "instructions", "AGENTS.md")},
		{filepath.Join(src, "plugins", "design-review", "AGENTS.md"), filepath.Join(src, "plugins", "design-review", "AGENTS.md")},
		{filepath.Join(into, "NOTES.md"), filepath.Join(src, "skills", "design-review", "NOTES.md")},
	} {
		code, out, errs := runVouch(t, home, "instructions", "apply", "--yes", "--follow-symlink", "--target", c.target, src, instrRef)
		if code != 1 || !strings.Contains(errs, "inside") {
			t.Fatalf("%s: exit %d\n%s%s", c.target, code, out, errs)
		}
		if _, err := os.Lstat(c.written); !os.IsNotExist(err) {
			t.Fatalf("%s was written", c.written)
		}
	}
	// Beside the packages (the source's own AGENTS.md) is where activation writes.
	if code, out, errs := runVouch(t, home, "instructions", "apply", "--yes", "--target", filepath.Join(src, "AGENTS.md"), src, instrRef); code != 0 {
		t.Fatalf("beside the package: exit %d\n%s%s", code, out, errs)
	}
}

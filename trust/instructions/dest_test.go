package instructions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vouch/model"
)

// linkFixture is a repository whose AGENTS.md is a planted link to a file outside it
// (here a .pth file, which Python runs at start-up).
type linkFixture struct {
	repo, link, dest string
	orig             []byte
}

func newLinkFixture(t *testing.T) linkFixture {
	t.Helper()
	root := t.TempDir()
	f := linkFixture{repo: filepath.Join(root, "repo"), dest: filepath.Join(root, "site-packages", "evil.pth"), orig: []byte("import os\n")}
	os.MkdirAll(f.repo, 0o755)
	os.MkdirAll(filepath.Dir(f.dest), 0o755)
	if err := os.WriteFile(f.dest, f.orig, 0o644); err != nil {
		t.Fatal(err)
	}
	f.link = filepath.Join(f.repo, "AGENTS.md")
	if err := os.Symlink(f.dest, f.link); err != nil {
		t.Skip(err)
	}
	return f
}

func (f linkFixture) destUnchanged(t *testing.T, what string) {
	t.Helper()
	if got, err := os.ReadFile(f.dest); err != nil || !bytes.Equal(got, f.orig) {
		t.Fatalf("%s: the link's destination changed: %q (%v)", what, got, err)
	}
	if st, err := os.Lstat(f.link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s: the link is no longer a link (%v)", what, err)
	}
}

// The preview names the destination; an unconfirmed write changes nothing; a confirmed
// one writes the destination and keeps the link.
func TestSymlinkTargetNeedsConfirmation(t *testing.T) {
	f := newLinkFixture(t)
	target, err := ResolveTarget(f.link)
	if err != nil {
		t.Fatal(err)
	}
	if !target.Linked() || target.Resolved != f.dest {
		t.Fatalf("target %+v does not resolve to %s", target, f.dest)
	}
	p, err := PreviewApply(target, BlockID("p", "i"), "B", "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains([]byte(p.Diff), []byte("+++ "+f.dest)) {
		t.Errorf("the diff does not name the destination:\n%s", p.Diff)
	}
	if err := Commit(p, false); !errors.Is(err, ErrLinkNotConfirmed) {
		t.Fatalf("unconfirmed commit: %v", err)
	}
	f.destUnchanged(t, "unconfirmed")
	p.Confirmed = filepath.Join(filepath.Dir(f.dest), "other.pth") // confirmed something else
	if err := Commit(p, false); !errors.Is(err, ErrLinkNotConfirmed) {
		t.Fatalf("commit confirmed for another file: %v", err)
	}
	f.destUnchanged(t, "confirmed elsewhere")

	p.Confirmed = target.Resolved
	if err := Commit(p, false); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(f.link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(f.dest); !bytes.HasPrefix(got, f.orig) || !bytes.Contains(got, []byte("vouch:start p#instruction:i")) {
		t.Fatalf("the destination was not written: %q", got)
	}
	// Revert goes through the same destination.
	if err := Revert(p); err != nil {
		t.Fatal(err)
	}
	f.destUnchanged(t, "reverted")
}

// A link retargeted (or planted) after the preview is never followed: the write is
// refused and neither file changes.
func TestSymlinkSwappedAfterPreview(t *testing.T) {
	t.Run("retargeted", func(t *testing.T) {
		f := newLinkFixture(t)
		target, _ := ResolveTarget(f.link)
		p, err := PreviewApply(target, BlockID("p", "i"), "B", "")
		if err != nil {
			t.Fatal(err)
		}
		p.Confirmed = target.Resolved
		other := filepath.Join(filepath.Dir(f.dest), "other.pth")
		os.WriteFile(other, f.orig, 0o644)
		os.Remove(f.link)
		os.Symlink(other, f.link)
		if err := Commit(p, false); !errors.Is(err, ErrChanged) {
			t.Fatalf("commit after retargeting: %v", err)
		}
		f.destUnchanged(t, "retargeted")
		if got, _ := os.ReadFile(other); !bytes.Equal(got, f.orig) {
			t.Fatalf("the new destination was written: %q", got)
		}
	})
	t.Run("planted", func(t *testing.T) {
		f := newLinkFixture(t)
		plain := filepath.Join(f.repo, "CLAUDE.md")
		os.WriteFile(plain, []byte("# rules\n"), 0o644)
		target, _ := ResolveTarget(plain)
		if target.Linked() {
			t.Fatalf("a plain file is Linked: %+v", target)
		}
		p, err := PreviewApply(target, BlockID("p", "i"), "B", "")
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(plain)
		os.Symlink(f.dest, plain)
		if err := Commit(p, false); !errors.Is(err, ErrChanged) {
			t.Fatalf("commit after planting a link: %v", err)
		}
		f.destUnchanged(t, "planted")
	})
	t.Run("directory-planted", func(t *testing.T) {
		f := newLinkFixture(t)
		docs := filepath.Join(f.repo, "docs")
		os.MkdirAll(docs, 0o755)
		target, _ := ResolveTarget(filepath.Join(docs, "evil.pth"))
		p, err := PreviewApply(target, BlockID("p", "i"), "B", "")
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(docs)
		os.Symlink(filepath.Dir(f.dest), docs)
		if err := Commit(p, false); !errors.Is(err, ErrChanged) {
			t.Fatalf("commit after planting a directory link: %v", err)
		}
		f.destUnchanged(t, "directory planted")
	})
}

// Links anywhere in the path count, and a dangling link resolves to where a write would
// create the file.
func TestResolveTargetLinks(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	os.MkdirAll(real, 0o755)
	os.Symlink(real, filepath.Join(root, "docs"))
	os.Symlink(filepath.Join(root, "nowhere", "new.pth"), filepath.Join(real, "dangling.md"))
	os.Symlink("dangling.md", filepath.Join(real, "chain.md"))
	loop := filepath.Join(root, "loop.md")
	os.Symlink(loop, loop)
	cases := []struct{ path, want string }{
		{filepath.Join(root, "docs", "AGENTS.md"), filepath.Join(real, "AGENTS.md")},
		{filepath.Join(root, "docs", "dangling.md"), filepath.Join(root, "nowhere", "new.pth")},
		{filepath.Join(root, "docs", "chain.md"), filepath.Join(root, "nowhere", "new.pth")},
		{filepath.Join(root, "plain.md"), filepath.Join(root, "plain.md")},
		{filepath.Join(root, "missing", "dir", "AGENTS.md"), filepath.Join(root, "missing", "dir", "AGENTS.md")},
	}
	for _, c := range cases {
		tg, err := ResolveTarget(c.path)
		if err != nil || tg.Resolved != c.want || tg.Linked() != (c.path != c.want) {
			t.Errorf("%s: resolved %q linked %v (%v), want %q", c.path, tg.Resolved, tg.Linked(), err, c.want)
		}
	}
	if _, err := ResolveTarget(loop); err == nil {
		t.Error("a link loop resolved")
	}
	// An unconfirmed dangling link creates nothing.
	tg, _ := ResolveTarget(filepath.Join(real, "dangling.md"))
	p, err := PreviewApply(tg, BlockID("p", "i"), "B", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Commit(p, false); !errors.Is(err, ErrLinkNotConfirmed) {
		t.Fatalf("dangling link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "nowhere")); !os.IsNotExist(err) {
		t.Fatal("an unconfirmed write through a dangling link created its directory")
	}
}

// A target inside the package under review is refused, also when a link leads there.
func TestCheckTargetInsidePackage(t *testing.T) {
	root := t.TempDir()
	pkgRoot := filepath.Join(root, "pkg")
	os.MkdirAll(filepath.Join(pkgRoot, "skills"), 0o755)
	os.Symlink(filepath.Join(pkgRoot, "skills"), filepath.Join(root, "into-pkg"))
	pkg := &model.Package{Root: pkgRoot}
	for _, c := range []struct {
		path   string
		refuse bool
	}{
		{filepath.Join(pkgRoot, "AGENTS.md"), true},
		{filepath.Join(pkgRoot, "skills", "x", "SKILL.md"), true},
		{filepath.Join(root, "into-pkg", "SKILL.md"), true},
		{filepath.Join(root, "pkg-sibling", "AGENTS.md"), false},
		{filepath.Join(root, "AGENTS.md"), false},
	} {
		tg, err := ResolveTarget(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckTarget(tg, pkg); errors.Is(err, ErrInsidePackage) != c.refuse {
			t.Errorf("%s: %v, want refused=%v", c.path, err, c.refuse)
		}
	}
	// A Dalo package's files beside its plugin directory count too; the source's other
	// files do not.
	src := filepath.Join(root, "dalo")
	dalo := &model.Package{Format: model.FormatDalo, Name: "d", Root: filepath.Join(src, "plugins", "d"),
		Components: []*model.Component{{BodyFile: "instructions/i.md", Files: []model.File{{Path: "skills/s/SKILL.md"}}}}}
	for _, c := range []struct {
		rel    string
		refuse bool
	}{{"instructions/AGENTS.md", true}, {"skills/s/AGENTS.md", true}, {"plugins/d/AGENTS.md", true}, {"AGENTS.md", false}, {"skills/other/AGENTS.md", false}} {
		tg, _ := ResolveTarget(filepath.Join(src, c.rel))
		if err := CheckTarget(tg, dalo); errors.Is(err, ErrInsidePackage) != c.refuse {
			t.Errorf("dalo %s: %v, want refused=%v", c.rel, err, c.refuse)
		}
	}
}

// Two writers of one target are serialized: of two previews made from the same file, one
// commits and the other finds the file changed, never both (a lost update).
func TestConcurrentCommitsSerialized(t *testing.T) {
	for i := 0; i < 20; i++ {
		tg := tmpTarget(t, []byte("# base\n"), 0o644)
		a, err := PreviewApply(tg, BlockID("p", "a"), "A", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := PreviewApply(tg, BlockID("p", "b"), "B", "")
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		for _, p := range []*Preview{a, b} {
			go func(p *Preview) { errs <- Commit(p, false) }(p)
		}
		e1, e2 := <-errs, <-errs
		if (e1 == nil) == (e2 == nil) {
			t.Fatalf("round %d: both or neither committed: %v, %v", i, e1, e2)
		}
		if e := errors.Join(e1, e2); !errors.Is(e, ErrChanged) {
			t.Fatalf("round %d: the loser did not see the change: %v", i, e)
		}
		got, _ := os.ReadFile(tg.Path)
		if !bytes.Equal(got, a.After) && !bytes.Equal(got, b.After) {
			t.Fatalf("round %d: the file holds neither write: %q", i, got)
		}
	}
}

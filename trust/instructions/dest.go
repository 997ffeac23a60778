package instructions

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"vouch/model"
)

// Symlinked targets. A repository can plant AGENTS.md as a link to any file the user can
// write (a .pth file, a shell profile): writing "to AGENTS.md" would write there. So a
// target is resolved before its preview, at every path component (a planted directory
// link, docs -> ~/.config, redirects docs/AGENTS.md just as well as a link at the last
// component), and Target.Resolved names the file that would change. When it differs
// from the typed path, Commit writes only if the caller confirmed exactly that
// destination (Preview.Confirmed), and it writes the destination itself, so the link
// stays a link. At write time the target is resolved again under a lock and the write
// goes through a descriptor of the verified directory, never through the link again.

// Errors for symlinked and misplaced targets, for errors.Is.
var (
	ErrLinkNotConfirmed = errors.New("the target is a symbolic link and writing to the file it points to was not confirmed")
	ErrInsidePackage    = errors.New("the target is inside the package under review")
)

// maxLinks bounds symbolic-link hops, like the kernel's ELOOP limit.
const maxLinks = 40

// Linked reports whether writing the target changes a file other than the one typed:
// some component of Path is a symbolic link.
func (t Target) Linked() bool { return t.Resolved != "" && t.Resolved != t.Path }

// resolvePath returns path with every symbolic link resolved, also when the file (or a
// link's destination) does not exist yet: then the part that exists is resolved and the
// rest appended, which is where a write would create the file.
func resolvePath(path string) (string, error) {
	return resolveDepth(filepath.Clean(path), 0)
}

func resolveDepth(p string, hops int) (string, error) {
	for ; hops <= maxLinks; hops++ {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r, nil
		}
		st, err := os.Lstat(p)
		switch {
		case err == nil && st.Mode()&fs.ModeSymlink != 0:
			// A link whose destination does not exist (yet): follow it by hand.
			dest, err := os.Readlink(p)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(p), dest)
			}
			p = filepath.Clean(dest)
			continue
		case err == nil:
			// Exists but EvalSymlinks failed on the way (a parent we cannot read).
			return "", fmt.Errorf("cannot resolve %s", p)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, unix.ENOTDIR):
			return "", err
		}
		dir, base := filepath.Dir(p), filepath.Base(p)
		if dir == p {
			return p, nil
		}
		rd, err := resolveDepth(dir, hops+1)
		if err != nil {
			return "", err
		}
		return filepath.Join(rd, base), nil
	}
	return "", fmt.Errorf("too many levels of symbolic links resolving %s", p)
}

// CheckTarget refuses a target inside the package under review: its typed path or the
// file it resolves to lies under the package root, or in a directory holding one of the
// package's files (a Dalo package's skills and instructions live beside its plugin
// directory, in the source's skills/ and instructions/), all resolved too. A package must
// not have its instructions written into its own files, where they would change what is
// under review. Files beside a package (a repository's AGENTS.md next to a Dalo source)
// are not refused: writing there is what activation is for.
func CheckTarget(t Target, pkg *model.Package) error {
	if pkg == nil || pkg.Root == "" {
		return nil
	}
	var roots []string
	add := func(p string) {
		if abs, err := filepath.Abs(p); err == nil {
			roots = append(roots, abs)
		}
		if r, err := resolvePath(p); err == nil {
			roots = append(roots, r)
		}
	}
	add(pkg.Root)
	// Dalo file paths are relative to the source (<source>/plugins/<name> is the root).
	base := pkg.Root
	if pkg.Format == model.FormatDalo && filepath.Base(filepath.Dir(pkg.Root)) == "plugins" {
		base = filepath.Dir(filepath.Dir(pkg.Root))
	}
	for _, c := range pkg.Components {
		rels := []string{c.BodyFile}
		for _, f := range c.Files {
			rels = append(rels, f.Path)
		}
		for _, rel := range rels {
			if rel == "" {
				continue
			}
			if dir := filepath.Dir(filepath.Join(base, filepath.FromSlash(rel))); dir != filepath.Clean(base) {
				add(dir)
			}
		}
	}
	paths := []string{t.Path}
	if t.Resolved != "" {
		paths = append(paths, t.Resolved)
	}
	for _, root := range roots {
		for _, p := range paths {
			if p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator)) {
				how := ""
				if p != t.Path {
					how = " (" + t.Path + " resolves to " + p + ")"
				}
				return fmt.Errorf("%w: %s is inside %s%s, which holds files of %s; choose a file outside the package", ErrInsidePackage, t.Path, root, how, pkg.Name)
			}
		}
	}
	return nil
}

// destDir is the directory of a target's destination, opened, locked and verified.
// Every read and write of the destination goes through its descriptor with the final
// name, so no link swapped into the path after the check is followed.
type destDir struct {
	f    *os.File
	base string
	path string // the destination, as verified
}

// openDest resolves t again, locks the destination's directory (an flock that other vouch
// processes writing a file in that directory wait for) and checks, under the lock, that t
// still resolves to the destination the preview showed.
func openDest(t Target, create bool) (*destDir, error) {
	want := t.Resolved
	if want == "" {
		want = t.Path
	}
	changed := func(now string) error {
		return fmt.Errorf("%w: %s now resolves to %s, not %s as previewed (a symbolic link was added or changed); preview again", ErrChanged, t.Path, now, want)
	}
	now, err := resolvePath(t.Path)
	if err != nil {
		return nil, err
	}
	if now != want {
		return nil, changed(now)
	}
	dir := filepath.Dir(want)
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil &&
		!errors.Is(err, unix.ENOLCK) && !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.ENOTSUP) {
		// A file system without flock (some network mounts) only loses the serialization
		// of two vouch writers; the checks below still run.
		f.Close()
		return nil, fmt.Errorf("cannot lock %s: %w", dir, err)
	}
	d := &destDir{f: f, base: filepath.Base(want), path: want}
	fail := func(err error) (*destDir, error) { d.close(); return nil, err }
	if now, err = resolvePath(t.Path); err != nil {
		return fail(err)
	}
	if now != want {
		return fail(changed(now))
	}
	// The descriptor must be the directory that name resolves to now, not one a rename
	// put there between the resolution and the open.
	fst, err1 := f.Stat()
	dst, err2 := os.Stat(dir)
	if err1 != nil || err2 != nil || !fst.IsDir() || !os.SameFile(fst, dst) {
		return fail(fmt.Errorf("%w: the directory %s was replaced while vouch opened it; preview again", ErrChanged, dir))
	}
	return d, nil
}

func (d *destDir) close() {
	unix.Flock(int(d.f.Fd()), unix.LOCK_UN)
	d.f.Close()
}

// read reads the destination without following a link at its name: a link there now
// was not there when it was resolved, and is refused.
func (d *destDir) read() (data []byte, exists bool, mode fs.FileMode, err error) {
	fd, err := unix.Openat(int(d.f.Fd()), d.base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, false, 0, nil
	}
	if errors.Is(err, unix.ELOOP) {
		return nil, true, 0, fmt.Errorf("%w: %s became a symbolic link after the preview; preview again", ErrChanged, d.path)
	}
	if err != nil {
		return nil, false, 0, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, true, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, true, 0, fmt.Errorf("%w: %s (%s)", ErrNotFile, d.path, st.Mode().Type())
	}
	if st.Size() > MaxTargetSize {
		return nil, true, 0, fmt.Errorf("%w: %s holds %d bytes, more than %d", ErrTooLarge, d.path, st.Size(), MaxTargetSize)
	}
	data, err = io.ReadAll(io.LimitReader(f, MaxTargetSize+1))
	if err != nil {
		return nil, true, 0, err
	}
	if len(data) > MaxTargetSize {
		return nil, true, 0, fmt.Errorf("%w: %s grew past %d bytes while being read", ErrTooLarge, d.path, MaxTargetSize)
	}
	return data, true, st.Mode().Perm(), nil
}

// write replaces the destination atomically: a temporary file in the same directory,
// synced, then renamed over the name (a rename replaces a link, it never follows one).
func (d *destDir) write(data []byte, mode fs.FileMode) (err error) {
	dirfd := int(d.f.Fd())
	var rnd [8]byte
	rand.Read(rnd[:])
	tmp := "." + d.base + "." + hex.EncodeToString(rnd[:]) + ".tmp"
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", filepath.Dir(d.path), err)
	}
	f := os.NewFile(uintptr(fd), filepath.Join(filepath.Dir(d.path), tmp))
	defer func() {
		if err != nil {
			f.Close()
			unix.Unlinkat(dirfd, tmp, 0)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", d.path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("cannot flush %s to disk: %w", d.path, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("cannot set the mode of %s: %w", d.path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", d.path, err)
	}
	if err = unix.Renameat(dirfd, tmp, dirfd, d.base); err != nil {
		return fmt.Errorf("cannot replace %s: %w", d.path, err)
	}
	return d.f.Sync()
}

// remove deletes the destination (a file the apply created), not following a link.
func (d *destDir) remove() error {
	if err := unix.Unlinkat(int(d.f.Fd()), d.base, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: d.path, Err: err}
	}
	return d.f.Sync()
}

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
	"syscall"

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
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
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

// checkTarget refuses a destination that is not a regular file or holds more than
// MaxTargetSize bytes, before it is read.
func (d *destDir) checkTarget(st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: %s (%s)", ErrNotFile, d.path, st.Mode().Type())
	}
	if st.Size() > MaxTargetSize {
		return fmt.Errorf("%w: %s holds %d bytes, more than %d", ErrTooLarge, d.path, st.Size(), MaxTargetSize)
	}
	return nil
}

// readTarget reads the opened destination f, whose stat was st, refusing it when it grew
// past MaxTargetSize while being read; it answers as destDir.read does.
func (d *destDir) readTarget(f io.Reader, st fs.FileInfo) ([]byte, bool, fs.FileMode, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxTargetSize+1))
	if err != nil {
		return nil, true, 0, err
	}
	if len(data) > MaxTargetSize {
		return nil, true, 0, fmt.Errorf("%w: %s grew past %d bytes while being read", ErrTooLarge, d.path, MaxTargetSize)
	}
	return data, true, st.Mode().Perm(), nil
}

// fillTemp writes data into f, the temporary file write renames over the destination,
// syncs it, gives it mode and closes it; a failure leaves f for the caller to remove.
func (d *destDir) fillTemp(f *os.File, data []byte, mode fs.FileMode) error {
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", d.path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot flush %s to disk: %w", d.path, err)
	}
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("cannot set the mode of %s: %w", d.path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", d.path, err)
	}
	return nil
}

// tempName is a fresh name, in the destination's directory, for the temporary file that
// write renames over the destination.
func (d *destDir) tempName() string {
	var rnd [8]byte
	rand.Read(rnd[:])
	return "." + d.base + "." + hex.EncodeToString(rnd[:]) + ".tmp"
}

// DirMode is the permission of the directories a write creates above a new target file
// (a missing ~/.codex, say): only the user, as the agents' own config directories are.
const DirMode fs.FileMode = 0o700

// DirsToCreate lists, outermost first, the directories a write to t would create: the
// missing ones above the file the write changes (Resolved, else Path). Commit and Record
// create them (mode DirMode) when the file does not exist yet; none are missing when its
// directory exists. A path component that exists but is no directory is an error: the
// write would fail there. Reads the filesystem.
func DirsToCreate(t Target) ([]string, error) {
	dest := t.Resolved
	if dest == "" {
		dest = t.Path
	}
	var out []string
	for dir := filepath.Dir(dest); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return nil, fmt.Errorf("%s is not a directory, so %s cannot be created", dir, dest)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if errors.Is(err, syscall.ENOTDIR) {
				continue // a file higher up: reported when the loop reaches it
			}
			return nil, err
		}
		out = append(out, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
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
		if err := os.MkdirAll(dir, DirMode); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := lockDir(f); err != nil {
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

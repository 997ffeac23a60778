//go:build !(linux || darwin || freebsd) || vouch_osroot

package fsguard

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// On platforms without openat/fstatat in golang.org/x/sys/unix (Windows above all) the
// handles are os.Root values. os.Root keeps every open inside the root, but it follows a
// symlink that stays inside it; fsguard's callers must never follow a final link, so each
// open is preceded by an Lstat of the same name through the same handle and refused when
// it is a link. Between that Lstat and the open a concurrent writer could swap the name
// for a link: such a link is still confined to the root by os.Root, which is the weaker
// guarantee this platform gives (the unix handles close that window with O_NOFOLLOW).

// dirHandle is an open directory: the root or a directory below it.
type dirHandle struct{ r *os.Root }

// fileHandle is a regular file opened for reading.
type fileHandle struct{ f *os.File }

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// openRootDir opens an absolute, symlink-free directory path.
func openRootDir(abs string) (dirHandle, error) {
	st, err := os.Lstat(abs)
	if err != nil {
		return dirHandle{}, err
	}
	if !st.IsDir() {
		return dirHandle{}, pathErr("open", abs, syscall.ENOTDIR)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return dirHandle{}, err
	}
	return dirHandle{r}, nil
}

func (d dirHandle) lstat(name string) (meta, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return meta{}, pathErr("lstat", name, unwrapPath(err))
	}
	return metaOfInfo(fi), nil
}

// noFollow refuses name when it is a symlink, as O_NOFOLLOW does, and reports whether it is
// a directory.
func (d dirHandle) noFollow(op, name string) (bool, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return false, pathErr(op, name, unwrapPath(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return false, pathErr(op, name, syscall.ELOOP)
	}
	return fi.IsDir(), nil
}

// openDir opens the directory name (one element) below d without following a symlink.
func (d dirHandle) openDir(name string) (dirHandle, error) {
	isDir, err := d.noFollow("openat", name)
	if err != nil {
		return dirHandle{}, err
	}
	if !isDir {
		return dirHandle{}, pathErr("openat", name, syscall.ENOTDIR)
	}
	r, err := d.r.OpenRoot(name)
	if err != nil {
		return dirHandle{}, pathErr("openat", name, unwrapPath(err))
	}
	return dirHandle{r}, nil
}

// openFile opens name (one element) below d for reading without following a symlink.
func (d dirHandle) openFile(name string) (fileHandle, error) {
	if _, err := d.noFollow("openat", name); err != nil {
		return fileHandle{}, err
	}
	f, err := d.r.Open(name)
	if err != nil {
		return fileHandle{}, pathErr("openat", name, unwrapPath(err))
	}
	return fileHandle{f}, nil
}

func (d dirHandle) readlink(name string) (string, error) {
	t, err := d.r.Readlink(name)
	if err != nil {
		return "", pathErr("readlinkat", name, unwrapPath(err))
	}
	return t, nil
}

// names reads at most max names of the directory (without "." and ".."); no type comes
// with them here (unknownType: each is asked of Lstat).
func (d dirHandle) names(max int) ([]string, []fs.FileMode, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, nil, pathErr("readdirent", ".", unwrapPath(err))
	}
	defer f.Close()
	names, err := f.Readdirnames(max)
	if err != nil && !errors.Is(err, io.EOF) {
		return names, nil, pathErr("readdirent", ".", unwrapPath(err))
	}
	types := make([]fs.FileMode, len(names))
	for i := range types {
		types[i] = unknownType
	}
	return names, types, nil
}

func (d dirHandle) close() error {
	if d.r == nil {
		return nil
	}
	return d.r.Close()
}

func (f fileHandle) stat() (meta, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return meta{}, pathErr("fstat", "", unwrapPath(err))
	}
	return metaOfInfo(fi), nil
}

// Read reads like io.Reader.
func (f fileHandle) Read(p []byte) (int, error) { return f.f.Read(p) }

func (f fileHandle) close() error {
	if f.f == nil {
		return nil
	}
	return f.f.Close()
}

func metaOfInfo(fi fs.FileInfo) meta {
	return meta{mode: fi.Mode(), size: fi.Size()}
}

// unwrapPath keeps the underlying errno so errors.Is checks (ENOTDIR, not-exist) keep working
// after fsguard wraps the error with its own path.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

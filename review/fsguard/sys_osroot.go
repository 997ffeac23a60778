//go:build !(linux || darwin || freebsd) || fsguard_osroot

package fsguard

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// This backend uses os.Root and os.File where raw descriptors are not available. Build
// with -tags fsguard_osroot to run the package's tests against it.

type dirHandle struct{ r *os.Root }

type fileHandle struct{ f *os.File }

func metaOfInfo(fi fs.FileInfo) meta { return meta{mode: fi.Mode(), size: fi.Size()} }

func openRootDir(abs string) (dirHandle, error) {
	if fi, err := os.Stat(abs); err != nil {
		return dirHandle{}, err
	} else if !fi.IsDir() {
		return dirHandle{}, &fs.PathError{Op: "open", Path: abs, Err: syscall.ENOTDIR}
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
		return meta{}, err
	}
	return metaOfInfo(fi), nil
}

// openDir opens name as a directory. The trailing "/." makes os.Root open it as an
// intermediate element, with O_DIRECTORY: a FIFO fails instead of blocking.
func (d dirHandle) openDir(name string) (dirHandle, error) {
	r, err := d.r.OpenRoot(name + "/.")
	if err != nil {
		return dirHandle{}, err
	}
	return dirHandle{r}, nil
}

func (d dirHandle) openFile(name string) (fileHandle, error) {
	f, err := d.r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return fileHandle{}, err
	}
	return fileHandle{f}, nil
}

func (d dirHandle) readlink(name string) (string, error) { return d.r.Readlink(name) }

func (d dirHandle) names(max int) ([]string, error) {
	f, err := d.r.OpenFile(".", os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(max)
	if err == io.EOF {
		err = nil
	}
	return names, err
}

func (d dirHandle) close() error { return d.r.Close() }

func (f fileHandle) stat() (meta, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return meta{}, err
	}
	return metaOfInfo(fi), nil
}

func (f fileHandle) Read(p []byte) (int, error) { return f.f.Read(p) }

func (f fileHandle) close() error { return f.f.Close() }

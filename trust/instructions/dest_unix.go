//go:build unix

package instructions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockDir takes an flock on the destination's directory. A file system without flock
// (some network mounts) only loses the serialization of two vouch writers; the checks
// around it still run.
func lockDir(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
	if err != nil && !errors.Is(err, unix.ENOLCK) && !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.ENOTSUP) {
		return err
	}
	return nil
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
	if err := d.checkTarget(st); err != nil {
		return nil, true, 0, err
	}
	return d.readTarget(f, st)
}

// write replaces the destination atomically: a temporary file in the same directory,
// synced, then renamed over the name (a rename replaces a link, it never follows one).
func (d *destDir) write(data []byte, mode fs.FileMode) (err error) {
	dirfd := int(d.f.Fd())
	tmp := d.tempName()
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
	if err = d.fillTemp(f, data, mode); err != nil {
		return err
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

//go:build !unix

package instructions

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Without openat (Windows) the destination is reached through an os.Root of its
// directory: names stay inside it, and the final name is checked with Lstat before it is
// opened, so a link planted at the name after the preview is refused. There is no
// directory lock: two vouch writers of one target are not serialized on this platform.

func lockDir(f *os.File) error { return nil }

func (d *destDir) close() { d.f.Close() }

func (d *destDir) root() (*os.Root, error) { return os.OpenRoot(filepath.Dir(d.path)) }

func (d *destDir) read() (data []byte, exists bool, mode fs.FileMode, err error) {
	r, err := d.root()
	if err != nil {
		return nil, false, 0, err
	}
	defer r.Close()
	st, err := r.Lstat(d.base)
	if os.IsNotExist(err) {
		return nil, false, 0, nil
	}
	if err != nil {
		return nil, false, 0, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, true, 0, fmt.Errorf("%w: %s became a symbolic link after the preview; preview again", ErrChanged, d.path)
	}
	if err := d.checkTarget(st); err != nil {
		return nil, true, 0, err
	}
	f, err := r.Open(d.base)
	if err != nil {
		return nil, true, 0, err
	}
	defer f.Close()
	return d.readTarget(f, st)
}

func (d *destDir) write(data []byte, mode fs.FileMode) (err error) {
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	tmp := d.tempName()
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", filepath.Dir(d.path), err)
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if err = d.fillTemp(f, data, mode); err != nil {
		return err
	}
	if err = r.Rename(tmp, d.base); err != nil {
		return fmt.Errorf("cannot replace %s: %w", d.path, err)
	}
	return nil
}

func (d *destDir) remove() error {
	r, err := d.root()
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Remove(d.base); err != nil {
		return &fs.PathError{Op: "remove", Path: d.path, Err: err}
	}
	return nil
}

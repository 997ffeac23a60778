// Package atomicfile holds the few file operations every writer in vouch shares: a
// bounded read that refuses anything but a regular file (a FIFO is never waited on), an
// atomic replace (temporary file in the same directory, fsync, rename, fsync the
// directory), an exclusive lock that the system releases when its holder dies, and Edit,
// the read-modify-write of a file another program also owns (the clients' settings).
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"vouch/internal/boundedread"
)

// ReadRegular reads at most limit bytes of a regular file, failing rather than
// truncating. The open does not block: a FIFO under the file's name (a team ledger or a
// settings file comes with a repository) fails the regular-file test instead of waiting
// for a writer.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from fstat: io.ReadAll alone doubles its way up, clearing and copying a
	// large file several times over.
	data, err := boundedread.Read(f, st.Size(), limit)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

// OpenRegular opens path for reading without waiting on it and refuses anything but a
// regular file, checked on the opened file: for a caller that reads the file itself (a
// ledger identified by its descriptor before its bytes are read).
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlockingOpen, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, st, nil
}

// Write replaces path with data: temporary file in the same directory, fsync, rename,
// fsync the directory. A failure at any step leaves the old file as it was.
func Write(path string, data []byte, perm os.FileMode) error {
	if err := WriteFlushed(path, data, perm); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteFlushed is Write without the flush of the directory, for callers that flush each
// directory once after many files.
func WriteFlushed(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("cannot flush %s to disk: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("cannot set the mode of %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cannot replace %s: %w", path, err)
	}
	return nil
}

// SyncDir flushes a directory's entries (a rename into it) to disk.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("cannot open %s to flush it: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("cannot flush directory %s: %w", dir, err)
	}
	return nil
}

// Lock takes an exclusive lock on the file p, creating it. The system releases it when
// a process dies, so a killed writer never leaves a file locked. Holding the lock, no
// writer is mid-write, so temporary files matching the glob stale ("" for none) were
// orphaned by a killed process and are removed.
func Lock(p, stale string) (unlock func(), err error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open lock file %s (is its directory writable?): %w", p, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s: %w", p, err)
	}
	if stale != "" {
		if olds, _ := filepath.Glob(stale); len(olds) > 0 {
			for _, s := range olds {
				os.Remove(s)
			}
		}
	}
	return func() {
		unlockFile(f)
		f.Close()
	}, nil
}

// Edit is the read-modify-write of a file that other programs also write (a client's
// settings): it takes the lock file lockPath, reads path afresh (missing is an empty,
// absent file; anything but a regular file is refused), hands the bytes to change, and
// replaces the file atomically with what change returns, keeping its mode (perm for a
// new file). When change returns the same bytes, or ErrUnchanged, nothing is written.
// The read happens under the lock, so two vouch processes never lose each other's
// change; a crash leaves the old file or the new one, never a mix.
func Edit(path, lockPath string, limit int64, perm os.FileMode, change func(old []byte, exists bool) ([]byte, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	unlock, err := Lock(lockPath, filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp"))
	if err != nil {
		return err
	}
	defer unlock()
	old, err := ReadRegular(path, limit)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	if exists {
		if st, err := os.Stat(path); err == nil {
			perm = st.Mode().Perm()
		}
	}
	next, err := change(old, exists)
	if errors.Is(err, ErrUnchanged) || err == nil && exists && bytes.Equal(next, old) {
		return nil
	}
	if err != nil {
		return err
	}
	return Write(path, next, perm)
}

// ErrUnchanged, returned by an Edit's change function, leaves the file as it is.
var ErrUnchanged = errors.New("unchanged")

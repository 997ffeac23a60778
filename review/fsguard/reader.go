package fsguard

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
)

// DirReader serves a loaded package's bytes to trust (model.FileReader and
// model.LinkReader) through the same bounded, contained reads as loading. It opens the
// root per call rather than holding a descriptor for every loaded package: a collection
// can hold thousands.
type DirReader struct {
	Dir    string // the package root, as Root.Path returned it
	Limits Limits
}

// ReadFile reads the file at the slash path rel below the root.
func (r *DirReader) ReadFile(rel string) ([]byte, error) {
	root, err := Open(r.Dir, r.Limits)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(rel, 0)
}

// ReadLink returns what the symlink at rel holds now, so a link retargeted after the
// package was loaded is seen.
func (r *DirReader) ReadLink(rel string) (string, error) {
	root, err := Open(r.Dir, r.Limits)
	if err != nil {
		return "", err
	}
	defer root.Close()
	return root.Readlink(rel)
}

// MemReader serves the files of a package decoded in memory (an archive or a bundle file)
// to trust, as DirReader serves a folder's. Of names what holds them in the refusal of a
// path that is not among them ("is not a file of the bundle").
type MemReader struct {
	Files map[string][]byte
	Of    string
}

// ReadFile returns a copy of the file at the slash path rel, so the caller cannot change
// the decoded package.
func (m MemReader) ReadFile(rel string) ([]byte, error) {
	b, ok := m.Files[rel]
	if !ok {
		return nil, &Error{Code: CodeNotFound, Path: rel, Msg: "is not a file of " + m.Of}
	}
	return bytes.Clone(b), nil
}

// ReadUserFile reads at most max bytes of a file the user named on the command line (an
// archive or bundle given as SOURCE, whose path is the user's own, not package text).
// Roots are directories, so such a file is opened here: O_NONBLOCK so a FIFO cannot
// block, regular files only, never more than max bytes. size is the file's size.
func ReadUserFile(p string, max int64) (data []byte, size int64, err error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, errors.New("not a regular file")
	}
	data, err = io.ReadAll(io.LimitReader(f, max))
	return data, st.Size(), err
}

// CodeSuffix turns a refusal into the tail of a loader's diagnostic code
// ("mcp-command-" + "dangling-symlink"), one spelling for every loader.
func CodeSuffix(err error) string {
	switch CodeOf(err) {
	case CodeNotFound:
		return "missing"
	case CodeEscape:
		return "escape"
	case CodeDangling:
		return "dangling-symlink"
	case CodeLoop:
		return "symlink-loop"
	case CodeNotRegular:
		return "not-regular-file"
	case CodeNotDir:
		return "not-directory"
	case CodeTooLarge:
		return "too-large"
	case CodeTooMany:
		return "too-many-entries"
	case CodeTooDeep:
		return "too-deep"
	case CodeTotalExceeded:
		return "package-too-large"
	case CodeBadPath:
		return "bad-path"
	}
	return "unreadable"
}

// Reason is a refusal's message without its path (which the caller's message names).
func Reason(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}

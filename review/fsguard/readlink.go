package fsguard

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Readlink returns the target a symlink inside the root holds, exactly as stored (it is
// not resolved or checked: Resolve says where it leads). The link's parent directories
// are resolved with containment; a path that is not a symlink is CodeNotRegular.
// Closures bind links by this text, so retargeting one changes a digest.
func (r *Root) Readlink(rel string) (string, error) {
	e, err := r.Lstat(rel)
	if err != nil {
		return "", err
	}
	if !e.Symlink {
		return "", &Error{Code: CodeNotRegular, Path: e.Rel, Msg: "is not a symlink"}
	}
	dir, base := path.Split(strings.TrimRight(rel, "/"))
	realDir := ""
	if dir != "" {
		d, err := r.Resolve(strings.TrimSuffix(dir, "/"))
		if err != nil {
			return "", err
		}
		if d != "." {
			realDir = d
		}
	}
	target, err := inDir(r, realDir, func(h dirHandle) (string, error) { return h.readlink(base) })
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", &Error{Code: CodeNotFound, Path: e.Rel, Msg: "does not exist"}
		}
		return "", &Error{Code: CodeIO, Path: e.Rel, Msg: err.Error()}
	}
	return target, nil
}

// Package probe answers the questions format detection asks of a folder ("is there a
// plugin.json?", "is .claude-plugin a directory?") from one listing of each folder asked
// about, where each question used to be an Lstat of its own: discovery asks about a
// dozen names of every folder it meets, nearly all of them absent, so a 1,000-package
// source cost 17,000 system calls before anything was loaded.
//
// Every answer is what os.Lstat of the joined path would say; where a listing cannot
// say it for certain, the probe asks os.Lstat. That is the case for a name that exists
// only in another letter case (a case-insensitive file system finds it), a path through
// a symlinked or unlistable folder, and a folder too large to list within the bound.
// A Dir is for one detection: it never sees changes made after its folders were listed.
package probe

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxEntries bounds a listing: a folder with more entries is answered by Lstat.
const maxEntries = 4096

// Dir probes one folder and the folders below it.
type Dir struct {
	path  string
	lists map[string]*listing // by slash path below path ("" for path itself)
}

type listing struct {
	ok    bool                   // complete: an absent name is absent
	types map[string]fs.FileMode // name -> type bits, as Lstat reports them
	folds map[string]bool        // lowercased names, built on the first miss
}

// New returns a probe of dir. Nothing is read until a question is asked.
func New(dir string) *Dir { return &Dir{path: dir} }

// Path is the folder probed.
func (d *Dir) Path() string { return d.path }

// Exists reports whether os.Lstat(Path/rel) succeeds. rel is a clean slash path.
func (d *Dir) Exists(rel string) bool {
	_, ok := d.lstat(rel)
	return ok
}

// IsDir reports whether Path/rel is a directory, not a symlink to one (Lstat).
func (d *Dir) IsDir(rel string) bool {
	t, ok := d.lstat(rel)
	return ok && t.IsDir()
}

// IsFileOrOther reports whether Path/rel exists and is not a directory (Lstat): a file,
// a symlink or a special file, as a manifest test that refuses only directories asks.
func (d *Dir) IsFileOrOther(rel string) bool {
	t, ok := d.lstat(rel)
	return ok && !t.IsDir()
}

// lstat answers Lstat(Path/rel) with the type bits of the entry.
func (d *Dir) lstat(rel string) (fs.FileMode, bool) {
	parent, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		parent, name = rel[:i], rel[i+1:]
		t, ok := d.lstat(parent)
		switch {
		case !ok:
			return 0, false // nothing below a missing folder
		case t&fs.ModeSymlink != 0:
			return d.real(rel) // Lstat follows a link on the way
		case !t.IsDir():
			return 0, false // a file on the way: ENOTDIR
		}
	}
	l := d.list(parent)
	if t, ok := l.types[name]; ok {
		return t, true
	}
	if !l.ok || l.foldMatch(name) {
		return d.real(rel)
	}
	return 0, false
}

func (d *Dir) real(rel string) (fs.FileMode, bool) {
	st, err := os.Lstat(filepath.Join(d.path, filepath.FromSlash(rel)))
	if err != nil {
		return 0, false
	}
	return st.Mode().Type(), true
}

// list reads the folder rel once (the caller knows it is a directory or Path itself).
func (d *Dir) list(rel string) *listing {
	if l, ok := d.lists[rel]; ok {
		return l
	}
	if d.lists == nil {
		d.lists = map[string]*listing{}
	}
	l := &listing{types: map[string]fs.FileMode{}}
	d.lists[rel] = l
	l.ok = readNames(filepath.Join(d.path, filepath.FromSlash(rel)), l.types)
	return l
}

// foldMatch reports whether the listing holds name in another letter case: a
// case-insensitive file system's Lstat finds it, so the probe asks Lstat. A small
// listing is looked through; a large one is indexed on the first miss.
func (l *listing) foldMatch(name string) bool {
	if len(l.types) <= 32 {
		for n := range l.types {
			if strings.EqualFold(n, name) {
				return true
			}
		}
		return false
	}
	if l.folds == nil {
		l.folds = make(map[string]bool, len(l.types))
		for n := range l.types {
			l.folds[strings.ToLower(n)] = true
		}
	}
	return l.folds[strings.ToLower(name)]
}

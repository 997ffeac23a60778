package fsguard

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

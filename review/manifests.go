package review

import (
	"os"
	"path/filepath"
	"sort"
)

// ManifestFile is the file a report points at for a package of format rooted at dir
// when a finding has no file of its own: the format's manifest when it exists (any
// format's, in table order, when format is ""), else the first regular file in dir by
// name, else "". Code scanning places results in files only.
func ManifestFile(format, dir string) string {
	for _, f := range formats {
		if format != "" && string(f.name) != format {
			continue
		}
		for _, m := range f.manifests {
			p := filepath.Join(dir, filepath.FromSlash(m))
			if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if e.Type().IsRegular() {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

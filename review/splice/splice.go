// Package splice loads Splice v1 packages: manifest.json directories, deterministic
// .tar.gz archives and legacy splice-bundle JSON files.
package splice

import (
	"vouch/model"
	"vouch/review/fsguard"
)

// Options configure the loader.
type Options struct {
	Limits fsguard.Limits
}

// IsPackageDir reports whether dir is a Splice package directory (it holds manifest.json).
func IsPackageDir(dir string) bool { return false }

// IsArtifact reports whether path is a Splice archive (gzip magic) or bundle, by content.
func IsArtifact(path string, limits fsguard.Limits) bool { return false }

// Load reviews the package directory, archive or bundle at path.
func Load(path string, opts Options) *model.Package {
	return &model.Package{Format: model.FormatSplice, Root: path}
}

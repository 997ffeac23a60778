// Package dalo loads Portable Agent Packages draft 0.1 sources: plugins/<name>/PLUGIN.toml
// with tools, hooks, members and requires, skills/ and instructions/.
package dalo

import (
	"vouch/model"
	"vouch/review/fsguard"
)

// Options configure the loader.
type Options struct {
	SourceID string // source identity used in references (default "validation")
	Limits   fsguard.Limits
}

// IsSource reports whether dir is a Dalo source (it holds plugins/<name>/PLUGIN.toml).
func IsSource(dir string) bool { return false }

// Load reviews every package of the source at dir.
func Load(dir string, opts Options) []*model.Package { return nil }

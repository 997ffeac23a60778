//go:build !linux || vouch_osroot

package fsguard

// exactListings is false where file systems commonly fold case or normalization
// (macOS, Windows): only lstat says whether a name exists.
const exactListings = false

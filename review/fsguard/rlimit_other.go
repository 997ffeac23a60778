//go:build !unix

package fsguard

// openFileLimit: Windows bounds handles per process in the millions, not by a small
// descriptor limit, so the handle budget is its own cap.
func openFileLimit() int64 { return 1 << 16 }

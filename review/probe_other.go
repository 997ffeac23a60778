//go:build !unix

package review

// probeOpenFlags: Windows has neither flag; the Lstat before the open and the Stat after
// it refuse anything but a regular file.
const probeOpenFlags = 0

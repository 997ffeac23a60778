//go:build unix

package review

import "syscall"

// probeOpenFlags open a manifest for a name probe without following a link or waiting on
// a FIFO.
const probeOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

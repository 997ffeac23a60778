//go:build unix

package codex

import "syscall"

// nonBlocking keeps an open from waiting on a FIFO swapped in under a file's name.
const nonBlocking = syscall.O_NONBLOCK

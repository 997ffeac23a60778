//go:build unix

package trust

import "syscall"

// nonBlockingOpen is O_NONBLOCK: opening a FIFO for reading returns at once.
const nonBlockingOpen = syscall.O_NONBLOCK

//go:build unix

package main

import "syscall"

// nonBlock opens a file without waiting on it: a FIFO swapped in after the check that
// refused one cannot hang the open.
const nonBlock = syscall.O_NONBLOCK

//go:build !unix

package main

// nonBlock is 0 where opening a FIFO does not wait for a writer.
const nonBlock = 0

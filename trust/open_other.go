//go:build !unix

package trust

// nonBlockingOpen: Windows has no FIFOs under file names.
const nonBlockingOpen = 0

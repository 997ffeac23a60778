//go:build !unix

package codex

const nonBlocking = 0

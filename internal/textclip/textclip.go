// Package textclip shortens text for messages and reports without cutting inside a
// character. A character here is what a reader sees as one: a grapheme cluster (a letter
// with its combining marks, an emoji sequence joined by ZWJ, a flag, a CJK character), so
// a cut never splits a UTF-8 sequence and never leaves a mark without its letter.
// Invalid UTF-8 counts one character per byte that cannot be decoded.
package textclip

import "github.com/rivo/uniseg"

// Clip returns s when it has at most max characters. Otherwise it returns the longest
// prefix of s that leaves room for mark, followed by mark, so the result has at most max
// characters (mark alone when max leaves no room for any of s).
func Clip(s string, max int, mark string) string {
	if len(s) <= max {
		return s // no more bytes than max, so no more characters
	}
	keep := max - Count(mark)
	if keep < 0 {
		keep = 0
	}
	cut, n, state := 0, 0, -1
	for rest := s; rest != ""; n++ {
		if n == keep {
			cut = len(s) - len(rest)
		}
		if n == max {
			return s[:cut] + mark
		}
		_, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
	}
	return s
}

// Cut splits s after its first n characters: the head, and how many characters follow
// it (0 when s has at most n).
func Cut(s string, n int) (head string, more int) {
	if len(s) <= n {
		return s, 0
	}
	i, state := 0, -1
	for rest := s; rest != ""; i++ {
		if i == n {
			return s[:len(s)-len(rest)], Count(rest)
		}
		_, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
	}
	return s, 0
}

// Count is the number of characters in s.
func Count(s string) int {
	return uniseg.GraphemeClusterCount(s)
}

// Package lazyre holds regular expressions compiled on first use. Every vouch command
// links every format's loader, and compiling their thirty-odd package-level patterns at
// start-up cost each call of the dispatch-time gate about a millisecond, mostly for
// formats the source does not hold.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used; an invalid
// pattern panics then, as regexp.MustCompile would have at start-up (the patterns are
// the program's own, and a test that uses each one finds a bad one).
type Regexp struct{ re func() *regexp.Regexp }

// New returns expr, to be compiled on first use.
func New(expr string) *Regexp {
	return &Regexp{sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (l *Regexp) MatchString(s string) bool            { return l.re().MatchString(s) }
func (l *Regexp) Match(b []byte) bool                  { return l.re().Match(b) }
func (l *Regexp) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }
func (l *Regexp) FindSubmatch(b []byte) [][]byte       { return l.re().FindSubmatch(b) }
func (l *Regexp) FindStringIndex(s string) []int       { return l.re().FindStringIndex(s) }
func (l *Regexp) ReplaceAllString(src, repl string) string {
	return l.re().ReplaceAllString(src, repl)
}
func (l *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}

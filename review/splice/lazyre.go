package splice

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. Every vouch command links this
// package (check and validate read Splice packages), and compiling the manifest rules at
// start-up would cost each call of the dispatch-time gate, which never meets a Splice
// package in most sources.
type lazyRE struct{ re func() *regexp.Regexp }

func lazyRegexp(expr string) lazyRE {
	return lazyRE{sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (l lazyRE) MatchString(s string) bool            { return l.re().MatchString(s) }
func (l lazyRE) Match(b []byte) bool                  { return l.re().Match(b) }
func (l lazyRE) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }

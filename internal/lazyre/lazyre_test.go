package lazyre

import (
	"regexp"
	"sync"
	"testing"
)

// TestSameAnswersAsRegexp: each method answers as the compiled expression does, also
// when first used from many goroutines at once.
func TestSameAnswersAsRegexp(t *testing.T) {
	const expr = `\$\{([A-Za-z_]+)\}`
	in := "a ${HOME} b ${USER}"
	want := regexp.MustCompile(expr)
	l := New(expr)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); l.MatchString(in) }()
	}
	wg.Wait()
	if l.MatchString(in) != want.MatchString(in) || l.Match([]byte("x")) != want.Match([]byte("x")) ||
		l.ReplaceAllString(in, "$1") != want.ReplaceAllString(in, "$1") ||
		len(l.FindAllStringSubmatch(in, -1)) != 2 || l.FindStringSubmatch(in)[1] != "HOME" ||
		string(l.FindSubmatch([]byte(in))[1]) != "HOME" || l.FindStringIndex(in)[0] != 2 ||
		len(l.FindAllStringIndex(in, -1)) != 2 || l.re().String() != expr {
		t.Fatal("a lazy expression answers unlike the compiled one")
	}
}

// TestBadPatternPanicsOnUse: nothing is compiled until used.
func TestBadPatternPanicsOnUse(t *testing.T) {
	l := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid pattern did not panic on first use")
		}
	}()
	l.MatchString("x")
}

package codex

import (
	"regexp/syntax"
	"strings"

	"vouch/internal/lazyre"
)

// matcherIgnored are the events whose matcher Codex drops before it validates or hashes
// it (matcher_pattern_for_event: UserPromptSubmit [obs], Stop by the same table).
var matcherIgnored = map[string]bool{"UserPromptSubmit": true, "Stop": true}

// checkMatcher says whether Codex accepts a matcher (a Rust `regex` pattern) and notes
// where vouch's check, done with Go's regexp/syntax, may differ from Rust's:
//
//   - "*" is not a regex in either language, yet Codex accepts it [obs] (it and "" match
//     every name);
//   - Go rejects counted repetition above 1000 (a{1001}) and the verbose and Unicode flags
//     (?x), (?u), which Rust accepts: vouch accepts them with a note;
//   - Go accepts \Q…\E literal quoting, which Rust rejects: vouch rejects it as Rust does;
//   - both accept [a&&b] and [a--b], but Rust reads class intersection and difference
//     where Go reads literal characters, and \d, \w, \s are Unicode-aware in Rust and ASCII
//     in Go: the pattern is valid in both but matches differently, so vouch notes it.
//
// ok false means Codex skips the whole matcher group with "regex parse error".
func checkMatcher(m string) (ok bool, note string) {
	if m == "" || m == "*" {
		return true, ""
	}
	if strings.Contains(m, `\Q`) {
		return false, `Rust's regex does not support \Q…\E quoting`
	}
	_, err := syntax.Parse(m, syntax.Perl)
	if err != nil {
		if se, isSyntax := err.(*syntax.Error); isSyntax {
			switch {
			case se.Code == syntax.ErrInvalidRepeatSize:
				return true, "Rust accepts counts above 1000 that Go's checker refuses; vouch could not check this pattern further"
			case se.Code == syntax.ErrMissingRepeatArgument && strings.HasPrefix(m, "*"):
				return false, "a pattern cannot start with *"
			case se.Code == syntax.ErrInvalidPerlOp && rustFlags.MatchString(m):
				return true, "the pattern uses a flag (x or u) that Rust's regex has and Go's does not; vouch could not check it further"
			}
		}
		return false, err.Error()
	}
	if strings.Contains(m, "&&") || strings.Contains(m, "--") || strings.Contains(m, "~~") || unicodeClass.MatchString(m) {
		return true, "Rust reads this pattern with Unicode classes and class set operations, so what it matches can differ from a Go or JavaScript reading"
	}
	return true, ""
}

var (
	rustFlags    = lazyre.New(`\(\?[a-zA-Z-]*[xu]`)
	unicodeClass = lazyre.New(`\\[dwsbDWSB]`)
)

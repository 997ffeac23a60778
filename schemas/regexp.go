package schemas

import (
	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ECMARegexp is the regexp engine for every embedded schema (jsonschema's
// Compiler.UseRegexpEngine). JSON Schema 2020-12 patterns are ECMA-262 regular
// expressions, with Unicode semantics (the "u" flag, as the JSON Schema test suite's
// ecmascript-regex cases expect), and the upstream schemas are checked by JavaScript
// validators. Go's RE2 differs where it matters for a reviewer: its \s is ASCII only, so
// Dalo's "description": {"pattern": "\\S"} would accept a description made only of
// U+00A0 or U+3000, which JavaScript calls blank. regexp2's ECMAScript mode matches
// JavaScript's classes: \s is WhiteSpace and LineTerminator (U+0009–U+000D, U+0020,
// U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF), \d
// and \w are ASCII, and "." excludes the four line terminators. regexp_test.go checks each
// class against JavaScript over the whole Basic Multilingual Plane.
//
// regexp2 backtracks, so what bounds a match matters. The patterns are the embedded
// schemas' own, fixed and reviewed when a schema is added: each is anchored or a single
// class, linear in its input, and values are bounded by the loaders (16 KiB strings). A
// match that still exceeds regexp2's backtracking stack (a count, the same on every
// machine) counts as "does not match", the conservative verdict. No match timeout is
// set: a verdict must not depend on how busy the machine is.
func ECMARegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		return nil, err
	}
	return (*ecmaRegexp)(re), nil
}

type ecmaRegexp regexp2.Regexp

func (re *ecmaRegexp) MatchString(s string) bool {
	ok, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && ok
}

func (re *ecmaRegexp) String() string { return (*regexp2.Regexp)(re).String() }

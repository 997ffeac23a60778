package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// escapeLine is replaced by ui/display once it lands.
func escapeLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "⟨%02X⟩", s[i])
		} else if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		} else {
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

package model

import "unicode"

// IsHiddenRune reports whether r is a character a reader cannot see, or that changes what
// they see: C0 controls other than newline and tab, DEL, C1 controls, format characters
// (bidi controls, zero-width characters, BOM, soft hyphen, tag characters), line and
// paragraph separators, variation selectors and other default-ignorable code points
// (Hangul fillers, CGJ). It is the one definition shared by the loaders, which list such
// characters as hidden content, and the console, which turns them into visible tokens, so
// the list a reviewer reads and the count on screen always agree.
func IsHiddenRune(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r < 0x7f:
		return false
	case r <= 0x9f: // DEL and C1
		return true
	case r < 0xad: // Latin-1 up to the soft hyphen is visible
		return false
	}
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

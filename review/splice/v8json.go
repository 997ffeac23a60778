package splice

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"vouch/review/jsontext"
)

// Splice reports a manifest that is not JSON with JSON.parse's own message, and its
// reference engine is Node 20 (V8 11.3). jsontext decides whether a text is JSON and where
// it stopped; this file words that stop as V8's JsonParser would have, which takes a little
// context around the stop: V8 gives a different message for the first member of an object
// than for later ones, reports a literal or a leading zero where it noticed the problem
// rather than where the value started, and quotes part of the text in its "Unexpected
// token" messages. Positions count UTF-16 code units of the decoded text, as JavaScript
// string indexes do.
//
// Not reproduced: a message quoting half of a surrogate pair (an astral character right
// after a backslash) holds a lone surrogate, which a Go string cannot; it shows U+FFFD.

// JSONParseError is a text JSON.parse refuses, worded as Node 20 words it.
type JSONParseError struct {
	Msg     string // JSON.parse's message
	Offset  int    // byte offset in the text where the parse stopped
	TooDeep bool   // valid for JSON.parse, but nested beyond what vouch reads
}

func (e *JSONParseError) Error() string { return e.Msg }

// V8's kMaxContextCharacters and kMinOriginalSourceLengthForContext (json-parser.h).
const (
	v8ContextChars    = 10
	v8MinContextInput = 2*v8ContextChars + 1
)

// jsParseError words jsontext's refusal of text as JSON.parse does.
func jsParseError(text string, e *jsontext.Error) error {
	if e.Reason == jsontext.ReasonTooDeep {
		return &JSONParseError{TooDeep: true, Offset: e.Off,
			Msg: fmt.Sprintf("nests deeper than %d levels at position %d", maxJSONDepth, v8Units(text[:e.Off]))}
	}
	return &JSONParseError{Msg: v8Message(text, e), Offset: e.Off}
}

// v8Message is the message V8 11.3 throws for text, which jsontext refused with e.
func v8Message(text string, e *jsontext.Error) string {
	off := min(max(e.Off, 0), len(text))
	at := func(msg string, byteOff int) string {
		return fmt.Sprintf("%s in JSON at position %d", msg, v8Units(text[:byteOff]))
	}
	const eos = "Unexpected end of JSON input"
	switch e.Reason {
	case jsontext.ReasonEOF:
		return eos
	case jsontext.ReasonTrailing:
		if leadingZero(text, off) {
			return at("Unexpected number", off)
		}
		return fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d", v8Units(text[:off]))
	case jsontext.ReasonUnexpected:
		return v8Unexpected(text, off)
	case jsontext.ReasonLiteral:
		// V8 compares the rest of the word and stops at the first character that differs.
		word := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[text[off]]
		k := off + 1
		for i := 1; i < len(word) && k < len(text) && text[k] == word[i]; i++ {
			k++
		}
		if k == len(text) {
			return eos
		}
		return v8Unexpected(text, k)
	case jsontext.ReasonNumberDigits:
		return at("No number after minus sign", off)
	case jsontext.ReasonNumberFraction:
		return at("Unterminated fractional number", off)
	case jsontext.ReasonNumberExponent:
		return at("Exponent part is missing a number", off)
	case jsontext.ReasonControl:
		return at("Bad control character in string literal", off)
	case jsontext.ReasonEOFString:
		if off < len(text) {
			return eos // a backslash is the last character: V8 reads the end as the escape
		}
		return at("Unterminated string", off)
	case jsontext.ReasonUnicodeEscape:
		// V8 reads up to four hex digits and stops at the first that is not one.
		k := off
		for k < len(text) && k < off+4 && isHex(text[k]) {
			k++
		}
		return at("Bad Unicode escape", k)
	case jsontext.ReasonEscape:
		// A character past Latin-1 after a backslash is an unexpected token to V8; any
		// other is a bad escape.
		if r, _ := utf8.DecodeRuneInString(text[off:]); r <= 0xFF {
			return at("Bad escaped character", off)
		}
		return v8Unexpected(text, off)
	case jsontext.ReasonMemberName:
		if prevNonSpace(text, off) == '{' {
			return at("Expected property name or '}'", off)
		}
		return at("Expected double-quoted property name", off)
	case jsontext.ReasonColon:
		if firstMember(text, off) {
			return at("Expected ':' after property name", off)
		}
		return v8Unexpected(text, off) // V8 expects the colon after later names without a message of its own
	case jsontext.ReasonEOFObject, jsontext.ReasonObjectSeparator:
		if leadingZero(text, off) {
			return at("Unexpected number", off)
		}
		return at("Expected ',' or '}' after property value", off)
	case jsontext.ReasonEOFArray, jsontext.ReasonArraySeparator:
		if leadingZero(text, off) {
			return at("Unexpected number", off)
		}
		return at("Expected ',' or ']' after array element", off)
	}
	return e.Msg // not reachable with jsonOptions (Lenient has no UTF-8 or BOM errors)
}

// v8Unexpected is V8's message for an unexpected token at byte offset off, with no message
// of the parser's own (LookUpErrorMessageForJsonToken).
func v8Unexpected(text string, off int) string {
	if off >= len(text) {
		return "Unexpected end of JSON input"
	}
	switch c := text[off]; {
	case c == '-' || c >= '0' && c <= '9':
		return fmt.Sprintf("Unexpected number in JSON at position %d", v8Units(text[:off]))
	case c == '"':
		return fmt.Sprintf("Unexpected string in JSON at position %d", v8Units(text[:off]))
	}
	switch text {
	case "[object Object]", "undefined", "Infinity", "NaN":
		return "\"" + text + "\" is not valid JSON"
	}
	units := v8Decode(text)
	pos := min(v8Units(text[:off]), len(units)-1)     // only differs when off splits an invalid sequence
	token := string(utf16.Decode(units[pos : pos+1])) // a lone surrogate becomes U+FFFD
	quote := func(from, to int) string { return string(utf16.Decode(units[from:to])) }
	n := len(units)
	switch {
	case n < v8MinContextInput:
		return fmt.Sprintf("Unexpected token '%s', \"%s\" is not valid JSON", token, quote(0, n))
	case pos < v8ContextChars:
		return fmt.Sprintf("Unexpected token '%s', \"%s\"... is not valid JSON", token, quote(0, pos+v8ContextChars))
	case pos < n-v8ContextChars:
		return fmt.Sprintf("Unexpected token '%s', ...\"%s\"... is not valid JSON", token, quote(pos-v8ContextChars, pos+v8ContextChars))
	default:
		return fmt.Sprintf("Unexpected token '%s', ...\"%s\" is not valid JSON", token, quote(pos-v8ContextChars, n))
	}
}

// leadingZero reports a digit right after a number's leading 0 ("01"), which V8 refuses
// inside the number ("Unexpected number") where jsontext ends the number at the 0.
// A digit after any other digit would have been part of the number.
func leadingZero(text string, off int) bool {
	return off > 0 && off < len(text) && text[off-1] == '0' && text[off] >= '0' && text[off] <= '9'
}

func prevNonSpace(text string, off int) byte {
	for i := off - 1; i >= 0; i-- {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return text[i]
		}
	}
	return 0
}

// firstMember reports whether the member name that ends before off (and whitespace) is
// the first of its object. It walks back over the name: in a JSON string every quote but
// the opening one follows an odd run of backslashes, and the opening one follows '{' or
// ',' (after whitespace), never a backslash. Each byte is looked at a bounded number of
// times.
func firstMember(text string, off int) bool {
	i := off - 1
	for i >= 0 && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i--
	}
	if i < 0 || text[i] != '"' {
		return false
	}
	for i--; i >= 0; i-- {
		if text[i] != '"' {
			continue
		}
		run := 0
		for j := i - 1; j >= 0 && text[j] == '\\'; j-- {
			run++
		}
		if run%2 == 0 {
			return prevNonSpace(text, i) == '{'
		}
		i -= run
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// v8Units is the length in UTF-16 code units of text as TextDecoder decodes it.
func v8Units(text string) int { return len(v8Decode(text)) }

// v8Decode decodes text as TextDecoder (WHATWG UTF-8, replacement mode) does, to UTF-16:
// each maximal invalid subsequence becomes one U+FFFD, where Go's decoder would give one
// per byte. Valid text decodes identically.
func v8Decode(text string) []uint16 {
	out := make([]uint16, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c < 0x80 {
			out = append(out, uint16(c))
			i++
			continue
		}
		if r, n := utf8.DecodeRuneInString(text[i:]); r != utf8.RuneError || n > 1 {
			out = utf16.AppendRune(out, r)
			i += n
			continue
		}
		// Invalid: skip the longest prefix of a well-formed sequence (WHATWG's bounds).
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c == 0xF4:
			need, hi = 3, 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		}
		j := i + 1
		for k := 0; k < need && j < len(text) && text[j] >= lo && text[j] <= hi; k++ {
			j++
			lo, hi = 0x80, 0xBF
		}
		out = append(out, utf8.RuneError)
		i = j
	}
	return out
}

package main

import (
	"strings"

	"vouch/review"
)

// helpWidth is the column the commands' help paragraphs wrap at.
const helpWidth = 96

// sourceForms is what a SOURCE may be, as a path-not-found error says it.
func sourceForms() string {
	return review.OrList(append(review.SourceForms(), "a directory that holds them"))
}

// wrapText breaks a paragraph into lines of at most width columns (a longer word stands
// alone on its line).
func wrapText(s string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		n := len([]rune(w))
		switch {
		case col == 0:
		case col+1+n > width:
			b.WriteString("\n")
			col = 0
		default:
			b.WriteString(" ")
			col++
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}

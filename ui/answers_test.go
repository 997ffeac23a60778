package ui

import (
	"testing"

	"vouch/model"
	"vouch/report"
)

// The console and the text report draw the same glyph and word for the same answer.
func TestConsoleAnswersAreTheReportTable(t *testing.T) {
	s := NewStyles(true)
	for _, a := range []model.Authorization{"", model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked, authNothing} {
		if got, want := authAnswer(&s, a), report.AuthAnswer(a); got.Glyph != want.Glyph || got.Word != want.Word {
			t.Errorf("authorization %q: console %s %s, report %s", a, got.Glyph, got.Word, want)
		}
	}
	for _, v := range []model.Validity{"", model.Valid, model.Invalid, model.Skipped, model.Unsupported} {
		if got, want := validityAnswer(&s, &model.Component{Validity: v}), report.ValidityAnswer(v); got.Glyph != want.Glyph || got.Word != want.Word {
			t.Errorf("validity %q: console %s %s, report %s", v, got.Glyph, got.Word, want)
		}
	}
}

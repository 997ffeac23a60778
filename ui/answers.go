package ui

import (
	"vouch/model"
	"vouch/report"
	"vouch/trust"

	"charm.land/lipgloss/v2"
)

// answer is one of the three answers as a glyph, a word and a style. Glyph and word come
// from report's answer table, which the text report prints too; the colour only repeats
// them.
type answer struct {
	Glyph, Word string
	Style       lipgloss.Style
}

func (a answer) render() string { return a.Style.Render(a.Glyph + " " + a.Word) }

// styled gives a table answer the console's style for its tone.
func styled(s *Styles, a report.Answer) answer {
	st := s.Dim
	switch a.Tone {
	case report.ToneGood:
		st = s.Good
	case report.ToneWarn:
		st = s.Warn
	case report.ToneBad:
		st = s.Bad
	case report.ToneInfo:
		st = s.Info
	}
	return answer{a.Glyph, a.Word, st}
}

func validityAnswer(s *Styles, c *model.Component) answer {
	return styled(s, report.ValidityAnswer(c.Validity))
}

func packageValidityAnswer(s *Styles, p *model.Package) answer {
	return styled(s, report.PackageValidityAnswer(p.Valid(), p.Rejected))
}

// supportAnswer folds the per-provider answers: supported by every provider that
// applies, by some ("partial"), by none, or no provider applies.
func supportAnswer(s *Styles, c *model.Component) answer {
	var yes, no int
	for _, sp := range c.Support {
		switch sp.Status {
		case model.Supported:
			yes++
		case model.NotSupported:
			no++
		}
	}
	return styled(s, report.SupportAnswer(yes, no))
}

// authNothing is the console's answer for a valid component with nothing to approve
// (inert data): not an authorization trust records, and not "blocked".
const authNothing = report.AuthNothing

func authAnswer(s *Styles, a model.Authorization) answer { return styled(s, report.AuthAnswer(a)) }

// needsReview reports whether a person still has to look at a component.
func needsReview(c *model.Component, st trust.Status) bool {
	if c.Contract == nil {
		return false
	}
	a := authOf(st)
	return a == model.Unreviewed || a == model.Changed
}

// authOf reads a status; an empty status (trust could not say) is "unreviewed".
func authOf(st trust.Status) model.Authorization {
	if st.Authorization == "" {
		return model.Unreviewed
	}
	return st.Authorization
}

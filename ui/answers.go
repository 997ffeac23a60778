package ui

import (
	"vouch/model"
	"vouch/trust"

	"charm.land/lipgloss/v2"
)

// answer is one of the three answers as a glyph, a word and a style: the glyph and the
// word carry the meaning, the colour only repeats it.
type answer struct {
	Glyph, Word string
	Style       lipgloss.Style
}

func (a answer) render() string { return a.Style.Render(a.Glyph + " " + a.Word) }

func validityAnswer(s *Styles, c *model.Component) answer {
	switch c.Validity {
	case model.Valid, "":
		return answer{"✓", "valid", s.Good}
	case model.Skipped:
		return answer{"–", "skipped", s.Warn}
	case model.Unsupported:
		return answer{"✗", "unsupported", s.Bad}
	default:
		return answer{"✗", "invalid", s.Bad}
	}
}

func packageValidityAnswer(s *Styles, p *model.Package) answer {
	if p.Rejected {
		return answer{"✗", "rejected", s.Bad}
	}
	if !p.Valid() {
		return answer{"✗", "invalid", s.Bad}
	}
	return answer{"✓", "valid", s.Good}
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
	switch {
	case yes > 0 && no == 0:
		return answer{"✓", "supported", s.Good}
	case yes > 0:
		return answer{"◐", "partial", s.Warn}
	case no > 0:
		return answer{"✗", "unsupported", s.Bad}
	}
	return answer{"–", "n/a", s.Dim}
}

// authNothing is the console's answer for a valid component with nothing to approve
// (inert data): not an authorization trust records, and not "blocked".
const authNothing model.Authorization = "nothing-to-approve"

func authAnswer(s *Styles, a model.Authorization) answer {
	switch a {
	case model.Approved:
		return answer{"✓", "approved", s.Good}
	case model.Changed:
		return answer{"△", "changed", s.Warn}
	case model.Revoked:
		return answer{"✗", "revoked", s.Bad}
	case model.Blocked:
		return answer{"⊘", "blocked", s.Bad}
	case authNothing:
		return answer{"–", "inert", s.Dim} // nothing to approve: not an alarm
	}
	return answer{"○", "unreviewed", s.Info}
}

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

package report

import "vouch/model"

// Tone is what an answer means for the person reading it; a terminal may colour it, but
// the glyph and the word carry the meaning on their own (colour is never the only signal).
type Tone int

const (
	ToneGood Tone = iota // nothing to do: valid, supported, approved
	ToneWarn             // look again: skipped, partial, changed
	ToneBad              // refused: invalid, unsupported, revoked, blocked
	ToneInfo             // waiting for a person: unreviewed
	ToneDim              // no answer applies: n/a, inert
)

// Answer is one of the three answers (valid, supported, authorized) as a glyph and a
// word. The text report and the console both draw answers from this table, so the same
// answer looks the same wherever it is shown.
type Answer struct {
	Glyph, Word string
	Tone        Tone
}

// String is the answer as the text report prints it: "✓ valid".
func (a Answer) String() string { return a.Glyph + " " + a.Word }

// ValidityAnswer is a component's first answer. An empty validity is "valid": a loader
// sets one only when the component is not.
func ValidityAnswer(v model.Validity) Answer {
	switch v {
	case model.Valid, "":
		return Answer{"✓", "valid", ToneGood}
	case model.Skipped:
		return Answer{"–", "skipped", ToneWarn}
	case model.Unsupported:
		return Answer{"✗", "unsupported", ToneBad}
	}
	return Answer{"✗", "invalid", ToneBad}
}

// PackageValidityAnswer is a package's verdict at the package boundary: rejected (not
// loaded at all), invalid or valid.
func PackageValidityAnswer(valid, rejected bool) Answer {
	switch {
	case rejected:
		return Answer{"✗", "rejected", ToneBad}
	case !valid:
		return Answer{"✗", "invalid", ToneBad}
	}
	return Answer{"✓", "valid", ToneGood}
}

// SupportAnswer folds the per-client support answers of a component: supported by every
// client that applies, by some ("partial"), by none, or no client applies.
func SupportAnswer(supported, notSupported int) Answer {
	switch {
	case supported > 0 && notSupported == 0:
		return Answer{"✓", "supported", ToneGood}
	case supported > 0:
		return Answer{"◐", "partial", ToneWarn}
	case notSupported > 0:
		return Answer{"✗", "unsupported", ToneBad}
	}
	return Answer{"–", "n/a", ToneDim}
}

// AuthNothing is the answer for a valid component with nothing to approve (inert data):
// not an authorization trust records, and not "blocked".
const AuthNothing model.Authorization = "nothing-to-approve"

// AuthAnswer is a component's third answer; an authorization trust did not give is
// "unreviewed".
func AuthAnswer(a model.Authorization) Answer {
	switch a {
	case model.Approved:
		return Answer{"✓", "approved", ToneGood}
	case model.Changed:
		return Answer{"△", "changed", ToneWarn}
	case model.Revoked:
		return Answer{"✗", "revoked", ToneBad}
	case model.Blocked:
		return Answer{"⊘", "blocked", ToneBad}
	case AuthNothing:
		return Answer{"–", "inert", ToneDim}
	}
	return Answer{"○", "unreviewed", ToneInfo}
}

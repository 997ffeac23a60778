package closure_test

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/closure"
	"vouch/review/jsontext"
)

// TestCutNoteKeepsFirstBoundIssue: only an entries bound makes a file cut, and the first
// such issue of a file is the reason kept.
func TestCutNoteKeepsFirstBoundIssue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		issues []jsontext.Issue
		want   map[string]string
	}{
		{"no issues", nil, nil},
		{"other issues", []jsontext.Issue{{Code: jsontext.CodeDuplicateKey, Msg: "dup"}}, nil},
		{"bound", []jsontext.Issue{{Code: jsontext.CodeDuplicateKey, Msg: "dup"}, {Code: jsontext.CodeTooManyEntries, Msg: "first"}, {Code: jsontext.CodeTooManyEntries, Msg: "second"}}, map[string]string{"a.json": "first"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c closure.Cut
			c.Note("a.json", tc.issues)
			if len(c) != len(tc.want) || c["a.json"] != tc.want["a.json"] {
				t.Fatalf("cut = %v, want %v", c, tc.want)
			}
		})
	}
}

// TestCutBlock: a component whose detail names a cut file loses its contract, gets the
// blocked sentence first in its summary and an entries-limit error; others are untouched.
func TestCutBlock(t *testing.T) {
	comp := func(file string, contract bool) *model.Component {
		c := &model.Component{Kind: model.KindHook, Summary: []string{"Runs."}, Details: model.Fields{{Key: "source", Value: file}}}
		if contract {
			c.Contract = &model.Contract{Kind: model.KindHook}
		}
		return c
	}
	for _, tc := range []struct {
		name    string
		cut     closure.Cut
		comp    *model.Component
		blocked bool
	}{
		{"cut file", closure.Cut{"hooks.json": "an array has more than 1024 elements"}, comp("hooks.json", true), true},
		{"other file", closure.Cut{"hooks.json": "x"}, comp("other.json", true), false},
		{"no contract", closure.Cut{"hooks.json": "x"}, comp("hooks.json", false), false},
		{"no cut", nil, comp("hooks.json", true), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hadContract := tc.comp.Contract != nil
			tc.cut.Block([]*model.Component{tc.comp}, "source", "Client 1.0", "spec 1")
			if !tc.blocked {
				if (tc.comp.Contract != nil) != hadContract || len(tc.comp.Summary) != 1 || len(tc.comp.Diagnostics) != 0 {
					t.Fatalf("component changed: %+v", tc.comp)
				}
				return
			}
			if tc.comp.Contract != nil {
				t.Fatal("a component of a cut file keeps its contract")
			}
			if s := tc.comp.Summary; len(s) != 2 || !strings.HasPrefix(s[0], "Blocked: hooks.json holds more than vouch reads (an array has more than 1024 elements), and Client 1.0 reads all of it") || s[1] != "Runs." {
				t.Fatalf("summary = %q", s)
			}
			if d := tc.comp.Diagnostics; len(d) != 1 || d[0].Code != "entries-limit" || d[0].Severity != model.SeverityError || d[0].Spec != "spec 1" || d[0].File != "hooks.json" {
				t.Fatalf("diagnostics = %+v", d)
			}
		})
	}
}

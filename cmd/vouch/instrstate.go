package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"vouch/model"
	"vouch/report"
	"vouch/trust"
	"vouch/trust/instructions"
)

// instrState is what the ledger and the intents say about instruction blocks in target
// files: which refs are active where, and which blocks an interrupted apply left
// unrecorded. Status, revoke and the gate read it so no block in force is invisible.
type instrState struct {
	active     map[string][]string // ref → targets where its activation is in force or its block is unrecorded
	unrecorded []instructions.Unrecorded
}

// readInstrState reads the personal ledger's activations and the home's intents. It
// never fails a command: an unreadable ledger is reported by the command itself.
func readInstrState(home string, decisions []trust.Decision) instrState {
	s := instrState{active: map[string][]string{}}
	for _, act := range instructions.Activations(decisions) {
		s.active[act.Ref] = append(s.active[act.Ref], act.Target)
	}
	s.unrecorded, _ = instructions.FindUnrecorded(home, decisions)
	for _, u := range s.unrecorded {
		if !slices.Contains(s.active[u.Ref], u.Target) {
			s.active[u.Ref] = append(s.active[u.Ref], u.Target)
		}
	}
	for _, ts := range s.active {
		sort.Strings(ts)
	}
	return s
}

// homeInstrState opens the personal ledger of the app's home for readInstrState.
func (a *app) homeInstrState() instrState {
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return instrState{active: map[string][]string{}}
	}
	tr, err := trust.Open(trust.Options{Home: home})
	if err != nil {
		return instrState{active: map[string][]string{}}
	}
	ds, err := tr.Decisions()
	if err != nil {
		return instrState{active: map[string][]string{}}
	}
	return readInstrState(home, ds)
}

// diagnostics reports each unrecorded block as a source warning, for status.
func (s instrState) diagnostics() []model.Diagnostic {
	var out []model.Diagnostic
	for _, u := range s.unrecorded {
		out = append(out, model.Diagnostic{Code: "instruction-block-unrecorded", Severity: model.SeverityWarning,
			Boundary: model.BoundarySource, File: u.Target, Line: u.StartLine,
			Message: fmt.Sprintf("%s: %s", u.Ref, u.Detail())})
	}
	return out
}

// gateFailure is one reason --require-approved fails.
type gateFailure struct {
	Ref           string `json:"ref,omitempty"`
	Package       string `json:"package,omitempty"`
	Authorization string `json:"authorization,omitempty"`
	Reason        string `json:"reason"`
}

// gateFailures is the CI gate: nothing when packages were found, the report is valid
// and every component that can run or stands in force is approved. Inert data needs no
// approval; an instruction needs it only when it is in force: active in a target (or left
// there by an interrupted apply), or required or optional, which a harness installing the
// package writes itself. A recommended instruction nobody enabled changes nothing.
func gateFailures(rep *report.Report, st instrState) []gateFailure {
	var out []gateFailure
	if len(rep.Packages) == 0 {
		out = append(out, gateFailure{Reason: "No package was found."})
	}
	for _, d := range rep.Diagnostics {
		if d.IsError() {
			out = append(out, gateFailure{Reason: fmt.Sprintf("%s: %s", d.Code, d.Message)})
		}
	}
	for _, p := range rep.Packages {
		if !p.Valid || p.Errors > 0 {
			why := "it is invalid"
			if p.Valid {
				why = "it is valid at its boundary but has errors"
			}
			out = append(out, gateFailure{Package: p.Name, Reason: fmt.Sprintf("Package %s (%s): %s, with %d error(s); run vouch validate for them.", p.Name, p.Path, why, p.Errors)})
		}
		for _, c := range p.Components {
			if c.Authorization == model.Approved {
				continue
			}
			if model.Kind(c.Kind).Inert() {
				continue // nothing of it runs, so nothing is approved
			}
			switch model.Kind(c.Kind) {
			case model.KindInstruction:
				if c.Inactive && len(st.active[c.Ref]) == 0 {
					continue // recommended and never enabled: in no target
				}
			}
			reason := c.Reason
			if reason == "" {
				reason = map[model.Authorization]string{
					model.Unreviewed: "No decision was recorded for it.",
					model.Revoked:    "Its approval was revoked.",
					model.Changed:    "Its bytes or contract changed since its approval.",
				}[c.Authorization]
			}
			if ts := st.active[c.Ref]; model.Kind(c.Kind) == model.KindInstruction && len(ts) > 0 {
				reason = strings.TrimSuffix(reason, ".") + "; it is active in " + strings.Join(ts, ", ") + "."
			}
			out = append(out, gateFailure{Ref: c.Ref, Authorization: string(c.Authorization), Reason: reason})
		}
	}
	if len(out) == 0 && !rep.Valid {
		out = append(out, gateFailure{Reason: "The report is not valid; run vouch validate for the reasons."})
	}
	return out
}

// printGateFailures says why the gate failed, one line per failure, on stderr.
func (a *app) printGateFailures(fs []gateFailure) {
	for _, f := range fs {
		if a.jsonErrors {
			writeJSON(a.stderr, map[string]any{"gate": f})
			continue
		}
		if f.Ref != "" {
			fmt.Fprintf(a.stderr, "vouch: not approved: %s is %s: %s\n", safe(f.Ref), f.Authorization, safe(midSentence(f.Reason)))
		} else {
			fmt.Fprintf(a.stderr, "vouch: not approved: %s\n", safe(f.Reason))
		}
	}
	if len(fs) > 0 && !a.jsonErrors {
		fmt.Fprintf(a.stderr, "vouch: --require-approved failed: %d reason(s) above.\n", len(fs))
	}
}

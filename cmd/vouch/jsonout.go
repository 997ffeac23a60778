package main

import (
	"encoding/json"
	"fmt"

	"vouch/model"
	"vouch/trust"
	"vouch/trust/instructions"
)

// The --json documents of the commands that print data, one type per command, each
// described in schemas/vouch/commands-v1.schema.json (embedded as schemas.CommandsV1;
// the tests validate every document against it). Every document carries schema_version
// and command, so a consumer reading several can tell them apart. Package text is printed
// as it is: JSON escapes control characters, and escaping it for a terminal would change
// the values a program compares.

const commandsSchemaVersion = 1

type docHead struct {
	SchemaVersion int    `json:"schema_version"`
	Command       string `json:"command"`
}

func head(cmd string) docHead { return docHead{SchemaVersion: commandsSchemaVersion, Command: cmd} }

type fieldJSON struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

func fieldsJSON(fs model.Fields) []fieldJSON {
	out := []fieldJSON{}
	for _, f := range fs {
		v, err := model.CanonicalJSON(f.Value)
		if err != nil {
			v, _ = json.Marshal(fmt.Sprintf("<%v>", err))
		}
		out = append(out, fieldJSON{Key: f.Key, Value: v})
	}
	return out
}

// jsonList is s for a list the schema requires: [] when empty, never null.
func jsonList[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// decideDoc is approve --json and revoke --json.
type decideDoc struct {
	docHead
	Action     string           `json:"action"`
	OnlyDigest string           `json:"only_digest,omitempty"`
	Recorded   bool             `json:"recorded"`
	Components []grantDoc       `json:"components"`
	Decisions  []trust.Decision `json:"decisions"`
}

type grantDoc struct {
	Ref        string             `json:"ref"`
	Kind       string             `json:"kind"`
	Digest     string             `json:"digest"`
	Status     string             `json:"status"`
	Decision   *trust.Decision    `json:"decision,omitempty"`
	Summary    []string           `json:"summary"`
	Contract   []fieldJSON        `json:"contract"`
	Files      []model.File       `json:"files"`
	NotCovered []model.NotCovered `json:"not_covered"`
	Requires   []requireDoc       `json:"requires"`
	Affected   []string           `json:"affected"`
	Refused    string             `json:"refused,omitempty"`
}

type requireDoc struct {
	Ref           string `json:"ref"`
	Authorization string `json:"authorization"`
	InCommand     bool   `json:"in_command"`
}

func grantJSON(action trust.Action, g trust.Grant, batch map[string]bool, refused string) grantDoc {
	d := grantDoc{Ref: g.Ref, Kind: string(g.Kind), Digest: g.Digest, Status: string(g.Status.Authorization), Decision: g.Status.Decision,
		Summary: jsonList(g.Summary), Contract: fieldsJSON(g.Fields), Files: jsonList(g.Files),
		NotCovered: []model.NotCovered{}, Requires: []requireDoc{}, Affected: []string{}, Refused: refused}
	if action == trust.ActionApprove {
		d.NotCovered = jsonList(g.NotCovered)
	} else {
		d.Affected = jsonList(g.Affected)
	}
	for _, r := range g.Requires {
		d.Requires = append(d.Requires, requireDoc{Ref: r.Ref, Authorization: string(r.Authorization), InCommand: batch[r.Ref]})
	}
	return d
}

// diffDoc is diff --json.
type diffDoc struct {
	docHead
	Ref            string          `json:"ref"`
	Authorization  string          `json:"authorization"`
	Changed        bool            `json:"changed"`
	Reason         string          `json:"reason,omitempty"`
	CurrentDigest  string          `json:"current_digest"`
	ApprovedDigest string          `json:"approved_digest,omitempty"`
	ApprovedBy     *trust.Decision `json:"approved_by,omitempty"`
	NotStored      bool            `json:"not_stored"`
	Fields         []fieldDiffDoc  `json:"fields"`
	Files          []fileDiffDoc   `json:"files"`
	Tools          []requireDoc    `json:"tools_not_approved"`
}

type fieldDiffDoc struct {
	Key string `json:"key"`
	Old string `json:"old"`
	New string `json:"new"`
}

type fileDiffDoc struct {
	Path                 string `json:"path"`
	Change               string `json:"change"`
	Unified              string `json:"unified,omitempty"`
	Binary               bool   `json:"binary"`
	Large                bool   `json:"large"`
	OldSize              int64  `json:"old_size"`
	NewSize              int64  `json:"new_size"`
	OldSHA256            string `json:"old_sha256,omitempty"`
	NewSHA256            string `json:"new_sha256,omitempty"`
	OldExec              bool   `json:"old_exec"`
	NewExec              bool   `json:"new_exec"`
	OldLink              string `json:"old_link,omitempty"`
	NewLink              string `json:"new_link,omitempty"`
	FirstDifferentOffset int64  `json:"first_different_offset"`
	Error                string `json:"error,omitempty"`
	NotStored            bool   `json:"not_stored"`
}

func newDiffDoc(ref string, st trust.Status) diffDoc {
	return diffDoc{docHead: head("diff"), Ref: ref, Authorization: string(st.Authorization), CurrentDigest: st.Digest,
		Reason: st.Reason, Fields: []fieldDiffDoc{}, Files: []fileDiffDoc{}, Tools: []requireDoc{}}
}

func (doc *diffDoc) add(d *trust.Diff) {
	doc.Changed = true
	doc.ApprovedDigest, doc.CurrentDigest, doc.NotStored = d.ApprovedDigest, d.CurrentDigest, d.NotStored
	by := d.ApprovedBy
	doc.ApprovedBy = &by
	for _, f := range d.Fields {
		doc.Fields = append(doc.Fields, fieldDiffDoc{Key: f.Key, Old: f.Old, New: f.New})
	}
	for _, f := range d.Files {
		doc.Files = append(doc.Files, fileDiffDoc{Path: f.Path, Change: f.Change, Unified: f.Unified, Binary: f.Binary, Large: f.Large,
			OldSize: f.OldSize, NewSize: f.NewSize, OldSHA256: f.OldSHA256, NewSHA256: f.NewSHA256, OldExec: f.OldExec, NewExec: f.NewExec,
			OldLink: f.OldLink, NewLink: f.NewLink, FirstDifferentOffset: f.FirstDifferentOffset, Error: f.Error, NotStored: f.NotStored})
	}
}

// checkDoc is check --json.
type checkDoc struct {
	docHead
	Ref           string             `json:"ref"`
	Approved      bool               `json:"approved"`
	Authorization string             `json:"authorization"`
	Digest        string             `json:"digest"`
	Reason        string             `json:"reason,omitempty"`
	Decision      *trust.Decision    `json:"decision,omitempty"`
	Needs         []string           `json:"needs"`
	NotCovered    []model.NotCovered `json:"not_covered"`
}

// stageDoc is stage --json.
type stageDoc struct {
	docHead
	Ref        string             `json:"ref"`
	Dir        string             `json:"dir"`
	Files      []model.File       `json:"files"`
	Skipped    []string           `json:"skipped"`
	NotCovered []model.NotCovered `json:"not_covered"`
}

// instrDoc is instructions preview|apply|remove --json.
type instrDoc struct {
	docHead
	Ref        string               `json:"ref"`
	BlockID    string               `json:"block_id"`
	Action     string               `json:"action"`
	Target     instrTargetDoc       `json:"target"`
	File       instrFileDoc         `json:"file"`
	Present    bool                 `json:"present"`
	NoChange   bool                 `json:"no_change"`
	Unrecorded bool                 `json:"unrecorded"`
	Conflict   *conflictDoc         `json:"conflict"`
	Foreign    []instructions.Block `json:"foreign_blocks"`
	Owned      []instructions.Block `json:"other_blocks"`
	Diff       string               `json:"diff"`
	Written    bool                 `json:"written"`
	Recorded   bool                 `json:"recorded"`
	Decision   *trust.Decision      `json:"decision,omitempty"`
}

// conflictDoc is a block edited by hand: the three versions, normalized to LF.
type conflictDoc struct {
	LastWritten string `json:"last_written"`
	Current     string `json:"current"`
	New         string `json:"new"`
}

type instrTargetDoc struct {
	Spec      string `json:"spec"`
	Path      string `json:"path"`
	Resolved  string `json:"resolved"`
	Linked    bool   `json:"linked"`
	AppliesTo string `json:"applies_to"`
}

type instrFileDoc struct {
	Exists bool   `json:"exists"`
	Bytes  int    `json:"bytes"`
	EOL    string `json:"eol"` // LF or CRLF
	BOM    bool   `json:"bom"`
}

func newInstrDoc(cmd string, ic *instrContext, p *instructions.Preview) instrDoc {
	eol := "LF"
	if p.EOL == "\r\n" {
		eol = "CRLF"
	}
	d := instrDoc{docHead: head("instructions " + cmd), Ref: ic.ref, BlockID: p.ID, Action: p.Action,
		Target:  instrTargetDoc{Spec: p.Target.Spec, Path: p.Target.Path, Resolved: p.Target.Resolved, Linked: p.Target.Linked(), AppliesTo: p.Target.AppliesTo},
		File:    instrFileDoc{Exists: p.Exists, Bytes: len(p.Before), EOL: eol, BOM: len(p.Before) >= 3 && string(p.Before[:3]) == "\xEF\xBB\xBF"},
		Present: p.Present, NoChange: p.NoChange, Unrecorded: ic.unrecorded,
		Foreign: jsonList(p.Foreign), Owned: jsonList(p.Owned), Diff: p.Diff}
	if c := p.Conflict; c != nil {
		d.Conflict = &conflictDoc{LastWritten: c.LastWritten, Current: c.Current, New: c.New}
	}
	return d
}

// instrListDoc is instructions list --json.
type instrListDoc struct {
	docHead
	Instructions []activeBlock `json:"instructions"`
}

// ledgerTrustDoc is ledger trust --json.
type ledgerTrustDoc struct {
	docHead
	Path          string              `json:"path"`
	Total         int                 `json:"total"`
	TrustedBefore int                 `json:"trusted_before"`
	Rewritten     bool                `json:"rewritten"`
	New           []trust.Decision    `json:"new"`
	Packages      []ledgerPackageDoc  `json:"packages"`
	Reviewers     []ledgerReviewerDoc `json:"reviewers"`
	Approved      int                 `json:"approved"`
	NothingNew    bool                `json:"nothing_new"`
	Trusted       bool                `json:"trusted"`
}

type ledgerPackageDoc struct {
	Package    string `json:"package"`
	Components int    `json:"components"`
	Approvals  int    `json:"approvals"`
	Revokes    int    `json:"revokes"`
}

type ledgerReviewerDoc struct {
	Reviewer  string `json:"reviewer"`
	Kind      string `json:"kind"`
	Decisions int    `json:"decisions"`
}

func newLedgerTrustDoc(s *trust.LedgerSummary) ledgerTrustDoc {
	d := ledgerTrustDoc{docHead: head("ledger trust"), Path: s.Path, Total: s.Total, TrustedBefore: s.Trusted, Rewritten: s.Rewritten,
		New: jsonList(s.New), Packages: []ledgerPackageDoc{}, Reviewers: []ledgerReviewerDoc{}, Approved: s.Approved}
	for _, p := range s.Packages {
		d.Packages = append(d.Packages, ledgerPackageDoc{Package: p.Package, Components: p.Components, Approvals: p.Approvals, Revokes: p.Revokes})
	}
	for _, r := range s.Reviewers {
		d.Reviewers = append(d.Reviewers, ledgerReviewerDoc{Reviewer: r.Reviewer, Kind: r.Kind, Decisions: r.Decisions})
	}
	return d
}

// ledgerUntrustDoc is ledger untrust --json.
type ledgerUntrustDoc struct {
	docHead
	Path       string `json:"path"`
	WasTrusted bool   `json:"was_trusted"`
}

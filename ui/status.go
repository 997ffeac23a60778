package ui

import (
	"encoding/hex"
	"strings"

	"vouch/model"
	"vouch/trust"
)

// Statuses as the console keeps them, compact to keep memory small at scale. trust rates a
// package as a map from ref to a full Status; at 10,000 packages those maps are a tenth of
// the console's memory, although nearly every status says only "unreviewed at this digest".
// So the command that asked trust turns each package's map into one record per component,
// in component order: the authorization and the digest inline, the whole Status kept only
// when it says more (a decision, a reason, changes, needs).

// compStatus is trust's status of one component.
type compStatus struct {
	digest [32]byte // the SHA-256 of Status.Digest ("sha256:" + hex), when hasDigest
	extra  *trust.Status
	code   uint8 // 0: trust did not rate it; else authCodes[code]
	// hasDigest says digest holds Status.Digest (a status without a digest keeps "").
	hasDigest bool
}

// authCodes are the authorizations a compact record can name; any other is kept whole.
var authCodes = [...]model.Authorization{"", model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked}

// statusMap is the statuses of some packages, per package in component order.
type statusMap map[*model.Package][]compStatus

// compactStatuses turns trust's maps into records (in the command that asked trust).
func compactStatuses(in map[*model.Package]map[string]trust.Status) statusMap {
	out := make(statusMap, len(in))
	for p, byRef := range in {
		sts := make([]compStatus, len(p.Components))
		for j, c := range p.Components {
			if inert(p, c) {
				continue // statusOf answers without asking trust
			}
			st, ok := byRef[p.Ref(c)]
			if ok {
				sts[j] = compact(p, c, st)
			}
		}
		out[p] = sts
	}
	return out
}

// compact is st as a record: inline when that loses nothing, else the whole status.
func compact(p *model.Package, c *model.Component, st trust.Status) compStatus {
	var cs compStatus
	for i, a := range authCodes {
		if i > 0 && a == st.Authorization {
			cs.code = uint8(i)
		}
	}
	hexDigest, isSHA := strings.CutPrefix(st.Digest, "sha256:")
	if isSHA && len(hexDigest) == 64 && strings.ToLower(hexDigest) == hexDigest {
		if _, err := hex.Decode(cs.digest[:], []byte(hexDigest)); err == nil {
			cs.hasDigest = true
		}
	}
	if cs.code == 0 || (st.Digest != "" && !cs.hasDigest) || st.Decision != nil || st.Reason != "" ||
		len(st.Changes) > 0 || len(st.Needs) > 0 || st.Ref != p.Ref(c) {
		whole := st
		return compStatus{code: max(cs.code, 1), extra: &whole}
	}
	return cs
}

// status is the record as trust gave it.
func (cs compStatus) status(p *model.Package, c *model.Component) trust.Status {
	if cs.extra != nil {
		return *cs.extra
	}
	st := trust.Status{Ref: p.Ref(c), Authorization: authCodes[cs.code]}
	if cs.hasDigest {
		st.Digest = "sha256:" + hex.EncodeToString(cs.digest[:])
	}
	return st
}

// auth is the record's authorization (as authOf reads a status).
func (cs compStatus) auth() model.Authorization {
	if cs.extra != nil {
		return authOf(*cs.extra)
	}
	return authCodes[cs.code]
}

// inert reports whether c is valid data with nothing to run or read as instructions:
// nothing is wrong with it, so it is not shown as blocked (blocked would send the
// reviewer looking for a fault that is not there).
func inert(p *model.Package, c *model.Component) bool {
	return c.Contract == nil && (c.Validity == model.Valid || c.Validity == "") && !p.Rejected
}

// unapprovable reports whether c can never be approved as it stands.
func unapprovable(p *model.Package, c *model.Component) bool {
	return p.Rejected || c.Contract == nil || (c.Validity != model.Valid && c.Validity != "")
}

// record is trust's record of component j of p, false when trust did not rate it.
func (d *data) record(p *model.Package, j int) (compStatus, bool) {
	if sts := d.status[p]; j >= 0 && j < len(sts) && sts[j].code != 0 {
		return sts[j], true
	}
	return compStatus{}, false
}

// authAt is authOf(statusOf(p, component j)) without building the status: the tree
// asks it for every row.
func (d *data) authAt(p *model.Package, j int) model.Authorization {
	c := p.Components[j]
	if inert(p, c) {
		return authNothing
	}
	if cs, ok := d.record(p, j); ok {
		return cs.auth()
	}
	if unapprovable(p, c) {
		return model.Blocked
	}
	return model.Unreviewed
}

// needsAt is how many unapproved components component j of p needs (Status.Needs).
func (d *data) needsAt(p *model.Package, j int) int {
	if cs, ok := d.record(p, j); ok && cs.extra != nil && !inert(p, p.Components[j]) {
		return len(cs.extra.Needs)
	}
	return 0
}

// needsReviewAuth is needsReview for an authorization already read.
func needsReviewAuth(c *model.Component, a model.Authorization) bool {
	return c.Contract != nil && (a == model.Unreviewed || a == model.Changed)
}

package ui

import (
	"reflect"
	"testing"

	"vouch/model"
	"vouch/trust"
)

// A compact record gives back exactly the status trust gave, whatever it holds.
func TestCompactStatusRoundTrip(t *testing.T) {
	pkgs := fixturePackages()
	p := pkgs[0]
	var c *model.Component
	for _, x := range p.Components {
		if x.Contract != nil {
			c = x
			break
		}
	}
	ref := p.Ref(c)
	digest := "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	dec := &trust.Decision{Action: trust.ActionApprove, Digest: digest}
	for name, st := range map[string]trust.Status{
		"unreviewed":      {Ref: ref, Authorization: model.Unreviewed, Digest: digest},
		"no digest":       {Ref: ref, Authorization: model.Unreviewed},
		"approved":        {Ref: ref, Authorization: model.Approved, Digest: digest, Decision: dec},
		"changed":         {Ref: ref, Authorization: model.Changed, Digest: digest, Decision: dec, Reason: "r", Changes: []string{"files"}},
		"needs":           {Ref: ref, Authorization: model.Blocked, Digest: digest, Needs: []string{"x#tool:y"}},
		"upper digest":    {Ref: ref, Authorization: model.Unreviewed, Digest: "sha256:" + "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"},
		"other digest":    {Ref: ref, Authorization: model.Unreviewed, Digest: "sha512:00"},
		"empty auth":      {Ref: ref, Digest: digest},
		"unknown auth":    {Ref: ref, Authorization: "maybe", Digest: digest},
		"other ref":       {Ref: "other#skill:x", Authorization: model.Unreviewed, Digest: digest},
		"revoked bare":    {Ref: ref, Authorization: model.Revoked, Digest: digest},
		"blocked, reason": {Ref: ref, Authorization: model.Blocked, Reason: "why"},
	} {
		cs := compact(p, c, st)
		if cs.code == 0 {
			t.Errorf("%s: the record says trust did not rate it", name)
		}
		if got := cs.status(p, c); !reflect.DeepEqual(got, st) {
			t.Errorf("%s: status back %+v, want %+v", name, got, st)
		}
		if got := cs.auth(); got != authOf(st) {
			t.Errorf("%s: auth %q, want %q", name, got, authOf(st))
		}
	}
	if cs := compact(p, c, trust.Status{Ref: ref, Authorization: model.Unreviewed, Digest: digest}); cs.extra != nil {
		t.Error("the common status is kept whole: nothing is saved")
	}
}

// Over loaded packages with decisions in the ledger, every component's status as the
// console keeps it is trust's, and authAt agrees with it.
func TestStatusesAsTrustGaveThem(t *testing.T) {
	m := newTestModel(t, fixturePackages(), 120, 40)
	selectRef(t, m, toolRef)
	press(t, m, "a", "y")
	selectRef(t, m, hookRef)
	press(t, m, "a", "y")
	m.trust.mu.Lock()
	want := m.trust.t.EvaluateAll(m.data.pkgs)
	m.trust.mu.Unlock()
	approved := 0
	for _, p := range m.data.pkgs {
		for j, c := range p.Components {
			got := m.data.statusOf(p, c)
			if inert(p, c) {
				continue
			}
			if w, ok := want[p][p.Ref(c)]; ok && !reflect.DeepEqual(got, w) {
				t.Errorf("%s: %+v, trust says %+v", p.Ref(c), got, w)
			}
			if a := m.data.authAt(p, j); a != authOf(got) {
				t.Errorf("%s: authAt %q, status %q", p.Ref(c), a, authOf(got))
			}
			if got.Authorization == model.Approved {
				approved++
			}
		}
	}
	if approved < 2 {
		t.Fatalf("%d approved components: the decisions did not reach the statuses", approved)
	}
}

package codex

import (
	"testing"

	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
)

// allApproved is the statuses of pkg with every component that has a contract approved
// as it is now.
func allApproved(pkg *model.Package) map[string]trust.Status {
	statuses := map[string]trust.Status{}
	for _, c := range pkg.Components {
		if c.Contract != nil {
			statuses[pkg.Ref(c)] = trust.Status{Authorization: model.Approved, Digest: trust.DigestOf(c)}
		}
	}
	return statuses
}

// The trust vouch writes for the recorded vector plugin, installed as p1@mk, is exactly
// the key and both hashes Codex 0.171.0 computed for it.
func TestEntriesVector(t *testing.T) {
	root := vectorPlugin(t)
	pkg := rcodex.Load(root, rcodex.Options{})
	statuses := allApproved(pkg)
	plan, err := PlanPlugin(pkg, statuses, false)
	if err != nil || len(plan.Missing) != 0 {
		t.Fatalf("PlanPlugin: %v, missing %v", err, plan.Missing)
	}
	fp, err := Fingerprint(root)
	if err != nil {
		t.Fatal(err)
	}
	plan.Name = "p1"
	e := plan.Entries(fp)
	e.PluginID = "p1@mk"
	if len(e.Hooks) != 1 {
		t.Fatalf("entries %+v, want one hook", e)
	}
	h := e.Hooks[0]
	if h.Key != "p1@vouch:hooks/hooks.json:pre_tool_use:0:0" || h.TrustedHash != vectorDefinition || h.TrustedContentHash != vectorFingerprint {
		t.Errorf("entry %+v, want key p1@vouch:hooks/hooks.json:pre_tool_use:0:0, %s, %s", h, vectorDefinition, vectorFingerprint)
	}
	// The plan refuses when a component is not approved, and names it.
	for ref := range statuses {
		statuses[ref] = trust.Status{Authorization: model.Revoked}
	}
	plan, err = PlanPlugin(pkg, statuses, false)
	if err != nil || len(plan.Missing) != 1 || plan.Missing[0] != "p1#hook:hooks/hooks.json:pre_tool_use:0:0 (revoked)" {
		t.Errorf("a revoked hook: %v, missing %v", err, plan.Missing)
	}
}

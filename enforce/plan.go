package enforce

import (
	"fmt"
	"sort"
	"strings"

	"vouch/model"
	"vouch/trust"
)

// Runnable reports whether components of the kind start a process or run code in the
// client: the ones a plugin is staged only when every one of them is approved now.
func Runnable(k model.Kind) bool {
	switch k {
	case model.KindHook, model.KindTool, model.KindMCPServer, model.KindLSPServer,
		model.KindExecutable, model.KindMonitor, model.KindApp:
		return true
	}
	return false
}

// Plan says whether a plugin may be staged, and what with.
type Plan struct {
	Package *model.Package
	// Digests are the approved digests to stage, by ref: every component approved now
	// (runnable or not); their closures together are the staged folder.
	Digests map[string]string
	// Missing are the runnable components not approved now, each with its status.
	Missing []Missing
	// Unbound are files the client reads from the plugin folder that no approval in
	// Digests binds (a skill nobody approved, a manifest no runnable component's closure
	// holds): staging without them would change what the plugin is, staging with them
	// would run bytes nobody approved.
	Unbound []string
}

// Missing is one runnable component that keeps a plugin from being staged.
type Missing struct {
	Ref    string              `json:"ref"`
	Status model.Authorization `json:"status"`
	Reason string              `json:"reason,omitempty"`
}

// OK reports whether the plugin may be staged.
func (p *Plan) OK() bool {
	return len(p.Missing) == 0 && len(p.Unbound) == 0 && len(p.Digests) > 0 && !p.Package.Rejected
}

// Why is the refusal as sentences, one per line, for a person to act on.
func (p *Plan) Why() string {
	var b strings.Builder
	if p.Package.Rejected {
		fmt.Fprintf(&b, "%s is rejected by its format's rules; fix it first (vouch validate shows why).\n", p.Package.Name)
	}
	for _, m := range p.Missing {
		fmt.Fprintf(&b, "%s is %s", m.Ref, m.Status)
		if m.Reason != "" {
			fmt.Fprintf(&b, ": %s", strings.TrimSuffix(m.Reason, "."))
		}
		b.WriteString(".\n")
	}
	for _, f := range p.Unbound {
		fmt.Fprintf(&b, "%s is read by the client, and no approval binds it.\n", f)
	}
	if len(p.Digests) == 0 && len(p.Missing) == 0 && !p.Package.Rejected {
		b.WriteString("nothing of it is approved.\n")
	}
	return b.String()
}

// MakePlan rates every component of pkg against the ledgers. reads are files the client
// reads from the plugin folder whatever its components are (its manifest, say), as
// package-relative paths; each must be in an approved closure like every component's
// files.
func MakePlan(t *trust.Trust, pkg *model.Package, reads []string) (*Plan, error) {
	sts, err := t.Statuses(pkg)
	if err != nil {
		return nil, err
	}
	p := &Plan{Package: pkg, Digests: map[string]string{}}
	bound := map[string]bool{}
	needed := map[string]bool{}
	for _, f := range reads {
		needed[f] = true
	}
	for _, c := range pkg.Components {
		if c.Kind.Inert() {
			continue
		}
		ref := pkg.Ref(c)
		st := sts[ref]
		var files []model.File
		if c.Contract != nil {
			files = c.Contract.Files
		}
		for _, f := range files {
			needed[f.Path] = true
		}
		if st.Authorization == model.Approved {
			p.Digests[ref] = st.Digest
			for _, f := range files {
				bound[f.Path] = true
			}
			continue
		}
		if Runnable(c.Kind) {
			p.Missing = append(p.Missing, Missing{Ref: ref, Status: st.Authorization, Reason: st.Reason})
		}
	}
	for f := range needed {
		if !bound[f] {
			p.Unbound = append(p.Unbound, f)
		}
	}
	sort.Strings(p.Unbound)
	sort.Slice(p.Missing, func(i, j int) bool { return p.Missing[i].Ref < p.Missing[j].Ref })
	return p, nil
}

// DigestList is the plan's digests in ref order, as StageDigests takes them.
func DigestList(digests map[string]string) []string {
	refs := make([]string, 0, len(digests))
	for r := range digests {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = digests[r]
	}
	return out
}

// StillApproved reports, for a staged entry, the refs whose staged digest is no longer
// approved (revoked, or every approval withdrawn). pkg is the package as loaded from
// the staged folder or the source: only its name and format matter to the ledgers.
func StillApproved(t *trust.Trust, pkg *model.Package, digests map[string]string) ([]string, error) {
	var gone []string
	for ref, d := range digests {
		ok, err := t.InForce(pkg, ref, d)
		if err != nil {
			return nil, err
		}
		if !ok {
			gone = append(gone, ref)
		}
	}
	sort.Strings(gone)
	return gone, nil
}

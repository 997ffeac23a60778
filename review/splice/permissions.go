package splice

import (
	"fmt"
	"net/netip"
	"strings"

	"vouch/model"
)

// brokerCapabilities are the host capabilities a package may request (BROKER_CAPABILITIES);
// billed ones spend provider credits or money on every call.
var brokerCapabilities = []string{
	"onchain.balance", "onchain.transaction", "onchain.block", "onchain.token", "onchain.contract", "onchain.transfers", "onchain.logs",
	"market.price", "market.token", "market.pairs", "market.pair", "market.ohlcv", "market.trades", "market.search",
	"security.token", "security.address",
	"wallet.portfolio",
	"web.search", "web.extract", "web.map", "web.similar", "web.answer",
	"github.repository", "github.search", "github.contents", "github.commits", "github.releases", "github.raw",
	"ai.generate", "ai.models",
	"tokens.rank", "tokens.search", "tokens.details", "tokens.whales", "tokens.report",
	"stock.quote", "stock.list",
	"perps.markets", "perps.funding",
	"defi.overview", "defi.protocols", "defi.yields",
	"global.overview",
	"macro.overview",
	"equity.profile", "equity.news",
}

var billedCapabilities = map[string]bool{"ai.generate": true, "web.search": true, "web.extract": true, "web.map": true, "web.similar": true, "web.answer": true}

// alwaysDenied is what no Splice v1 permission can grant.
const alwaysDenied = "Always denied by the Splice runtime, whatever the manifest says: child processes, worker threads, native addons, WASI and eval."

func isBrokerCapability(s string) bool {
	for _, c := range brokerCapabilities {
		if c == s {
			return true
		}
	}
	return false
}

func (v *validator) stringList(raw any, present bool, path, ptr string, check func(string) bool, hint string) []string {
	if !present {
		return []string{}
	}
	arr, ok := raw.([]any)
	if !ok {
		v.add("permissions-not-array", ptr, path+": must be an array")
		return []string{}
	}
	out := []string{}
	for i, item := range arr {
		s, isStr := item.(string)
		if !isStr || !check(s) {
			v.add("permissions-invalid-entry", fmt.Sprintf("%s/%d", ptr, i), fmt.Sprintf("%s[%d]: %s", path, i, hint))
			continue
		}
		dup := false
		for _, e := range out {
			dup = dup || e == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// normalizePermissions follows upstream's normalizePermissions, including its order.
func (v *validator) normalizePermissions(raw any, present bool) Permissions {
	p := Permissions{Read: []string{}, Write: []string{}, Network: []string{}, Env: []string{}}
	if !present {
		return p
	}
	o, ok := raw.(*object)
	if !ok {
		v.add("permissions-not-object", "/permissions", "permissions: must be an object")
		return p
	}
	for _, k := range o.keys() {
		switch k {
		case "fs", "network", "env", "capabilities":
		default:
			v.add("permissions-unknown", "/permissions/"+ptrEscape(k), "permissions: unknown permission "+q(k))
		}
	}
	if fsRaw, present := o.get("fs"); present {
		fo, isObj := fsRaw.(*object)
		if !isObj {
			v.add("permissions-not-object", "/permissions/fs", "permissions.fs: must be an object")
		} else {
			for _, k := range fo.keys() {
				if k != "read" && k != "write" {
					v.add("permissions-unknown", "/permissions/fs/"+ptrEscape(k), "permissions.fs: unknown key "+q(k))
				}
			}
			hint := "must be a project-relative path without '..' (e.g. data/notes)"
			r, rp := fo.get("read")
			p.Read = v.stringList(r, rp, "permissions.fs.read", "/permissions/fs/read", isSafeRelativePath, hint)
			w, wp := fo.get("write")
			p.Write = v.stringList(w, wp, "permissions.fs.write", "/permissions/fs/write", isSafeRelativePath, hint)
		}
	}
	n, np := o.get("network")
	p.Network = v.stringList(n, np, "permissions.network", "/permissions/network",
		func(s string) bool { return s == "*" || (jsLen(s) <= 253 && hostRe.MatchString(s)) },
		`must be a lowercase hostname, optionally prefixed with *., or "*" for any public host`)
	e, ep := o.get("env")
	p.Env = v.stringList(e, ep, "permissions.env", "/permissions/env", envRe.MatchString, "must be an UPPER_SNAKE_CASE name")
	c, cp := o.get("capabilities")
	p.Capabilities = v.stringList(c, cp, "permissions.capabilities", "/permissions/capabilities", isBrokerCapability,
		"must be one of: "+strings.Join(brokerCapabilities, ", "))
	if len(p.Capabilities) == 0 {
		p.Capabilities = nil
	}
	return p
}

// Annotations are the MCP tool annotations Splice derives from the package permissions.
type Annotations struct {
	ReadOnly, Destructive, OpenWorld bool
}

func annotationsOf(p Permissions) Annotations {
	ro := len(p.Write) == 0
	return Annotations{ReadOnly: ro, Destructive: !ro, OpenWorld: len(p.Network) > 0 || len(p.Capabilities) > 0}
}

// describePermissions is upstream's one-line-per-grant account (splice info / splice add).
func describePermissions(p Permissions) []string {
	if p.Empty() {
		return []string{"none (sandboxed: no file, network, environment or host capability access)"}
	}
	var lines []string
	for _, x := range p.Read {
		lines = append(lines, "read files: "+x)
	}
	for _, x := range p.Write {
		lines = append(lines, "write files: "+x)
	}
	for _, h := range p.Network {
		if h == "*" {
			lines = append(lines, "network: any public host (private, loopback and link-local addresses are blocked)")
		} else {
			lines = append(lines, "network: "+h)
		}
	}
	for _, x := range p.Env {
		lines = append(lines, "environment variable: "+x)
	}
	for _, x := range p.Capabilities {
		l := "host capability: " + x + " (run by Splice with the host's provider keys; the tool gets results, never keys)"
		if billedCapabilities[x] {
			l += " — may spend provider credits/money"
		}
		lines = append(lines, l)
	}
	return lines
}

func projectPath(p string) string {
	if p == "." {
		return "the whole project"
	}
	return p
}

// hostDetail says in plain words what one network entry lets the tool reach.
func hostDetail(h string) string {
	switch {
	case h == "*":
		return "Can connect to any public host; loopback, private, link-local, CGNAT and reserved addresses stay blocked (checked for every DNS answer and each of up to 5 redirects)."
	case strings.HasPrefix(h, "*."):
		return fmt.Sprintf("Can connect to every subdomain of %s (not %s itself).", h[2:], h[2:])
	case h == "localhost":
		return "Can connect to localhost: declaring it lifts the loopback block for that name."
	}
	if a, err := netip.ParseAddr(h); err == nil && (a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || !a.IsGlobalUnicast()) {
		return fmt.Sprintf("Can connect to the non-public address %s: declaring that exact IP lifts the private-address block for it.", h)
	}
	return fmt.Sprintf("Can connect to %s only (no subdomains).", h)
}

// capabilities lists what the package's permissions let each of its tools do. They are
// granted together: every tool of the package runs with all of them.
func capabilities(p Permissions) []model.Capability {
	caps := []model.Capability{{
		Kind: model.CapFilesystemRead, Scope: []string{"<package directory>"},
		Detail: "Can read every file of its own package (always allowed, not declared).",
	}}
	readScope := append(append([]string{}, p.Read...), p.Write...)
	if len(readScope) > 0 {
		var names []string
		for _, x := range readScope {
			names = append(names, projectPath(x))
		}
		caps = append(caps, model.Capability{Kind: model.CapFilesystemRead, Scope: readScope,
			Detail: "Can read project files under: " + strings.Join(names, ", ") + " (relative to the project root, the directory with splice.json; write implies read)."})
	}
	if len(p.Write) > 0 {
		var names []string
		for _, x := range p.Write {
			names = append(names, projectPath(x))
		}
		caps = append(caps, model.Capability{Kind: model.CapFilesystemWrite, Scope: p.Write,
			Detail: "Can create, change and delete project files under: " + strings.Join(names, ", ") + "."})
	}
	for _, h := range p.Network {
		caps = append(caps, model.Capability{Kind: model.CapNetwork, Scope: []string{h}, Detail: hostDetail(h)})
	}
	if len(p.Env) > 0 {
		caps = append(caps, model.Capability{Kind: model.CapEnv, Scope: p.Env,
			Detail: "Receives the values of these environment variables (the tool process gets no others): " + strings.Join(p.Env, ", ") + "."})
	}
	for _, c := range p.Capabilities {
		d := "Can call the host capability " + c + " through the Splice broker; the host uses its own provider keys and the tool only sees results."
		if billedCapabilities[c] {
			d += " Each call may spend provider credits or money."
		}
		caps = append(caps, model.Capability{Kind: model.CapHostCapability, Scope: []string{c}, Detail: d})
	}
	return caps
}

// permissionsFields is the normalized permissions object as describeTools exposes it.
func permissionsFields(p Permissions) model.Fields {
	f := model.Fields{
		{Key: "fs", Value: model.Fields{{Key: "read", Value: nonNil(p.Read)}, {Key: "write", Value: nonNil(p.Write)}}},
		{Key: "network", Value: nonNil(p.Network)},
		{Key: "env", Value: nonNil(p.Env)},
	}
	if len(p.Capabilities) > 0 {
		f = append(f, model.Field{Key: "capabilities", Value: p.Capabilities})
	}
	return f
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

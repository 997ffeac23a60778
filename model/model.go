// Package model holds the format-neutral description of an agent package that every
// loader produces and every consumer (trust, report, console) reads. It imports nothing
// of vouch's own so that it can sit at the bottom of the dependency graph.
package model

import "sort"

// Format names the package format a loader recognised.
type Format string

const (
	FormatAgentPlugins Format = "agent-plugins"
	FormatDalo         Format = "dalo"
	FormatSplice       Format = "splice"
	// FormatClaudeCode is a Claude Code plugin (.claude-plugin/plugin.json or the default
	// layout); FormatClaudeCodeMarketplace is a .claude-plugin/marketplace.json catalogue.
	FormatClaudeCode            Format = "claude-code"
	FormatClaudeCodeMarketplace Format = "claude-code-marketplace"
	// FormatMCPB is an MCP Bundle (Claude Desktop extension): manifest.json with
	// manifest_version (or dxt_version), as a folder or a .mcpb/.dxt zip.
	FormatMCPB Format = "mcpb"
	// FormatAgentSkills is a standalone Agent Skills folder (SKILL.md at its root), as
	// people copy into ~/.claude/skills or ~/.codex/skills.
	FormatAgentSkills Format = "agent-skills"
	// FormatCodex is a Codex plugin (.codex-plugin/plugin.json), read as Codex 0.169 reads it.
	FormatCodex Format = "codex"
	// FormatCodexMarketplace is a Codex marketplace (.agents/plugins/marketplace.json).
	FormatCodexMarketplace Format = "codex-marketplace"
)

// Kind is the kind of a component. Refs print it between '#' and ':'.
type Kind string

const (
	KindSkill       Kind = "skill"
	KindInstruction Kind = "instruction"
	KindTool        Kind = "tool"
	KindHook        Kind = "hook"
	KindMCPServer   Kind = "mcp-server"
	KindExtension   Kind = "extension"
	KindMember      Kind = "member"
	KindDependency  Kind = "dependency"
	// Claude Code plugin pieces (review/claudecode).
	KindLSPServer   Kind = "lsp-server"
	KindCommand     Kind = "command"
	KindAgent       Kind = "agent"
	KindOutputStyle Kind = "output-style"
	KindExecutable  Kind = "executable"
	KindSettings    Kind = "settings"
	KindMonitor     Kind = "monitor"
	// KindHookModule is JavaScript a Claude Code hooks file lists under "modules": Claude
	// loads it inside its own process, where it sees every hook event.
	KindHookModule Kind = "hook-module"
	// KindPlugin is a marketplace entry: the plugin it offers and its policies (inert data).
	KindPlugin Kind = "plugin"
	// KindApp is a connector app a plugin asks the client to enable (Codex .app.json).
	KindApp Kind = "app"
)

// Inert reports whether components of the kind are data that nothing runs or reads on
// their own (an extension namespace, a member or dependency reference, a marketplace
// entry): they need no approval, and a gate does not wait for one.
func (k Kind) Inert() bool {
	switch k {
	case KindExtension, KindMember, KindDependency, KindPlugin:
		return true
	}
	return false
}

// Kinds lists every component kind in the order reports and the console group them:
// what runs first, then what the model reads, then inert data.
var Kinds = []Kind{KindHook, KindHookModule, KindTool, KindMCPServer, KindLSPServer, KindExecutable, KindMonitor, KindApp,
	KindSkill, KindCommand, KindAgent, KindOutputStyle, KindInstruction, KindSettings,
	KindExtension, KindPlugin, KindMember, KindDependency}

// Validity is the first of the three answers: does the component follow its format?
type Validity string

const (
	Valid       Validity = "valid"
	Invalid     Validity = "invalid"
	Skipped     Validity = "skipped"     // discovered but left out at the spec's narrowest boundary
	Unsupported Validity = "unsupported" // well-formed but no client named by the format can run it
)

// SupportStatus is the second answer, per provider or client.
type SupportStatus string

const (
	Supported     SupportStatus = "supported"
	NotSupported  SupportStatus = "unsupported"
	NotApplicable SupportStatus = "not_applicable"
)

// Authorization is the third answer, computed by trust from the ledger.
type Authorization string

const (
	Unreviewed Authorization = "unreviewed"
	Approved   Authorization = "approved"
	Changed    Authorization = "changed"
	Revoked    Authorization = "revoked"
	Blocked    Authorization = "blocked"
)

// Severity of a diagnostic.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Boundary is the narrowest unit a diagnostic invalidates.
type Boundary string

const (
	BoundarySource        Boundary = "source" // the path given on the command line
	BoundaryPackage       Boundary = "package"
	BoundaryComponentType Boundary = "component-type"
	BoundaryComponent     Boundary = "component"
	BoundaryEntry         Boundary = "entry"
)

// Diagnostic is one finding about a package, phrased so a person can act on it.
type Diagnostic struct {
	Code     string   `json:"code"`            // stable kebab-case identifier
	Severity Severity `json:"severity"`        // error, warning or info
	Boundary Boundary `json:"boundary"`        // what the finding invalidates
	File     string   `json:"file"`            // slash path relative to the package root, "" when none
	Pointer  string   `json:"pointer"`         // JSON pointer or TOML key path, "" when none
	Line     int      `json:"line"`            // 1-based, 0 when unknown
	Message  string   `json:"message"`         // one sentence
	Spec     string   `json:"spec"`            // e.g. "agent-plugins §7.2.2"
	Phase    string   `json:"phase,omitempty"` // Dalo validation phase where it applies
}

// IsError reports whether the diagnostic is an error.
func (d Diagnostic) IsError() bool { return d.Severity == SeverityError }

// Field is one named value kept in declaration order, for display and contracts.
// Value holds JSON-like data: string, bool, int, int64, float64, nil, []any, []string,
// []Field, map[string]any, map[string]string.
type Field struct {
	Key   string
	Value any
}

// Fields is an ordered list of named values.
type Fields []Field

// Get returns the value stored under key.
func (fs Fields) Get(key string) (any, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// FieldsOf is m as fields in key order. A contract keeps a string map so: the canonical
// JSON of either is the same object (keys in UTF-16 order), so digests do not change,
// and a small map costs several times its strings.
func FieldsOf(m map[string]string) Fields {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(Fields, len(keys))
	for i, k := range keys {
		out[i] = Field{Key: k, Value: m[k]}
	}
	return out
}

// CapabilityKind is the normalized vocabulary of what a component may do, shared by every format.
type CapabilityKind string

const (
	CapSubprocess       CapabilityKind = "subprocess"
	CapNetwork          CapabilityKind = "network"
	CapFilesystemRead   CapabilityKind = "filesystem-read"
	CapFilesystemWrite  CapabilityKind = "filesystem-write"
	CapEnv              CapabilityKind = "env"
	CapHook             CapabilityKind = "hook"
	CapModelContext     CapabilityKind = "model-context"
	CapInstructionWrite CapabilityKind = "instruction-write"
	CapServerLaunch     CapabilityKind = "server-launch"
	CapRemoteConnect    CapabilityKind = "remote-connect"
	// CapRemoteCode is code fetched over the network and run: a download piped to a
	// shell, a package runner (npx pkg@ver), a package install.
	CapRemoteCode    CapabilityKind = "remote-code"
	CapCodeExecution CapabilityKind = "code-execution" // a local tool run by the harness
	// CapHostCapability is a call through a host-provided broker (Splice capabilities such
	// as web search), where the host, not the package, performs the effect.
	CapHostCapability CapabilityKind = "host-capability"
)

// Capability is one thing a component can do, with its scope.
type Capability struct {
	Kind   CapabilityKind `json:"kind"`
	Scope  []string       `json:"scope,omitempty"` // hosts, paths, env names, event+effect...
	Detail string         `json:"detail"`          // plain-language sentence
}

// Support is the second answer for one provider or client.
type Support struct {
	Provider string        `json:"provider"`
	Version  string        `json:"version,omitempty"`
	Status   SupportStatus `json:"status"`
	Detail   string        `json:"detail,omitempty"`
}

// File is one entry of a component's closure: a regular file (Path, Size, SHA256, Exec)
// or, when Link is set, a symbolic link bound as a link: its path and the target it
// holds, exactly as readlink returns it, with no bytes of its own (Size 0, SHA256 "").
// The bytes a link leads to are bound by the file entries of its (contained) target, so
// retargeting a link changes the digest even when both targets are approved files.
type File struct {
	Path   string `json:"path"` // slash path relative to the package root
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // lowercase hex; "" for a link
	Exec   bool   `json:"exec"`
	Link   string `json:"link,omitempty"` // the link's target, for a symlink entry
}

// IsLink reports whether the entry is a symbolic link rather than a file.
func (f File) IsLink() bool { return f.Link != "" }

// NotCovered is one thing a runnable component depends on that no approval can bind:
// a program found on PATH, a package a launcher downloads at start, a path outside the
// package, an environment variable that makes the runtime load code, data the client
// writes at run time, files beside an entry that a format's narrower closure leaves out.
// Listing it does not change validity: the format allows it, and the person approving
// should know that the approval stops there.
type NotCovered struct {
	Kind    string `json:"kind"`    // one of the NotCovered* kinds below
	Subject string `json:"subject"` // the command, package spec, path or variable name
	Detail  string `json:"detail"`  // one sentence a person can act on
}

// Kinds of NotCovered.
const (
	NotCoveredPathProgram = "path-program"      // a bare command resolved on the user's PATH
	NotCoveredFetch       = "fetched-at-start"  // a launcher downloads an unpinned package at every start
	NotCoveredPinned      = "pinned-package"    // a launcher downloads a pinned version at start
	NotCoveredOutside     = "outside-path"      // an argument or env value names a path outside the package
	NotCoveredCodeEnv     = "code-loading-env"  // an environment variable that makes a runtime load code
	NotCoveredPluginData  = "plugin-data"       // contents of the client's per-plugin data directory
	NotCoveredUnlisted    = "unlisted-file"     // files beside an entry that a narrower closure leaves out
	NotCoveredUnbound     = "unbound-directory" // a directory left out of the closure (for example .git)
	NotCoveredUnresolved  = "unresolved-word"   // a shell word whose value is decided at run time
	NotCoveredMissing     = "missing-file"      // a file of the package the command runs, which is not there
)

// HiddenContent is text a markdown renderer would not show a reviewer but an agent reads.
type HiddenContent struct {
	Kind string `json:"kind"` // html-comment, html-tag, link-definition, invisible-character, character-reference, link-title, image-title, fence-info
	Line int    `json:"line"`
	Text string `json:"text"` // raw; escape before display
}

// Reference is a member or dependency of a package and how it resolved.
type Reference struct {
	Ref         string `json:"ref"`
	Requirement string `json:"requirement"` // required, optional, recommended
	Status      string `json:"status"`      // resolved, missing, ambiguous, unavailable_external, required_dependency_cycle
	Detail      string `json:"detail"`
}

// Component is one reviewable piece of a package: a skill, tool, hook, MCP server...
type Component struct {
	Kind         Kind
	ID           string // unique per kind within the package; the ref is Package.Name#Kind:ID
	Validity     Validity
	Support      []Support
	Capabilities []Capability
	// Summary is the plain-language account a reviewer reads first, one sentence per entry.
	Summary []string
	// Details are display fields (literal and expanded values, descriptions...).
	Details  Fields
	Contract *Contract // nil for components that cannot be approved (invalid, inert data)
	Files    []File    // closure files, also listed in Contract
	// Body is the markdown text of a skill or instruction; BodyFile names where it came from.
	Body     string
	BodyFile string
	// BodyStart and BodyEnd are where Body lies, byte for byte, in BodyFile: a loader sets
	// them only when Body is exactly the file's bytes [BodyStart:BodyEnd], so a console
	// may let go of the text and read it back (checking the file's SHA-256 in Files).
	// BodyEnd <= BodyStart (both 0 by default) says the body cannot be read back that way
	// (converted text, no file of its own, or empty).
	BodyStart, BodyEnd int
	Hidden             []HiddenContent
	// Requirement is required/optional/recommended where the format has it.
	Requirement string
	// Inactive marks components that stay off until explicitly enabled (recommended instructions).
	Inactive bool
	// DependsOn lists the refs of components this one needs approved first (a hook's tool).
	DependsOn []string
	// NotCovered lists what a runnable component depends on that its approval cannot bind
	// (see NotCovered); empty for components that run nothing.
	NotCovered []NotCovered
	// DisplayNames are the names clients show the component under where that is not its
	// ID, by client id: Claude Code lists an agent or an output style by its frontmatter
	// name, Codex a skill by its frontmatter name. Nil when no client names it otherwise.
	DisplayNames map[string]string
	Diagnostics  []Diagnostic
}

// DisplayName is the name client shows c under: its DisplayNames entry, else its ID.
func (c *Component) DisplayName(client string) string {
	if n := c.DisplayNames[client]; n != "" {
		return n
	}
	return c.ID
}

// Package is one package found in a source.
type Package struct {
	Format       Format
	Name         string // the identity used in refs
	ID           string // stable id where the format has one
	Version      string
	Description  string
	Root         string // absolute path of the package root (or archive file)
	SourceID     string
	Manifest     Fields
	Components   []*Component
	Members      []Reference
	Dependencies []Reference
	Providers    []ProviderReport
	Diagnostics  []Diagnostic
	// Rejected is set when a fatal error rejects the whole package: nothing in it is usable
	// and nothing can be approved. Components it still lists are what another client that
	// reads the same manifest by its own rules loads (Codex reading a Claude Code
	// plugin.json that Claude Code rejects), shown so that nothing that runs is hidden.
	Rejected bool
	// Integrity is the sha256-<hex> of the artifact bytes for archives and bundles.
	Integrity   string
	FilesDigest string
	// Reader gives trust the bytes of package files (bounded, contained); nil if unavailable.
	Reader FileReader `json:"-"`
	// Signature is a publisher's signature over the package's bytes as its loader checked
	// it (MCP Bundles); nil when the format has none. It is evidence shown beside an
	// approval and recorded with it; it never approves anything.
	Signature *Signature
}

// Signature is what a package's publisher signature says about the exact bytes reviewed.
type Signature struct {
	Status      string `json:"status"`                // unsigned, verified, untrusted or invalid
	Signer      string `json:"signer,omitempty"`      // the signing certificate's subject
	Fingerprint string `json:"fingerprint,omitempty"` // sha256:<hex> of the signing certificate
	Detail      string `json:"detail"`                // one sentence: what was checked, or why it is not verified
}

// ProviderReport is a provider's verdict on a whole package (Dalo hooks).
type ProviderReport struct {
	Provider         string        `json:"provider"`
	Baseline         string        `json:"baseline"`
	Status           SupportStatus `json:"status"`
	UnsupportedHooks []string      `json:"unsupported_hooks"`
}

// FileReader reads a package file by its slash path relative to the package root.
// Loaders back it with fsguard (directories) or memory (archives).
type FileReader interface {
	ReadFile(rel string) ([]byte, error)
}

// LinkReader is implemented by FileReaders that can say what a symlink of the package
// holds now, so the dispatch-time check re-reads links as it re-reads bytes.
type LinkReader interface {
	ReadLink(rel string) (string, error)
}

// Ref returns the component's reference as reports print it: <package>#<kind>:<id>.
func (p *Package) Ref(c *Component) string { return Ref(p.Name, c.Kind, c.ID) }

// Ref builds a component reference.
func Ref(pkg string, kind Kind, id string) string { return pkg + "#" + string(kind) + ":" + id }

// QualifiedRef is the component's reference with its package's format in front,
// <format>:<package>#<kind>:<id>: one folder read by two clients gives two packages that
// can share a name and refs (a Codex and a Claude Code plugin both called "p" with a
// server "s"), and the format tells them apart wherever a ref is typed or printed.
func (p *Package) QualifiedRef(c *Component) string { return QualifyRef(p.Format, p.Ref(c)) }

// QualifyRef puts a format in front of a ref; "" leaves it as it is.
func QualifyRef(f Format, ref string) string {
	if f == "" {
		return ref
	}
	return string(f) + ":" + ref
}

// Valid reports whether the package is accepted at its boundary: not rejected, no error
// at the package (or source) boundary, and every required reference resolved. A skipped
// skill, an invalid server entry or a disabled component type (agent-plugins §6.2,
// §7.2.2: the narrowest failure boundary) leaves the package valid, because that is what
// every conformant client does: it loads the package without that part. Formats that
// accept a package only as a whole say so at the package boundary (Dalo's
// invalid_plugin_package, Splice's package-component-invalid), which makes it invalid
// here. Whether anything anywhere failed is Counts' business: `validate` stays strict.
func (p *Package) Valid() bool {
	if p.Rejected {
		return false
	}
	for _, d := range p.Diagnostics {
		if d.IsError() && (d.Boundary == BoundaryPackage || d.Boundary == BoundarySource) {
			return false
		}
	}
	for _, r := range p.Members {
		if r.Requirement == "required" && r.Status != "resolved" {
			return false
		}
	}
	for _, r := range p.Dependencies {
		if r.Requirement == "required" && r.Status != "resolved" {
			return false
		}
	}
	return true
}

// Counts are the diagnostics of a package and its components by severity, and how many
// of its components are left out (skipped or invalid), for "valid, 3 entries skipped".
type Counts struct {
	Errors, Warnings, Skipped int
}

// Count tallies the package's diagnostics (package and components) and its left-out components.
func (p *Package) Count() Counts {
	var n Counts
	tally := func(ds []Diagnostic) {
		for _, d := range ds {
			switch d.Severity {
			case SeverityError:
				n.Errors++
			case SeverityWarning:
				n.Warnings++
			}
		}
	}
	tally(p.Diagnostics)
	for _, c := range p.Components {
		tally(c.Diagnostics)
		if c.Validity == Skipped || c.Validity == Invalid {
			n.Skipped++
		}
	}
	return n
}

// Component returns the component with the given kind and id, or nil.
func (p *Package) Component(kind Kind, id string) *Component {
	for _, c := range p.Components {
		if c.Kind == kind && c.ID == id {
			return c
		}
	}
	return nil
}

// SortComponents orders components by kind (Kinds order) then id, so output is stable.
func (p *Package) SortComponents() {
	sort.SliceStable(p.Components, func(i, j int) bool {
		a, b := p.Components[i], p.Components[j]
		if a.Kind != b.Kind {
			return kindRank[a.Kind] < kindRank[b.Kind]
		}
		return a.ID < b.ID
	})
}

// kindRank is each kind's position in Kinds (a kind not listed ranks first, as the map
// SortComponents built on every call ranked it).
var kindRank = func() map[Kind]int {
	m := make(map[Kind]int, len(Kinds))
	for i, k := range Kinds {
		m[k] = i
	}
	return m
}()

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
	// KindPlugin is a marketplace entry: the plugin it offers and its policies (inert data).
	KindPlugin Kind = "plugin"
	// KindApp is a connector app a plugin asks the client to enable (Codex .app.json).
	KindApp Kind = "app"
)

// Kinds lists every component kind in the order reports and the console group them.
var Kinds = []Kind{KindHook, KindTool, KindMCPServer, KindApp, KindSkill, KindInstruction, KindExtension, KindPlugin, KindMember, KindDependency}

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
	CapCodeExecution    CapabilityKind = "code-execution" // a local tool run by the harness
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

// File is one file of a component's closure.
type File struct {
	Path   string `json:"path"` // slash path relative to the package root
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // lowercase hex
	Exec   bool   `json:"exec"`
}

// HiddenContent is text a markdown renderer would not show a reviewer but an agent reads.
type HiddenContent struct {
	Kind string `json:"kind"` // html-comment, html-tag, link-definition, invisible-character
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
	Hidden   []HiddenContent
	// Requirement is required/optional/recommended where the format has it.
	Requirement string
	// Inactive marks components that stay off until explicitly enabled (recommended instructions).
	Inactive bool
	// DependsOn lists the refs of components this one needs approved first (a hook's tool).
	DependsOn   []string
	Diagnostics []Diagnostic
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
	// Rejected is set when a fatal error rejects the whole package: nothing in it is usable.
	Rejected bool
	// Integrity is the sha256-<hex> of the artifact bytes for archives and bundles.
	Integrity   string
	FilesDigest string
	// Reader gives trust the bytes of package files (bounded, contained); nil if unavailable.
	Reader FileReader `json:"-"`
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

// Ref returns the component's reference as reports print it: <package>#<kind>:<id>.
func (p *Package) Ref(c *Component) string { return Ref(p.Name, c.Kind, c.ID) }

// Ref builds a component reference.
func Ref(pkg string, kind Kind, id string) string { return pkg + "#" + string(kind) + ":" + id }

// Valid reports whether the package passes validation as a whole: not rejected, no error
// at any boundary (a disabled mcp.json or a skipped skill still fails validation, although
// the rest of the package stays usable), and every required reference resolved.
// Components that are merely unsupported by some client do not make a package invalid.
func (p *Package) Valid() bool {
	if p.Rejected {
		return false
	}
	for _, d := range p.Diagnostics {
		if d.IsError() {
			return false
		}
	}
	for _, c := range p.Components {
		if c.Validity == Invalid || c.Validity == Skipped {
			return false
		}
		for _, d := range c.Diagnostics {
			if d.IsError() {
				return false
			}
		}
	}
	for _, r := range append(append([]Reference(nil), p.Members...), p.Dependencies...) {
		if r.Requirement == "required" && r.Status != "resolved" {
			return false
		}
	}
	return true
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
	rank := map[Kind]int{}
	for i, k := range Kinds {
		rank[k] = i
	}
	sort.SliceStable(p.Components, func(i, j int) bool {
		a, b := p.Components[i], p.Components[j]
		if a.Kind != b.Kind {
			return rank[a.Kind] < rank[b.Kind]
		}
		return a.ID < b.ID
	})
}

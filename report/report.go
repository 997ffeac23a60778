// Package report builds vouch's machine-readable report (schema_version 1) from loaded
// packages and, for status, their trust statuses. The same document backs `validate --json`,
// `status --json` and the console's no-terminal fallback, so every consumer sees one shape.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"

	"vouch/model"
)

// Report is the top-level JSON document (schemas/report-v1.schema.json).
type Report struct {
	SchemaVersion int `json:"schema_version"`
	// Valid is strict, for CI: packages were found, every one is valid and no error
	// diagnostic exists anywhere (a skipped entry of a valid package counts). validate
	// exits 1 when it is false.
	Valid       bool               `json:"valid"`
	Packages    []Package          `json:"packages"`
	Diagnostics []model.Diagnostic `json:"diagnostics"`
}

// Package is one package in the report.
type Package struct {
	Format  string `json:"format"`
	Name    string `json:"name"`
	ID      string `json:"id,omitempty"`
	Version string `json:"version,omitempty"`
	Path    string `json:"path"`
	// Valid means accepted at the package boundary (model.Package.Valid): a plugin with
	// skipped entries is valid. Errors and Warnings count the diagnostics of that severity
	// in the package and its components, so "valid, with errors" reads at a glance.
	Valid       bool   `json:"valid"`
	Errors      int    `json:"errors"`
	Warnings    int    `json:"warnings"`
	SourceID    string `json:"source_id,omitempty"`
	Integrity   string `json:"integrity,omitempty"`
	FilesDigest string `json:"files_digest,omitempty"`
	// Signature is the publisher signature an MCP Bundle carries, as checked; evidence,
	// never an approval.
	Signature    *model.Signature       `json:"signature,omitempty"`
	Components   []Component            `json:"components"`
	Members      []model.Reference      `json:"members,omitempty"`
	Dependencies []model.Reference      `json:"dependencies,omitempty"`
	Providers    []model.ProviderReport `json:"providers,omitempty"`
	Diagnostics  []model.Diagnostic     `json:"diagnostics"`
}

// Component is one component in the report. Support, Authorization and Changes are filled
// only by status reports.
type Component struct {
	Ref         string   `json:"ref"`
	Kind        string   `json:"kind"`
	ID          string   `json:"id"`
	Validity    string   `json:"validity"`
	Requirement string   `json:"requirement,omitempty"`
	Inactive    bool     `json:"inactive,omitempty"`
	Digest      string   `json:"digest,omitempty"`
	Summary     []string `json:"summary,omitempty"`
	// Hidden is what a markdown view of the component's text hides from a reviewer
	// (comments, tags, link definitions, invisible characters, character references that
	// decode to them), so a CI run sees what the console lists.
	Hidden []model.HiddenContent `json:"hidden,omitempty"`
	// BodyFile is the file Hidden's lines are in (slash path in the package), for SARIF
	// and annotations; the JSON report leaves it out.
	BodyFile string `json:"-"`
	// ChangedFiles are the files of a changed component that differ from the approved
	// ones, for SARIF and annotations (the JSON report has them in Changes).
	ChangedFiles []string `json:"-"`
	// Support is a pointer so a status report always prints the object, {} included,
	// while a validation report leaves it out.
	Support       *map[string]model.SupportStatus `json:"support,omitempty"`
	Authorization model.Authorization             `json:"authorization,omitempty"`
	Decision      *Decision                       `json:"decision,omitempty"`
	Reason        string                          `json:"reason,omitempty"`
	Changes       []string                        `json:"changes,omitempty"`
	// NotCovered is what a runnable component depends on that no approval can bind, in
	// validation and status reports alike (it does not change validity).
	NotCovered []model.NotCovered `json:"not_covered,omitempty"`
	// Risks is what the component reaches on the network or fetches and runs, from its
	// command line and the bundled scripts it runs: its remote-code and network
	// capabilities, remote code first.
	Risks []model.Capability `json:"risks,omitempty"`
	// Codex is Codex's own trust for a Codex hook (status --codex), read-only, beside
	// vouch's answer: one entry per installed copy.
	Codex []CodexTrust `json:"codex_trust,omitempty"`
	// DisplayNames are the names clients list the component under where that is not its
	// id, by client id (an agent's frontmatter name in Claude Code, a skill's in Codex).
	DisplayNames map[string]string  `json:"display_names,omitempty"`
	Diagnostics  []model.Diagnostic `json:"diagnostics"`
}

// CodexTrust is Codex's trust record for one hook of one installed plugin.
type CodexTrust struct {
	Key            string `json:"key"`
	DefinitionHash string `json:"definition_hash"`
	Status         string `json:"status"`
	Enabled        bool   `json:"enabled"`
	Detail         string `json:"detail"`
}

// Decision is the decision in force for a component, as the status report shows it.
type Decision struct {
	Action   string `json:"action"`
	Digest   string `json:"digest"`
	Reviewer string `json:"reviewer"`
	At       string `json:"at"`
	Ledger   string `json:"ledger"`
}

// Status is the trust answer for one component, supplied by the caller (cmd joins trust
// and review; this package imports neither).
type Status struct {
	// Digest is the contract digest trust computed for the component, "" when none; a
	// status report takes it from here rather than digesting every contract again.
	Digest        string
	Authorization model.Authorization
	Reason        string
	Changes       []string
	ChangedFiles  []string
	Decision      *Decision
}

// Statuses are the trust answers of one run, per package and then by component ref:
// packages of one run may share a name, and so refs, and must never share verdicts.
type Statuses map[*model.Package]map[string]Status

// Build assembles a validation report. statuses, when non-nil, turns it into a status
// report: every component gets support and authorization (unreviewed when absent).
func Build(pkgs []*model.Package, sourceDiags []model.Diagnostic, statuses Statuses) *Report {
	r := &Report{SchemaVersion: 1, Valid: true, Packages: []Package{}, Diagnostics: nonNil(sourceDiags)}
	for _, d := range sourceDiags {
		if d.IsError() {
			r.Valid = false
		}
	}
	if len(pkgs) == 0 {
		r.Valid = false
	}
	for _, p := range pkgs {
		rp, valid := buildPackage(p, statuses)
		if !valid {
			r.Valid = false
		}
		r.Packages = append(r.Packages, rp)
	}
	return r
}

// buildPackage is one package of a report, and whether it keeps the report valid.
func buildPackage(p *model.Package, statuses Statuses) (Package, bool) {
	rp := Package{
		Format: string(p.Format), Name: p.Name, ID: p.ID, Version: p.Version, Path: p.Root,
		Valid: p.Valid(), SourceID: p.SourceID, Integrity: p.Integrity, FilesDigest: p.FilesDigest, Signature: p.Signature,
		Components: make([]Component, 0, len(p.Components)), Members: p.Members, Dependencies: p.Dependencies,
		Providers: p.Providers, Diagnostics: nonNil(p.Diagnostics),
	}
	n := p.Count()
	rp.Errors, rp.Warnings = n.Errors, n.Warnings
	for _, c := range p.Components {
		ref := p.Ref(c)
		rc := Component{
			Ref: ref, Kind: string(c.Kind), ID: c.ID, Validity: string(c.Validity),
			Requirement: c.Requirement, Inactive: c.Inactive, Summary: c.Summary,
			NotCovered: c.NotCovered, Hidden: c.Hidden, DisplayNames: c.DisplayNames, Diagnostics: nonNil(c.Diagnostics),
		}
		if len(c.Hidden) > 0 {
			rc.BodyFile = c.BodyFile
		}
		rc.Risks = Risks(c)
		if statuses == nil && c.Contract != nil {
			rc.Digest = c.Contract.MustDigest()
		}
		if statuses != nil {
			support := map[string]model.SupportStatus{}
			for _, s := range c.Support {
				support[s.Provider] = s.Status
			}
			rc.Support = &support
			st, ok := statuses[p][ref]
			if !ok {
				st = Status{Authorization: model.Unreviewed}
			}
			rc.Digest, rc.Authorization, rc.Reason, rc.Changes, rc.Decision = st.Digest, st.Authorization, st.Reason, st.Changes, st.Decision
			rc.ChangedFiles = st.ChangedFiles
		}
		rp.Components = append(rp.Components, rc)
	}
	return rp, rp.Valid && n.Errors == 0
}

func nonNil(d []model.Diagnostic) []model.Diagnostic {
	if d == nil {
		return []model.Diagnostic{}
	}
	out := append([]model.Diagnostic(nil), d...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// WriteJSON writes v as indented JSON that is also safe to print on a terminal: besides
// what encoding/json escapes, C1 controls, bidi controls and other invisible characters are
// written as \u escapes, so a hostile package name cannot drive the terminal of someone who
// runs `vouch validate --json` without a pipe.
func WriteJSON(w io.Writer, v any) error {
	b, err := encodeIndented(v, "")
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// encodeIndented is v as WriteJSON writes it, nested under prefix, with a final newline.
func encodeIndented(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	out := indentCompact(make([]byte, 0, len(compact)+len(compact)/2), compact, prefix, "  ")
	return escapeInvisible(append(out, '\n')), nil
}

// indentCompact is json.Indent for the compact output of encoding/json (no whitespace
// between tokens, strings already escaped), which it trusts instead of rescanning: the
// encoder's own indenting runs its full JSON scanner over every byte, a tenth of
// validate --json's time. TestIndentCompactMatchesEncoder holds it to the encoder's bytes.
func indentCompact(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	needIndent, inString, escaped := false, false, false
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			// Copy the run up to the next quote or backslash at once.
			j := i
			for j < len(src) && src[j] != '"' && src[j] != '\\' {
				j++
			}
			if escaped {
				escaped = false
				j = i + 1
			} else if j < len(src) {
				if src[j] == '\\' {
					escaped = true
				} else {
					inString = false
				}
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				newline(depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// escapeInvisible rewrites runes that terminals interpret or hide (model.IsHiddenRune, the
// definition the console uses too). It only ever touches characters inside JSON strings:
// JSON syntax is ASCII, and the encoder already escaped every C0 control but its own
// newlines, which IsHiddenRune lets through. Output with nothing to rewrite (all but
// hostile packages) is returned as it is, without a copy.
func escapeInvisible(b []byte) []byte {
	i := 0
	for i < len(b) {
		if plainASCII(b[i]) {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if model.IsHiddenRune(r) {
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	out = append(out, b[:i]...)
	b = b[i:]
	for len(b) > 0 {
		if plainASCII(b[0]) {
			j := 1
			for j < len(b) && plainASCII(b[j]) {
				j++
			}
			out = append(out, b[:j]...)
			b = b[j:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if model.IsHiddenRune(r) {
			if r > 0xFFFF {
				r1, r2 := surrogates(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// plainASCII is a byte that is a whole rune IsHiddenRune lets through.
func plainASCII(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' }

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

// RiskKinds are the capability kinds a report lists under risks, in the order it lists them.
var RiskKinds = []model.CapabilityKind{model.CapRemoteCode, model.CapNetwork}

// Risks are c's capabilities of the RiskKinds, remote code first; nil when it has none.
func Risks(c *model.Component) []model.Capability {
	var out []model.Capability
	for _, k := range RiskKinds {
		for _, cp := range c.Capabilities {
			if cp.Kind == k {
				out = append(out, cp)
			}
		}
	}
	return out
}

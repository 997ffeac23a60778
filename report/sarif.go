package report

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"vouch/model"
)

// SARIF 2.1.0 output for code scanning. One rule per diagnostic code (and one per
// authorization answer a status gate fails on); one result per diagnostic, and for status
// reports one per component that is not approved.

const sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifLocation `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult            `json:"results"`
	ColumnKind         string                   `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	Help                 sarifMessage `json:"help"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string             `json:"ruleId"`
	RuleIndex  int                `json:"ruleIndex"`
	Level      string             `json:"level"`
	Message    sarifMessage       `json:"message"`
	Locations  []sarifLocationRef `json:"locations,omitempty"`
	Properties map[string]any     `json:"properties,omitempty"`
}

type sarifLocationRef struct {
	PhysicalLocation struct {
		ArtifactLocation sarifLocation `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	} `json:"physicalLocation"`
}

type sarifLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// SARIFOptions say how paths and gates are written.
type SARIFOptions struct {
	// Base is the directory result paths are made relative to (the repository root, in
	// CI: the working directory). Paths outside it are written as absolute file URIs.
	Base string
	// Version is vouch's version, for the tool driver.
	Version string
	// RequireApproved makes every component that is not approved an error result, as
	// `status --require-approved` fails on it; otherwise such components are warnings.
	RequireApproved bool
}

// WriteSARIF writes r as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, r *Report, o SARIFOptions) error {
	rules := map[string]int{}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "vouch", Version: o.Version, Rules: []sarifRule{}}}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	if o.Base != "" {
		run.OriginalURIBaseIDs = map[string]sarifLocation{"SRCROOT": {URI: fileURI(o.Base, true)}}
	}
	rule := func(id, short, help, level string) int {
		if i, ok := rules[id]; ok {
			return i
		}
		sr := sarifRule{ID: id, ShortDescription: sarifMessage{Text: short}, Help: sarifMessage{Text: help}}
		sr.DefaultConfiguration.Level = level
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
		rules[id] = len(run.Tool.Driver.Rules) - 1
		return rules[id]
	}
	addDiag := func(pkgPath string, archive bool, d model.Diagnostic, props map[string]any) {
		level := sarifLevel(d.Severity)
		help := "vouch diagnostic " + d.Code + "."
		if d.Spec != "" {
			help += " See " + d.Spec + "."
		}
		idx := rule(d.Code, d.Code, help, level)
		res := sarifResult{RuleID: d.Code, RuleIndex: idx, Level: level, Message: sarifMessage{Text: nonEmpty(d.Message)}, Properties: props}
		if loc, ok := o.location(pkgPath, archive, d.File, d.Line); ok {
			res.Locations = []sarifLocationRef{loc}
		}
		run.Results = append(run.Results, res)
	}
	for _, d := range r.Diagnostics {
		addDiag("", false, d, nil)
	}
	for _, p := range r.Packages {
		archive := isArtifactPath(p.Path)
		for _, d := range p.Diagnostics {
			addDiag(p.Path, archive, d, map[string]any{"package": p.Name, "format": p.Format})
		}
		for _, c := range p.Components {
			for _, d := range c.Diagnostics {
				addDiag(p.Path, archive, d, map[string]any{"package": p.Name, "ref": c.Ref})
			}
			for _, n := range c.NotCovered {
				idx := rule("not-covered-"+n.Kind, "not covered by an approval: "+n.Kind, "What this component depends on that no approval can bind ("+n.Kind+"): review it yourself; vouch check cannot detect a change in it.", "note")
				res := sarifResult{RuleID: "not-covered-" + n.Kind, RuleIndex: idx, Level: "note", Message: sarifMessage{Text: nonEmpty(c.Ref + ": " + n.Subject + ": " + n.Detail)}, Properties: map[string]any{"package": p.Name, "ref": c.Ref}}
				if loc, ok := o.location(p.Path, archive, "", 0); ok {
					res.Locations = []sarifLocationRef{loc}
				}
				run.Results = append(run.Results, res)
			}
			if c.Authorization == "" || c.Authorization == model.Approved || model.Kind(c.Kind).Inert() {
				continue
			}
			level := "warning"
			if o.RequireApproved || c.Authorization == model.Changed || c.Authorization == model.Revoked {
				level = "error"
			}
			id := "authorization-" + string(c.Authorization)
			idx := rule(id, "component "+string(c.Authorization), authorizationHelp[c.Authorization], level)
			msg := c.Ref + " is " + string(c.Authorization)
			if c.Reason != "" {
				msg += ": " + c.Reason
			}
			res := sarifResult{RuleID: id, RuleIndex: idx, Level: level, Message: sarifMessage{Text: msg}, Properties: map[string]any{"package": p.Name, "ref": c.Ref, "digest": c.Digest}}
			if loc, ok := o.location(p.Path, archive, "", 0); ok {
				res.Locations = []sarifLocationRef{loc}
			}
			run.Results = append(run.Results, res)
		}
	}
	for i := range run.Results {
		escapeSARIFResult(&run.Results[i])
	}
	return WriteJSON(w, sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}})
}

// escapeSARIFResult writes the package text of a result (its message and every string
// property: package names, refs, reasons) as --format github does: control, C1, bidi and
// invisible characters become \u escapes. JSON encoding alone keeps ESC and U+202E as
// characters, and code-scanning views and terminals showing the log would act on them.
func escapeSARIFResult(r *sarifResult) {
	r.Message.Text = visibleText(r.Message.Text)
	for k, v := range r.Properties {
		if s, ok := v.(string); ok {
			r.Properties[k] = visibleText(s)
		}
	}
}

var authorizationHelp = map[model.Authorization]string{
	model.Unreviewed: "No decision is recorded for this component: review it (vouch review) and approve it explicitly before it runs.",
	model.Changed:    "The component's bytes or contract changed since it was approved: run vouch diff SOURCE REF and approve the new version, or revoke it.",
	model.Revoked:    "The component was revoked: it must not run.",
	model.Blocked:    "The component cannot be approved as it is (invalid, unsupported, or its closure cannot be bound); its reason says why.",
}

func sarifLevel(s model.Severity) string {
	switch s {
	case model.SeverityError:
		return "error"
	case model.SeverityWarning:
		return "warning"
	}
	return "note"
}

func nonEmpty(s string) string {
	if s == "" {
		return "(no message)"
	}
	return s
}

// location points at file inside the package at pkgPath (or at the package itself). An
// archive's member has no path of its own on disk, so it points at the archive.
func (o SARIFOptions) location(pkgPath string, archive bool, file string, line int) (sarifLocationRef, bool) {
	var loc sarifLocationRef
	p := pkgPath
	if p == "" {
		if file == "" || !filepath.IsAbs(file) {
			return loc, false
		}
		p = file
	} else if file != "" && !archive {
		p = filepath.Join(pkgPath, filepath.FromSlash(file))
	}
	if o.Base != "" {
		if rel, err := filepath.Rel(o.Base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			loc.PhysicalLocation.ArtifactLocation = sarifLocation{URI: relURI(filepath.ToSlash(rel)), URIBaseID: "SRCROOT"}
		}
	}
	if loc.PhysicalLocation.ArtifactLocation.URI == "" {
		loc.PhysicalLocation.ArtifactLocation = sarifLocation{URI: fileURI(p, false)}
	}
	if line > 0 && (file == "" || !archive) {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: line}
	}
	return loc, true
}

func relURI(rel string) string {
	parts := strings.Split(rel, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func fileURI(p string, dir bool) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // Windows drive paths
	}
	s := u.String()
	if dir && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

func isArtifactPath(p string) bool {
	l := strings.ToLower(p)
	for _, ext := range []string{".tar.gz", ".tgz", ".json", ".mcpb", ".dxt", ".zip"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// WriteGitHub writes GitHub Actions workflow commands (::error file=…,line=…::message),
// one per diagnostic and, for status reports, one per component that is not approved.
// Package text is data here: %, CR and LF are encoded as the workflow syntax requires, so
// a message cannot end the annotation and start a command of its own, and invisible or
// control characters are written as \u escapes.
func WriteGitHub(w io.Writer, r *Report, o SARIFOptions) error {
	var lines []string
	emit := func(level, file string, line int, title, msg string) {
		props := []string{}
		if file != "" {
			props = append(props, "file="+ghProp(file))
			if line > 0 {
				props = append(props, fmt.Sprintf("line=%d", line))
			}
		}
		props = append(props, "title="+ghProp(title))
		lines = append(lines, "::"+level+" "+strings.Join(props, ",")+"::"+ghData(msg))
	}
	path := func(pkgPath, file string) string {
		p := pkgPath
		if file != "" && !isArtifactPath(pkgPath) && pkgPath != "" {
			p = filepath.Join(pkgPath, filepath.FromSlash(file))
		}
		if o.Base != "" && p != "" {
			if rel, err := filepath.Rel(o.Base, p); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
		return filepath.ToSlash(p)
	}
	ghLevel := map[model.Severity]string{model.SeverityError: "error", model.SeverityWarning: "warning", model.SeverityInfo: "notice"}
	for _, d := range r.Diagnostics {
		emit(ghLevel[d.Severity], "", 0, "vouch "+d.Code, d.Message)
	}
	for _, p := range r.Packages {
		for _, d := range p.Diagnostics {
			emit(ghLevel[d.Severity], path(p.Path, d.File), d.Line, "vouch "+d.Code, p.Name+": "+d.Message)
		}
		for _, c := range p.Components {
			for _, d := range c.Diagnostics {
				emit(ghLevel[d.Severity], path(p.Path, d.File), d.Line, "vouch "+d.Code, c.Ref+": "+d.Message)
			}
			if c.Authorization == "" || c.Authorization == model.Approved || model.Kind(c.Kind).Inert() {
				continue
			}
			level := "warning"
			if o.RequireApproved || c.Authorization == model.Changed || c.Authorization == model.Revoked {
				level = "error"
			}
			msg := c.Ref + " is " + string(c.Authorization)
			if c.Reason != "" {
				msg += ": " + c.Reason
			}
			emit(level, path(p.Path, ""), 0, "vouch "+string(c.Authorization), msg)
		}
	}
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// ghData encodes a workflow command's message.
func ghData(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	return visibleText(s)
}

// ghProp encodes a workflow command's property value (also ':' and ',').
func ghProp(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
	return visibleText(s)
}

// visibleText writes control, bidi and invisible characters as \u escapes: workflow logs
// are shown in a terminal-like viewer, and annotations in the browser.
func visibleText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || model.IsHiddenRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

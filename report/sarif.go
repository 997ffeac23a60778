package report

import (
	"io"
	"net/url"
	"path/filepath"
	"strconv"
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
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	Help                 sarifMessage `json:"help"`
	HelpURI              string       `json:"helpUri,omitempty"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties sarifRuleProperties `json:"properties"`
}

type sarifRuleProperties struct {
	Tags             []string `json:"tags"`
	SecuritySeverity string   `json:"security-severity"`
	Precision        string   `json:"precision"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocationRef `json:"locations"`
	RelatedLocations    []sarifLocationRef `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Properties          map[string]any     `json:"properties,omitempty"`
}

type sarifLocationRef struct {
	ID               *int `json:"id,omitempty"`
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
	// Base is the directory result paths are made relative to: the repository root
	// (status --sarif-root, by default the git top level). Paths outside it are written
	// as absolute file URIs, which code scanning cannot place.
	Base string
	// Version is vouch's version, for the tool driver.
	Version string
	// ProjectURL is vouch's home page: the driver's informationUri, and with the README
	// section on CI every rule's helpUri. "" leaves both out.
	ProjectURL string
	// Manifest returns the manifest file of the package of format (any format when "")
	// whose folder is dir, or "": where a result about a package without a file of its
	// own points, since code scanning places results in files only.
	Manifest func(format, dir string) string
	// RequireApproved makes every component that is not approved an error result, as
	// `status --require-approved` fails on it; otherwise such components are warnings.
	RequireApproved bool
}

// fingerprintKey names vouch's partialFingerprints entry.
const fingerprintKey = "vouchFinding/v1"

// WriteSARIF writes r as a SARIF 2.1.0 log that GitHub code scanning accepts: every
// result has a location in a file, relative to the repository root, with a line, a
// fingerprint that stays while the finding does, and a rule GitHub can rank.
func WriteSARIF(w io.Writer, r *Report, o SARIFOptions) error {
	rules := map[string]int{}
	driver := sarifDriver{Name: "vouch", Version: o.Version, SemanticVersion: semver(o.Version), Rules: []sarifRule{}}
	if o.ProjectURL != "" {
		driver.InformationURI = o.ProjectURL
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	if o.Base != "" {
		run.OriginalURIBaseIDs = map[string]sarifLocation{"SRCROOT": {URI: fileURI(o.Base, true)}}
	}
	rule := func(ri ruleInfo, level string) int {
		if i, ok := rules[ri.id]; ok {
			return i
		}
		sr := sarifRule{ID: ri.id, Name: ri.id, ShortDescription: sarifMessage{Text: safeText(clip(ri.short, 1000))},
			FullDescription: sarifMessage{Text: safeText(clip(ri.full, 1000))}, Help: sarifMessage{Text: safeText(ri.full)}}
		if o.ProjectURL != "" {
			sr.HelpURI = o.ProjectURL + "#use-in-ci"
		}
		sr.DefaultConfiguration.Level = level
		sr.Properties = sarifRuleProperties{Tags: ri.tags, SecuritySeverity: strconv.FormatFloat(ri.severity, 'f', 1, 64), Precision: "very-high"}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
		rules[ri.id] = len(run.Tool.Driver.Rules) - 1
		return rules[ri.id]
	}
	for _, f := range findings(r, o) {
		res := sarifResult{RuleID: f.rule.id, RuleIndex: rule(f.rule, f.level), Level: f.level,
			Message: sarifMessage{Text: nonEmpty(safeText(f.message))}, Locations: []sarifLocationRef{}}
		uri := ""
		if f.file != "" {
			loc := o.location(f.file, f.line)
			uri = loc.PhysicalLocation.ArtifactLocation.URI
			res.Locations = append(res.Locations, loc)
		}
		for i, rel := range f.related {
			if i == 100 { // GitHub keeps at most 100 locations of a result
				break
			}
			loc := o.location(rel, 1)
			id := i + 1
			loc.ID = &id
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		res.PartialFingerprints = map[string]string{fingerprintKey: f.fingerprint(uri)}
		props := map[string]any{}
		if f.pkg != "" {
			props["package"] = safeText(f.pkg)
		}
		if f.ref != "" {
			props["ref"] = safeText(f.ref)
		}
		if len(props) > 0 {
			res.Properties = props
		}
		run.Results = append(run.Results, res)
	}
	return WriteJSON(w, sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}})
}

// semver is v as a semantic version (without a leading v), or "" when it is not one (a
// build from a checkout says "devel").
func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	core, _, _ := strings.Cut(v, "+")
	core, _, _ = strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return ""
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil || p == "" {
			return ""
		}
	}
	return v
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

// location points at the file p (absolute), relative to Base when it lies inside it.
func (o SARIFOptions) location(p string, line int) sarifLocationRef {
	var loc sarifLocationRef
	if o.Base != "" {
		if rel, err := filepath.Rel(o.Base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			loc.PhysicalLocation.ArtifactLocation = sarifLocation{URI: relURI(filepath.ToSlash(rel)), URIBaseID: "SRCROOT"}
		}
	}
	if loc.PhysicalLocation.ArtifactLocation.URI == "" {
		loc.PhysicalLocation.ArtifactLocation = sarifLocation{URI: fileURI(p, false)}
	}
	if line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: line}
	}
	return loc
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

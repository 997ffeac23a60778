package mcpb

import (
	"bytes"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"vouch/internal/lazyre"
	"vouch/internal/textclip"
	"vouch/model"
	"vouch/review/jsontext"
	"vouch/schemas"
)

// Versions lists the manifest versions mcpb 2.1.2 has strict schemas for.
var Versions = []string{"0.1", "0.2", "0.3", "0.4"}

// parseOptions are the bounds of jsontext.Limits. Repeated names are kept and reported: JSON.parse
// (which mcpb and Claude Desktop use) keeps the last one, so Get is what the host reads.
var parseOptions = jsontext.Options{MaxDepth: 32, MaxString: 16 << 10, MaxEntries: 1024}

// Manifest is a parsed manifest.json.
type Manifest struct {
	Root    *jsontext.Value
	Version string // the version whose schema applies; "" when none does
	// VersionKey is the field it came from: manifest_version or dxt_version.
	VersionKey string
	Data       []byte
}

// str returns the string at a path of member names, if every step exists with the right type.
func (m *Manifest) str(keys ...string) (string, bool) {
	v := m.value(keys...)
	if v == nil || v.Kind != jsontext.String {
		return "", false
	}
	return v.Str, true
}

func (m *Manifest) value(keys ...string) *jsontext.Value {
	v := m.Root
	for _, k := range keys {
		mem := v.Get(k)
		if mem == nil {
			return nil
		}
		v = mem.Val
	}
	return v
}

// ParseManifest parses manifest.json text and picks the schema version the way mcpb's
// getManifestVersionFromRawData does: manifest_version when it is a known version string,
// else dxt_version when that is, else none. It never panics; diagnostics say what is wrong.
func ParseManifest(data []byte) (*Manifest, []model.Diagnostic) {
	m := &Manifest{Data: data}
	var diags []model.Diagnostic
	v, issues, perr := jsontext.Parse(data, parseOptions)
	for _, is := range issues {
		code := "manifest-" + strings.TrimPrefix(is.Code, "json-")
		sev := model.SeverityWarning
		msg := "In manifest.json, " + is.Msg
		if is.Code == jsontext.CodeDuplicateKey {
			msg += " Claude Desktop reads it with JSON.parse, which keeps the last occurrence; vouch shows that one."
		}
		if is.Code == jsontext.CodeTooManyEntries {
			sev = model.SeverityError
		}
		diags = append(diags, mdiag(code, sev, model.BoundaryPackage, is.Pointer, jsontext.Line(data, is.Off), msg))
	}
	if perr != nil {
		code := "manifest-invalid-json"
		if perr.Code == jsontext.CodeTooDeep {
			code = "manifest-too-deep"
		}
		return nil, append(diags, mdiag(code, model.SeverityError, model.BoundaryPackage, "", jsontext.Line(data, perr.Off), "manifest.json "+perr.Msg+"."))
	}
	if v.Kind != jsontext.Object {
		return nil, append(diags, mdiag("manifest-not-object", model.SeverityError, model.BoundaryPackage, "", 1, fmt.Sprintf("manifest.json holds a JSON %s; an MCP Bundle manifest is an object.", v.Kind)))
	}
	m.Root = v
	for _, key := range []string{"manifest_version", "dxt_version"} {
		if s, ok := m.str(key); ok && known(s) {
			m.Version, m.VersionKey = s, key
			break
		}
	}
	if m.Version == "" {
		shown := "neither manifest_version nor dxt_version"
		if mv := v.Get("manifest_version"); mv != nil {
			shown = "manifest_version " + shownValue(mv.Val)
		} else if dv := v.Get("dxt_version"); dv != nil {
			shown = "dxt_version " + shownValue(dv.Val)
		}
		diags = append(diags, mdiag("manifest-version-unsupported", model.SeverityError, model.BoundaryPackage, "/manifest_version", 1,
			fmt.Sprintf("manifest.json has %s; mcpb 2.1.2 knows the versions %s (as strings) and rejects the manifest: \"Unrecognized or unsupported manifest version\".", shown, strings.Join(Versions, ", "))))
		return m, diags
	}
	if m.VersionKey == "dxt_version" {
		diags = append(diags, mdiag("manifest-dxt-version-deprecated", model.SeverityInfo, model.BoundaryPackage, "/dxt_version", line(m, "dxt_version"),
			"manifest.json uses the deprecated dxt_version; mcpb reads it when manifest_version is absent, and new bundles should use manifest_version."))
	}
	return m, diags
}

// shownValue writes a scalar as JSON text for a message (a number as written, so 0.3
// is visibly not "0.3").
func shownValue(v *jsontext.Value) string {
	switch v.Kind {
	case jsontext.String:
		return strconv.Quote(clip(v.Str))
	case jsontext.Number:
		return clip(v.Str)
	case jsontext.Bool:
		return strconv.FormatBool(v.Bool)
	case jsontext.Null:
		return "null"
	}
	return "(a JSON " + v.Kind.String() + ")"
}

func known(v string) bool {
	for _, k := range Versions {
		if v == k {
			return true
		}
	}
	return false
}

func line(m *Manifest, keys ...string) int {
	v := m.Root
	off := v.Off
	for _, k := range keys {
		mem := v.Get(k)
		if mem == nil {
			break
		}
		off, v = mem.KeyOff, mem.Val
	}
	return jsontext.Line(m.Data, off)
}

func mdiag(code string, sev model.Severity, b model.Boundary, ptr string, line int, msg string) model.Diagnostic {
	return model.Diagnostic{Code: code, Severity: sev, Boundary: b, File: manifestFile, Pointer: ptr, Line: line, Message: msg, Spec: specManifest}
}

const specManifest = "mcpb MANIFEST.md; mcpb 2.1.2 schemas"

var (
	schemaOnce sync.Once
	compiled   map[string]*jsonschema.Schema
	compileErr error
	printer    = message.NewPrinter(language.English)
)

// schemaFor compiles the embedded strict schemas once. Formats are asserted with
// validators that follow zod 3 (which `mcpb validate` runs): "uri" is what the WHATWG
// URL parser accepts, "email" is zod's email pattern.
func schemaFor(version string) (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		compiled = map[string]*jsonschema.Schema{}
		for _, v := range Versions {
			c := jsonschema.NewCompiler()
			c.UseLoader(noLoader{})
			c.AssertFormat()
			c.RegisterFormat(&jsonschema.Format{Name: "uri", Validate: func(x any) error {
				if s, ok := x.(string); ok && !WHATWGURL(s) {
					return fmt.Errorf("Invalid url")
				}
				return nil
			}})
			c.RegisterFormat(&jsonschema.Format{Name: "email", Validate: func(x any) error {
				if s, ok := x.(string); ok && !ZodEmail(s) {
					return fmt.Errorf("Invalid email")
				}
				return nil
			}})
			id := "https://mcpb.invalid/mcpb-manifest-v" + v + ".schema.json"
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.MCPBManifests[v]))
			if err == nil {
				err = c.AddResource(id, doc)
			}
			var s *jsonschema.Schema
			if err == nil {
				s, err = c.Compile(id)
			}
			if err != nil {
				compileErr = fmt.Errorf("embedded MCPB schema %s: %w", v, err)
				return
			}
			compiled[v] = s
		}
	})
	if compileErr != nil {
		return nil, compileErr
	}
	return compiled[version], nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not embedded and is never fetched", url)
}

// Validate checks the manifest against the strict schema of its version. Every failure
// is an error at the package boundary: mcpb validate rejects the whole manifest.
func (m *Manifest) Validate() []model.Diagnostic {
	if m == nil || m.Version == "" {
		return nil
	}
	sch, err := schemaFor(m.Version)
	if err != nil {
		return []model.Diagnostic{mdiag("schema-unavailable", model.SeverityError, model.BoundaryPackage, "", 0, fmt.Sprintf("The embedded MCPB schemas could not be compiled (%v).", err))}
	}
	verr := sch.Validate(m.Root.Any())
	if verr == nil {
		return nil
	}
	type leaf struct {
		loc []string
		msg string
	}
	var ls []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			ls = append(ls, leaf{e.InstanceLocation, e.ErrorKind.LocalizedString(printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	if ve, ok := verr.(*jsonschema.ValidationError); ok {
		walk(ve)
	} else {
		ls = append(ls, leaf{nil, verr.Error()})
	}
	var out []model.Diagnostic
	seen := map[string]bool{}
	for _, l := range ls {
		loc := l.loc
		// An unknown field is reported where it is, not at the object holding it.
		if rest, ok := strings.CutPrefix(l.msg, "additional properties "); ok {
			if name, _, ok := strings.Cut(strings.TrimPrefix(rest, "'"), "'"); ok {
				loc = append(append([]string(nil), loc...), name)
			}
		}
		ptr := jsontext.Pointer(loc...)
		if ptr == "/localization/resources" && strings.Contains(l.msg, "does not match pattern") {
			// The JSON Schema pattern is case-sensitive, zod's (what mcpb validate runs) is
			// /\$\{locale\}/i: follow the validator.
			if v := m.value("localization", "resources"); v != nil && localeAnyCase.MatchString(v.Str) {
				continue
			}
		}
		key := ptr + "\x00" + l.msg
		if seen[key] {
			continue
		}
		seen[key] = true
		where := "manifest.json"
		if ptr != "" {
			where = "manifest.json at " + ptr
		}
		out = append(out, mdiag(schemaCode(l.msg), model.SeverityError, model.BoundaryPackage, ptr,
			jsontext.Line(m.Data, m.Root.Offset(loc)),
			fmt.Sprintf("%s does not match the MCPB %s manifest schema: %s.", where, m.Version, clip(strings.TrimSuffix(l.msg, ".")))))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// schemaCode names a schema failure by its kind, so tests and reports can tell them apart.
func schemaCode(msg string) string {
	switch {
	case strings.Contains(msg, "additional propert"):
		return "manifest-unknown-field"
	case strings.Contains(msg, "missing propert"):
		return "manifest-missing-field"
	case strings.HasPrefix(msg, "got ") && strings.Contains(msg, "want "):
		return "manifest-field-type"
	case strings.Contains(msg, "is not valid"):
		return "manifest-field-format"
	case strings.Contains(msg, "value must be one of") || strings.Contains(msg, "value must be"):
		return "manifest-field-value"
	case strings.Contains(msg, "does not match pattern"):
		return "manifest-field-pattern"
	}
	return "manifest-schema"
}

// clip shortens package text quoted in messages to 200 characters and a mark.
func clip(s string) string { return textclip.Clip(s, 201, "…") }

// zodEmail is zod 3's email pattern without its lookaheads (checked by hand below).
var zodEmail = lazyre.New(`(?i)^([A-Z0-9_'+\-\.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$`)

// ZodEmail reports whether zod 3's z.string().email() accepts s.
func ZodEmail(s string) bool {
	if strings.HasPrefix(s, ".") || strings.Contains(s, "..") {
		return false
	}
	return zodEmail.MatchString(s)
}

var localeAnyCase = lazyre.New(`(?i)\$\{locale\}`)

var schemeRe = lazyre.New(`^[A-Za-z][A-Za-z0-9+.\-]*:`)

var specialSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true, "file": true}

// WHATWGURL reports whether new URL(s) succeeds (zod 3's z.string().url()), closely enough
// for manifest fields: a scheme, and for the special schemes a valid host and port.
func WHATWGURL(s string) bool {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	loc := schemeRe.FindStringIndex(s)
	if loc == nil {
		return false
	}
	scheme := strings.ToLower(s[:loc[1]-1])
	rest := s[loc[1]:]
	if !specialSchemes[scheme] {
		return true
	}
	rest = strings.TrimLeft(rest, "/\\")
	auth := rest
	if i := strings.IndexAny(auth, "/\\?#"); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		if _, err := netip.ParseAddr(host[1:end]); err != nil {
			return false
		}
		host, port = host[:end+1], strings.TrimPrefix(host[end+1:], ":")
		if host[end+1:] != "" && !strings.HasPrefix(auth[end+1:], ":") {
			return false
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 || strings.ContainsAny(port, "+-") {
			return false
		}
	}
	if host == "" {
		return scheme == "file"
	}
	// Forbidden host code points ('%' stands for what percent-decoding could reveal).
	return strings.HasPrefix(host, "[") || !strings.ContainsAny(host, " #%/<>?@[\\]^|\x00")
}

package agentplugins

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"vouch/internal/textclip"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/schemas"
)

const manifestFile = "plugin.json"

// specDuplicateKeys is the Spec of a repeated known field: §5.2 does not forbid it, vouch does.
const specDuplicateKeys = "vouch: duplicate manifest keys are ambiguous across clients"

// manifestFields are the only permitted top-level fields (agent-plugins §5.2), in display order.
var manifestFields = []string{"$schema", "name", "version", "description", "author", "homepage", "repository", "license", "keywords", "extensions"}

func isManifestField(k string) bool {
	for _, f := range manifestFields {
		if f == k {
			return true
		}
	}
	return false
}

// manifest loads and validates plugin.json. It returns false when the plugin is rejected:
// then nothing else is discovered (agent-plugins §5.2, §11.3).
func (l *loader) manifest() bool {
	data, ok := l.readManifest()
	if !ok {
		return false
	}
	l.manifestData = data
	doc, issues, jerr := jsontext.Parse(data, l.opts.jsonOptions())
	if jerr != nil {
		code := map[string]string{jsontext.CodeSyntax: "manifest-invalid-json", jsontext.CodeInvalidUTF8: "manifest-invalid-utf8", jsontext.CodeTooDeep: "manifest-too-deep"}[jerr.Code]
		l.reject(code, manifestFile, "", jsontext.Line(data, jerr.Off), fmt.Sprintf("plugin.json %s, so the plugin is rejected.", jerr.Msg), "5.2")
		return false
	}
	fatal := l.manifestIssues(data, issues)
	if doc.Kind != jsontext.Object {
		l.reject("manifest-not-object", manifestFile, "", jsontext.Line(data, doc.Off), fmt.Sprintf("plugin.json holds a JSON %s; it must hold an object, so the plugin is rejected.", doc.Kind), "5.2")
		return false
	}
	if !l.manifestSchemaField(doc, data) {
		return false
	}
	inst := l.manifestInstance(doc, data)
	if l.manifestInvalid(doc, data, inst) || fatal {
		if nm := doc.Get("name"); nm != nil && nm.Val.Kind == jsontext.String && nm.Val.Str != "" && nameProblem(nm.Val.Str) == "" {
			l.pkg.Name = nm.Val.Str
		}
		return false
	}
	l.acceptManifest(doc, inst)
	return true
}

// readManifest reads plugin.json within the manifest limit; false when it cannot be
// read, which rejects the plugin.
func (l *loader) readManifest() ([]byte, bool) {
	data, err := l.root.ReadFile(manifestFile, l.opts.Limits.MaxManifestSize)
	if err == nil {
		return data, true
	}
	sec := "5.1"
	msg := fmt.Sprintf("plugin.json %s; an Agent Plugins root must hold a readable manifest, so the plugin is rejected.", fsguard.Reason(err))
	switch fsguard.CodeOf(err) {
	case fsguard.CodeEscape:
		sec = "4.1"
		msg = "plugin.json resolves outside the plugin root, so the plugin is rejected; replace the symlink with the file."
	case fsguard.CodeTooLarge:
		msg = fmt.Sprintf("plugin.json %s; vouch reads manifests up to %d bytes, so the plugin is rejected.", fsguard.Reason(err), l.opts.Limits.MaxManifestSize)
	case fsguard.CodeNotRegular:
		msg = fmt.Sprintf("plugin.json %s; the manifest must be a regular file, so the plugin is rejected.", fsguard.Reason(err))
	}
	l.reject("manifest-"+fsguard.CodeSuffix(err), manifestFile, "", 0, msg, sec)
	return nil, false
}

// manifestIssues reports the parser's findings: inside an extension namespace they are
// notes on the extension; a repeated unknown field is left to the unknown-field report; a
// repeated known field or any other finding rejects the plugin (returns true).
func (l *loader) manifestIssues(data []byte, issues []jsontext.Issue) (fatal bool) {
	l.extIssues = map[string][]model.Diagnostic{}
	dupReported := map[string]bool{}
	for _, is := range issues {
		toks := jsontext.SplitPointer(is.Pointer)
		if len(toks) >= 2 && toks[0] == "extensions" {
			// Inside a namespace value: inert data vouch does not interpret. Note it on the
			// extension and keep loading (agent-plugins §8.1).
			l.extIssues[toks[1]] = append(l.extIssues[toks[1]], model.Place{File: manifestFile, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off)}.Component("extension-"+strings.TrimPrefix(is.Code, "json-"), model.SeverityWarning, fmt.Sprintf("In plugin.json, %s; this data is shown but never interpreted.", is.Msg), specRef("8.1")))
			continue
		}
		if is.Code == jsontext.CodeDuplicateKey {
			if len(toks) == 1 && !isManifestField(toks[0]) {
				// A repeated unknown field is ignored like the field itself (§5.2: report,
				// ignore, continue); it is reported once with the unknown field.
				continue
			}
			// A repeated known field: JSON leaves the winner to the parser, so two clients
			// may read two different manifests. That is vouch's rule, not §5.2's, and the
			// Spec says so.
			fatal = true
			if !dupReported[is.Pointer] {
				dupReported[is.Pointer] = true
				l.pkgDiag(model.Diagnostic{Code: "manifest-duplicate-key", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
					File: manifestFile, Pointer: is.Pointer, Line: jsontext.Line(data, is.Off),
					Message: fmt.Sprintf("In plugin.json, %s; clients that keep the first and the last occurrence would read different manifests, so the plugin is rejected.", is.Msg),
					Spec:    specDuplicateKeys})
				l.pkg.Rejected = true
			}
			continue
		}
		fatal = true
		l.reject("manifest-"+strings.TrimPrefix(is.Code, "json-"), manifestFile, is.Pointer, jsontext.Line(data, is.Off),
			fmt.Sprintf("In plugin.json, %s, so the plugin is rejected.", is.Msg), "5.2")
	}
	return fatal
}

// manifestSchemaField checks $schema, which selects the rules before anything else is
// interpreted (§5.2); false when it rejects the plugin.
func (l *loader) manifestSchemaField(doc *jsontext.Value, data []byte) bool {
	sm := doc.Get("$schema")
	switch {
	case sm == nil:
		l.reject("manifest-missing-schema", manifestFile, "/$schema", jsontext.Line(data, doc.Off),
			fmt.Sprintf("plugin.json has no $schema; add \"$schema\": %q, so the plugin is rejected.", schemas.AgentPluginsManifestID), "5.3")
		return false
	case sm.Val.Kind != jsontext.String:
		l.reject("manifest-field-type", manifestFile, "/$schema", jsontext.Line(data, sm.KeyOff),
			fmt.Sprintf("$schema in plugin.json is a %s; it must be the string %q, so the plugin is rejected.", sm.Val.Kind, schemas.AgentPluginsManifestID), "5.3")
		return false
	case sm.Val.Str != schemas.AgentPluginsManifestID:
		l.reject("manifest-unsupported-version", manifestFile, "/$schema", jsontext.Line(data, sm.KeyOff),
			fmt.Sprintf("plugin.json declares $schema %q; vouch supports Agent Plugins 1.0.0 (%s) only, so the plugin is rejected.", clip(sm.Val.Str), schemas.AgentPluginsManifestID), "5.2")
		return false
	}
	return true
}

// manifestInstance is the manifest as validated and interpreted: the two non-fatal
// exceptions, unknown fields and a non-object extensions field, are reported and left
// out (§5.2, §8.1).
func (l *loader) manifestInstance(doc *jsontext.Value, data []byte) map[string]any {
	inst := make(map[string]any, len(doc.Obj))
	unknownCount := map[string]int{}
	for _, m := range doc.Obj {
		if !isManifestField(m.Key) {
			unknownCount[m.Key]++
		}
	}
	for _, m := range doc.Obj {
		if !isManifestField(m.Key) {
			n := unknownCount[m.Key]
			if n == 0 {
				continue // a repeat, already reported with the first occurrence
			}
			unknownCount[m.Key] = 0
			times := ""
			if n > 1 {
				times = fmt.Sprintf(" (%d times)", n)
			}
			l.pkgDiag(model.Place{File: manifestFile, Pointer: jsontext.Pointer(m.Key), Line: jsontext.Line(data, m.KeyOff)}.Package("manifest-unknown-field", model.SeverityWarning,
				fmt.Sprintf("plugin.json has the unknown top-level field %q%s; it is ignored (client-specific data belongs under \"extensions\").", clip(m.Key), times), specRef("5.2")))
			continue
		}
		if m.Key == "extensions" && m.Val.Kind != jsontext.Object {
			l.pkgDiag(model.Place{File: manifestFile, Pointer: "/extensions", Line: jsontext.Line(data, m.KeyOff)}.Package("manifest-extensions-not-object", model.SeverityWarning,
				fmt.Sprintf("\"extensions\" in plugin.json is a %s, not an object; it is ignored.", m.Val.Kind), specRef("8.1")))
			continue
		}
		inst[m.Key] = m.Val.Any()
	}
	return inst
}

// manifestInvalid validates the instance against the manifest schema, and the name
// against the specification's text, which wins over the schema; true when that rejects
// the plugin.
func (l *loader) manifestInvalid(doc *jsontext.Value, data []byte, inst map[string]any) (fatal bool) {
	nameReported := false
	if err := l.schemas.manifest.Validate(inst); err != nil {
		for _, lf := range leaves(err) {
			ptr := jsontext.Pointer(lf.Loc...)
			line := jsontext.Line(data, doc.Offset(lf.Loc))
			if len(lf.Loc) == 1 && lf.Loc[0] == "name" {
				if _, isType := lf.Kind.(*kind.Type); !isType {
					if !nameReported {
						nameReported = true
						l.reject("manifest-invalid-name", manifestFile, ptr, line, nameMessage(doc.Get("name").Val.Str), "5.5")
					}
					continue
				}
			}
			code, msg := manifestSchemaMessage(lf, ptr)
			l.reject(code, manifestFile, ptr, line, msg, "5.2")
		}
		fatal = true
	}
	if nm := doc.Get("name"); nm != nil && nm.Val.Kind == jsontext.String && !nameReported {
		if problem := nameProblem(nm.Val.Str); problem != "" {
			l.reject("manifest-invalid-name", manifestFile, "/name", jsontext.Line(data, nm.KeyOff), nameMessage(nm.Val.Str), "5.5")
			fatal = true
		}
	}
	return fatal
}

// acceptManifest fills the package identity and the display manifest of an accepted plugin.
func (l *loader) acceptManifest(doc *jsontext.Value, inst map[string]any) {
	for _, key := range manifestFields {
		m := doc.Get(key)
		if _, kept := inst[key]; m == nil || !kept {
			continue
		}
		l.pkg.Manifest = append(l.pkg.Manifest, model.Field{Key: key, Value: jsontext.Display(m.Val)})
	}
	l.pkg.Name = doc.Get("name").Val.Str
	if v := doc.Get("version"); v != nil {
		l.pkg.Version = v.Val.Str
	}
	if v := doc.Get("description"); v != nil {
		l.pkg.Description = v.Val.Str
	}
	if e := doc.Get("extensions"); e != nil && e.Val.Kind == jsontext.Object {
		l.extData = e.Val.Obj
	}
}

func manifestSchemaMessage(lf schemaLeaf, ptr string) (string, string) {
	where := "plugin.json"
	if ptr != "" {
		where = ptr + " in plugin.json"
	}
	switch k := lf.Kind.(type) {
	case *kind.Required:
		return "manifest-missing-field", fmt.Sprintf("%s is missing the required field %q, so the plugin is rejected.", where, strings.Join(k.Missing, `", "`))
	case *kind.Type:
		return "manifest-field-type", fmt.Sprintf("%s is a %s but must be %s, so the plugin is rejected.", where, k.Got, strings.Join(k.Want, " or "))
	case *kind.AdditionalProperties:
		return "manifest-unknown-nested-field", fmt.Sprintf("%s has the field(s) %s, which are not allowed there, so the plugin is rejected.", where, quoteList(k.Properties))
	case *kind.Const:
		return "manifest-schema-violation", fmt.Sprintf("%s has a value the schema does not allow, so the plugin is rejected.", where)
	}
	return "manifest-schema-violation", fmt.Sprintf("%s does not match the Agent Plugins 1.0.0 manifest schema, so the plugin is rejected.", where)
}

// nameProblem explains why a plugin name breaks agent-plugins §5.5, or returns "".
func nameProblem(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case len(name) > 64:
		return fmt.Sprintf("it is %d characters long (at most 64)", len([]rune(name)))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			if r >= 'A' && r <= 'Z' {
				return "it has uppercase letters (only a-z, 0-9, '-' and '.' are allowed)"
			}
			return fmt.Sprintf("it has the character %q (only a-z, 0-9, '-' and '.' are allowed)", r)
		}
	}
	first, last := name[0], name[len(name)-1]
	switch {
	case first == '-' || first == '.':
		return "it starts with a hyphen or period (it must start with a letter or digit)"
	case last == '-' || last == '.':
		return "it ends with a hyphen or period (it must end with a letter or digit)"
	case strings.Contains(name, "--"):
		return "it has consecutive hyphens"
	case strings.Contains(name, ".."):
		return "it has consecutive periods"
	}
	return ""
}

func nameMessage(name string) string {
	p := nameProblem(name)
	if p == "" {
		p = "it does not match the name pattern"
	}
	return fmt.Sprintf("The plugin name %q is invalid because %s, so the plugin is rejected.", clip(name), p)
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", clip(s))
	}
	return strings.Join(q, ", ")
}

// clip shortens package text quoted in messages so a hostile 16 KiB value cannot flood a report.
func clip(s string) string { return textclip.Clip(s, 120, "...") }

package splice

import (
	"fmt"
	"strconv"
	"strings"

	"vouch/internal/lazyre"
	"vouch/review/jsontext"
)

// Limits and constants of Splice spec version 1.
const (
	defaultTimeoutMs = 10000
	maxTimeoutMs     = 60000
	maxAgentSkills   = 20
	maxAgentExamples = 6
	maxDependencies  = 50
)

var (
	nameSegmentRe = lazyre.New(`^[a-z0-9][a-z0-9-]{0,63}$`)
	toolNameRe    = lazyre.New(`^[a-z][a-z0-9-]{0,63}$`)
	versionRe     = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	packageIDRe   = lazyre.New(`^@([^/]+)/([^/]+)$`)
	hostRe        = lazyre.New(`^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$`)
	envRe         = lazyre.New(`^[A-Z_][A-Z0-9_]{0,127}$`)
	driveRe       = lazyre.New(`^[a-zA-Z]:`)
)

var entryExtensions = []string{".ts", ".mts", ".js", ".mjs"}

// Issue is one manifest finding: the upstream message text, a stable code and where.
type Issue struct {
	Code    string
	Pointer string // JSON pointer into manifest.json
	Message string // exactly as @spliceloom/spec words it
	Tool    int    // index in tools[] the issue belongs to, -1 for the package
	Line    int    // 1-based line in manifest.json of the value (or nearest parent), 0 if unknown
}

// Permissions is the normalized permission set (duplicates dropped, order kept).
type Permissions struct {
	Read, Write, Network, Env, Capabilities []string
}

// Empty reports whether nothing is declared.
func (p Permissions) Empty() bool {
	return len(p.Read)+len(p.Write)+len(p.Network)+len(p.Env)+len(p.Capabilities) == 0
}

// Tool is a tool definition as validated (best effort when the manifest has errors).
type Tool struct {
	Index       int
	Name        string
	Description string
	Entry       string
	Input       any // raw schema; nil when missing
	Output      any // raw schema; nil when absent
	TimeoutMs   int // 0 when not declared
	Vendor      *object
	OK          bool // no issue points into this tool
}

// Timeout is the effective timeout (default 10000 ms).
func (t *Tool) Timeout() int {
	if t.TimeoutMs == 0 {
		return defaultTimeoutMs
	}
	return t.TimeoutMs
}

// Agent is the optional agent definition.
type Agent struct {
	Instructions string
	Skills       []string
	Model        string
	Examples     []string
	Vendor       *object
}

// Manifest is a validated manifest.json. Fields hold what could be read even when
// validation failed, so that a reviewer still sees them.
type Manifest struct {
	SpecVersion    any
	Namespace      string
	Name           string
	Version        string
	Description    string
	License        *string
	Homepage       *string
	RuntimeType    string
	MinNodeVersion string
	RuntimeVendor  *object
	Permissions    Permissions
	Tools          []*Tool
	Agent          *Agent
	Dependencies   [][2]string // in declaration order
	Vendor         *object     // x-* keys at top level; dropped by Splice, shown as vendor data
}

// ID is the package id "@namespace/name", or "" when either part is missing.
func (m *Manifest) ID() string {
	if m.Namespace == "" || m.Name == "" {
		return ""
	}
	return "@" + m.Namespace + "/" + m.Name
}

func isExtensionKey(k string) bool { return strings.HasPrefix(k, "x-") }

// isSafeRelativePath is Splice's path rule for permissions, entries and archive paths.
func isSafeRelativePath(v string) bool {
	if v == "." {
		return true
	}
	if v == "" || jsLen(v) > 256 {
		return false
	}
	if strings.ContainsAny(v, "\\\x00") || strings.HasPrefix(v, "/") || driveRe.MatchString(v) {
		return false
	}
	for _, seg := range strings.Split(v, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

func isSafeBundlePath(v string) bool { return v != "." && isSafeRelativePath(v) }

func isValidVersion(v string) bool {
	m := versionRe.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	for _, part := range m[1:4] {
		// Number(part) must be a safe integer (≤ 2^53-1).
		n, err := strconv.ParseFloat(part, 64)
		if err != nil || n > 9007199254740991 {
			return false
		}
	}
	return true
}

func isValidRange(r string) bool {
	if r == "latest" || r == "*" {
		return true
	}
	if strings.HasPrefix(r, "^") || strings.HasPrefix(r, "~") {
		r = r[1:]
	}
	return isValidVersion(r)
}

func isValidToolEntry(e string) bool {
	if !isSafeRelativePath(e) || e == "." {
		return false
	}
	for _, ext := range entryExtensions {
		if strings.HasSuffix(e, ext) {
			return true
		}
	}
	return false
}

type validator struct {
	issues []Issue
	tool   int
}

func (v *validator) add(code, ptr, msg string) {
	v.issues = append(v.issues, Issue{Code: code, Pointer: ptr, Message: msg, Tool: v.tool})
}

func ptrEscape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// requireString follows upstream: a non-blank string, at most max UTF-16 units; the value
// is returned even when too long so later pattern checks still run.
func (v *validator) requireString(o *object, key, path, ptr string, max int) string {
	raw, _ := o.get(key)
	s, ok := raw.(string)
	if !ok || jsTrim(s) == "" {
		v.add("manifest-required-string", ptr+"/"+key, path+key+": is required and must be a non-empty string")
		return ""
	}
	if jsLen(s) > max {
		v.add("manifest-string-too-long", ptr+"/"+key, fmt.Sprintf("%s%s: must be at most %d characters", path, key, max))
	}
	return s
}

func (v *validator) optionalString(o *object, key string) *string {
	raw, present := o.get(key)
	if !present {
		return nil
	}
	s, ok := raw.(string)
	if !ok || jsLen(s) > 500 {
		v.add("manifest-invalid-string", "/"+key, key+": must be a string of at most 500 characters")
		return nil
	}
	return &s
}

func vendorOf(o *object) *object {
	var out *object
	for _, k := range o.keys() {
		if isExtensionKey(k) {
			if out == nil {
				out = &object{vals: map[string]any{}}
			}
			out.order = append(out.order, k)
			out.vals[k] = o.vals[k]
		}
	}
	return out
}

// ValidateManifestJSON parses manifest.json bytes (a leading BOM is accepted) and validates
// them. The returned manifest is nil only when the text is not a JSON value.
func ValidateManifestJSON(data []byte) (*Manifest, []Issue) {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	raw, pos, err := parseJSONPositions(text, true)
	if err != nil {
		is := Issue{Code: "manifest-invalid-json", Message: "manifest.json is not valid JSON: " + err.Error(), Tool: -1}
		if pe, ok := err.(*JSONParseError); ok {
			is.Line = jsontext.Line(text, pe.Offset)
			if pe.TooDeep {
				// JSON.parse has no such bound: this is vouch's, so it is not worded as Splice's.
				is.Code = "manifest-too-deep"
				is.Message = "manifest.json " + pe.Msg + "; vouch does not read JSON nested that deep (Splice would), so it cannot show what this manifest declares."
			}
		}
		return nil, []Issue{is}
	}
	m, issues := ValidateManifest(raw)
	for i := range issues {
		ptr := issues[i].Pointer
		for {
			if off, ok := pos[ptr]; ok {
				issues[i].Line = jsontext.Line(text, off)
				break
			}
			j := strings.LastIndex(ptr, "/")
			if j < 0 {
				break
			}
			ptr = ptr[:j]
		}
	}
	return m, issues
}

// ValidateManifest applies every rule of validateManifest (@spliceloom/spec, spec version 1)
// in upstream order, so the messages come out in the order Splice prints them.
func ValidateManifest(raw any) (*Manifest, []Issue) {
	v := &validator{tool: -1}
	m := &Manifest{RuntimeType: "node"}
	o, ok := raw.(*object)
	if !ok {
		return nil, []Issue{{Code: "manifest-not-object", Message: "manifest: must be a JSON object", Tool: -1}}
	}
	sv, present := o.get("specVersion")
	if !present {
		return m, []Issue{{Code: "manifest-spec-version-missing", Pointer: "/specVersion", Message: "specVersion: is required", Tool: -1}}
	}
	m.SpecVersion = sv
	if f, isNum := sv.(float64); !isNum || f != 1 {
		// Splice stops here: a manifest of another spec version is not read further.
		return m, []Issue{{Code: "manifest-unsupported-version", Pointer: "/specVersion",
			Message: fmt.Sprintf("specVersion: unsupported version %s (supported: 1)", jsString(sv)), Tool: -1}}
	}
	known := map[string]bool{"specVersion": true, "namespace": true, "name": true, "version": true, "description": true,
		"license": true, "homepage": true, "runtime": true, "permissions": true, "tools": true, "agent": true, "dependencies": true}
	for _, k := range o.keys() {
		if !known[k] && !isExtensionKey(k) {
			v.add("manifest-unknown-field", "/"+ptrEscape(k), k+": unknown field")
		}
	}
	m.Vendor = vendorOf(o)

	v.identity(o, m)

	if rt, present := o.get("runtime"); present {
		v.runtime(rt, m)
	}

	perms, _ := o.get("permissions")
	_, hasPerms := o.get("permissions")
	m.Permissions = v.normalizePermissions(perms, hasPerms)

	agentRaw, hasAgent := o.get("agent")
	v.tools(o, m, hasAgent)

	selfID := m.ID()
	if hasAgent {
		m.Agent = v.validateAgent(agentRaw, selfID)
	}
	if deps, present := o.get("dependencies"); present {
		m.Dependencies = v.validateDependencies(deps, selfID)
	}
	for _, t := range m.Tools {
		t.OK = true
		for _, is := range v.issues {
			if is.Tool == t.Index {
				t.OK = false
			}
		}
	}
	return m, v.issues
}

// identity reads namespace, name, version and the descriptive strings, each to its
// length and form.
func (v *validator) identity(o *object, m *Manifest) {
	m.Namespace = v.requireString(o, "namespace", "", "", 64)
	if m.Namespace != "" && !nameSegmentRe.MatchString(m.Namespace) {
		v.add("manifest-invalid-namespace", "/namespace", "namespace: may only contain lowercase letters, digits and dashes")
	}
	m.Name = v.requireString(o, "name", "", "", 64)
	if m.Name != "" && !nameSegmentRe.MatchString(m.Name) {
		v.add("manifest-invalid-name", "/name", "name: may only contain lowercase letters, digits and dashes")
	}
	m.Version = v.requireString(o, "version", "", "", 64)
	if m.Version != "" && !isValidVersion(m.Version) {
		v.add("manifest-invalid-version", "/version", "version: "+q(m.Version)+" is not a valid semantic version")
	}
	m.Description = v.requireString(o, "description", "", "", 500)
	m.License = v.optionalString(o, "license")
	m.Homepage = v.optionalString(o, "homepage")
}

// runtime reads the runtime object: spec version 1 knows only {"type":"node"}, with an
// optional minNodeVersion.
func (v *validator) runtime(rt any, m *Manifest) {
	ro, isObj := rt.(*object)
	typ, _ := func() (any, bool) {
		if isObj {
			return ro.get("type")
		}
		return nil, false
	}()
	if !isObj || typ != "node" {
		v.add("manifest-runtime-unsupported", "/runtime", `runtime: only {"type":"node"} is supported in spec version 1`)
		if s, ok := typ.(string); ok {
			m.RuntimeType = s
		} else {
			m.RuntimeType = ""
		}
		return
	}
	for _, k := range ro.keys() {
		if k != "type" && k != "minNodeVersion" && !isExtensionKey(k) {
			v.add("manifest-unknown-field", "/runtime/"+ptrEscape(k), "runtime."+k+": unknown field")
		}
	}
	if min, present := ro.get("minNodeVersion"); present {
		if s, ok := min.(string); !ok || !isValidVersion(s) {
			v.add("manifest-invalid-min-node-version", "/runtime/minNodeVersion", `runtime.minNodeVersion: must be a semantic version like "22.18.0"`)
		} else {
			m.MinNodeVersion = s
		}
	}
	m.RuntimeVendor = vendorOf(ro)
}

// tools reads the tools array: non-empty unless the package is an agent without tools,
// each tool validated and its name unique.
func (v *validator) tools(o *object, m *Manifest, hasAgent bool) {
	toolsRaw, hasTools := o.get("tools")
	toolsArr, toolsIsArr := toolsRaw.([]any)
	toolless := hasAgent && (!hasTools || (toolsIsArr && len(toolsArr) == 0))
	switch {
	case toolless:
	case !toolsIsArr || len(toolsArr) == 0:
		v.add("manifest-tools-empty", "/tools", "tools: must be a non-empty array")
	default:
		for i, t := range toolsArr {
			v.tool = i
			tool := v.validateTool(t, i)
			if tool == nil {
				continue
			}
			for _, ex := range m.Tools {
				if ex.Name == tool.Name {
					v.add("manifest-duplicate-tool", fmt.Sprintf("/tools/%d/name", i), fmt.Sprintf("tools[%d].name: duplicate tool name ", i)+q(tool.Name))
					break
				}
			}
			m.Tools = append(m.Tools, tool)
		}
		v.tool = -1
	}
}

func (v *validator) validateTool(raw any, i int) *Tool {
	path := fmt.Sprintf("tools[%d].", i)
	ptr := fmt.Sprintf("/tools/%d", i)
	o, ok := raw.(*object)
	if !ok {
		v.add("manifest-tool-not-object", ptr, fmt.Sprintf("tools[%d]: must be an object", i))
		return nil
	}
	known := map[string]bool{"name": true, "description": true, "entry": true, "input": true, "output": true, "timeoutMs": true}
	for _, k := range o.keys() {
		if !known[k] && !isExtensionKey(k) {
			v.add("manifest-unknown-field", ptr+"/"+ptrEscape(k), path+k+": unknown field")
		}
	}
	t := &Tool{Index: i, Vendor: vendorOf(o)}
	t.Name = v.requireString(o, "name", path, ptr, 64)
	if t.Name != "" && !toolNameRe.MatchString(t.Name) {
		v.add("manifest-invalid-tool-name", ptr+"/name", path+"name: must start with a letter and contain only lowercase letters, digits and dashes")
	}
	t.Description = v.requireString(o, "description", path, ptr, 500)
	t.Entry = v.requireString(o, "entry", path, ptr, 256)
	if t.Entry != "" && !isValidToolEntry(t.Entry) {
		v.add("manifest-invalid-entry", ptr+"/entry", path+"entry: must be a package-relative path without '..' ending in .ts, .mts, .js, .mjs")
	}
	if in, present := o.get("input"); !present {
		v.add("manifest-input-required", ptr+"/input", path+`input: is required (use {"type":"object"} for tools without input)`)
	} else {
		errs := checkSchema(in, path+"input", ptr+"/input", 0)
		for _, e := range errs {
			v.add(e.Code, e.Pointer, e.Message)
		}
		t.Input = in
		if len(errs) == 0 {
			if typ, _ := in.(*object).get("type"); typ != "object" {
				v.add("manifest-input-not-object", ptr+"/input/type", path+`input.type: tool input must be "object"`)
			}
		}
	}
	if out, present := o.get("output"); present {
		errs := checkSchema(out, path+"output", ptr+"/output", 0)
		for _, e := range errs {
			v.add(e.Code, e.Pointer, e.Message)
		}
		t.Output = out
	}
	if tm, present := o.get("timeoutMs"); present {
		f, isNum := tm.(float64)
		if !isInteger(tm) || f < 1 || f > maxTimeoutMs || !isNum {
			v.add("manifest-invalid-timeout", ptr+"/timeoutMs", fmt.Sprintf("%stimeoutMs: must be an integer between 1 and %d", path, maxTimeoutMs))
		} else {
			t.TimeoutMs = int(f)
		}
	}
	return t
}

func (v *validator) validateAgent(raw any, selfID string) *Agent {
	o, ok := raw.(*object)
	if !ok {
		v.add("manifest-agent-not-object", "/agent", "agent: must be an object")
		return nil
	}
	known := map[string]bool{"instructions": true, "skills": true, "model": true, "examples": true}
	for _, k := range o.keys() {
		if !known[k] && !isExtensionKey(k) {
			v.add("manifest-unknown-field", "/agent/"+ptrEscape(k), "agent."+k+": unknown field")
		}
	}
	a := &Agent{Vendor: vendorOf(o)}
	a.Instructions = v.requireString(o, "instructions", "agent.", "/agent", 8000)
	skillsRaw, _ := o.get("skills")
	if arr, ok := skillsRaw.([]any); !ok {
		v.add("manifest-agent-skills", "/agent/skills", "agent.skills: must be an array of package ids (it may be empty)")
	} else {
		if len(arr) > maxAgentSkills {
			v.add("manifest-agent-skills", "/agent/skills", fmt.Sprintf("agent.skills: at most %d packages", maxAgentSkills))
		}
		for i, id := range arr {
			p := fmt.Sprintf("/agent/skills/%d", i)
			s, isStr := id.(string)
			if !isStr || !validPackageID(s) {
				v.add("manifest-agent-skills", p, "agent.skills: invalid package name "+jsString(id))
				continue
			}
			dup := false
			for _, ex := range a.Skills {
				dup = dup || ex == s
			}
			switch {
			case s == selfID:
				v.add("manifest-agent-skills", p, fmt.Sprintf("agent.skills: an agent cannot list itself (%s)", selfID))
			case dup:
				v.add("manifest-agent-skills", p, "agent.skills: duplicate package "+q(s))
			default:
				a.Skills = append(a.Skills, s)
			}
		}
	}
	if mr, present := o.get("model"); present {
		s, isStr := mr.(string)
		if !isStr || jsTrim(s) == "" || jsLen(s) > 100 {
			v.add("manifest-agent-model", "/agent/model", "agent.model: must be a non-empty string of at most 100 characters")
		} else {
			a.Model = s
		}
	}
	if ex, present := o.get("examples"); present {
		arr, isArr := ex.([]any)
		good := isArr && len(arr) <= maxAgentExamples
		var out []string
		for _, e := range arr {
			s, isStr := e.(string)
			if !isStr || jsTrim(s) == "" || jsLen(s) > 300 {
				good = false
				break
			}
			out = append(out, s)
		}
		if !good {
			v.add("manifest-agent-examples", "/agent/examples", fmt.Sprintf("agent.examples: must be at most %d non-empty strings of up to 300 characters", maxAgentExamples))
		} else {
			a.Examples = out
		}
	}
	return a
}

func validPackageID(s string) bool {
	m := packageIDRe.FindStringSubmatch(s)
	return m != nil && nameSegmentRe.MatchString(m[1]) && nameSegmentRe.MatchString(m[2])
}

func (v *validator) validateDependencies(raw any, selfID string) [][2]string {
	o, ok := raw.(*object)
	if !ok {
		v.add("manifest-invalid-dependencies", "/dependencies", "dependencies: must be an object mapping package ids to version ranges")
		return nil
	}
	keys := o.keys()
	if len(keys) > maxDependencies {
		v.add("manifest-invalid-dependencies", "/dependencies", fmt.Sprintf("dependencies: at most %d entries", maxDependencies))
	}
	var out [][2]string
	for _, id := range keys {
		p := "/dependencies/" + ptrEscape(id)
		if !validPackageID(id) {
			v.add("manifest-invalid-dependencies", p, "dependencies: invalid package name "+q(id))
			continue
		}
		if id == selfID {
			v.add("manifest-invalid-dependencies", p, fmt.Sprintf("dependencies: a package cannot depend on itself (%s)", id))
			continue
		}
		r, isStr := o.vals[id].(string)
		if !isStr || !isValidRange(r) || r == "latest" {
			v.add("manifest-invalid-dependency-range", p, "dependencies."+id+": invalid version range (use 1.2.3, ^1.2.3, ~1.2.3 or *)")
			continue
		}
		out = append(out, [2]string{id, r})
	}
	return out
}

// q quotes as upstream's template strings do: plain double quotes, nothing escaped.
func q(s string) string { return `"` + s + `"` }

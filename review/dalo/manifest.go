package dalo

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"vouch/model"
	"vouch/schemas"
)

// The manifest limits of the reference implementation.
const (
	maxManifestBytes = 1 << 20
	maxStringBytes   = 16 << 10
	maxEntries       = 1024 // per array or table
	maxNesting       = 32
	maxHookList      = 256 // matcher.tool_names and bindings
)

// Phases of the upstream validation report.
const (
	phaseContract   = "package_contract"
	phaseMembers    = "member_resolution"
	phaseDependency = "dependency_resolution"
)

// manifest is PLUGIN.toml schema 1, decoded only after the structural schema passed.
type manifest struct {
	SchemaVersion int64          `toml:"schema_version"`
	Plugin        pluginTable    `toml:"plugin"`
	Tools         []toolDesc     `toml:"tool"`
	Hooks         []hookDesc     `toml:"hook"`
	Providers     map[string]any `toml:"providers"`
}

type pluginTable struct {
	Name        string       `toml:"name"`
	ID          string       `toml:"id"`
	Description string       `toml:"description"`
	Version     string       `toml:"version"`
	Members     []memberDesc `toml:"members"`
	Requires    []depDesc    `toml:"requires"`
}

type memberDesc struct {
	Ref         string        `toml:"ref"`
	Requirement string        `toml:"requirement"`
	Fallback    *fallbackDesc `toml:"fallback"`
}

type fallbackDesc struct {
	Kind  string `toml:"kind"`
	Skill string `toml:"skill"`
}

type depDesc struct {
	Ref         string `toml:"ref"`
	Requirement string `toml:"requirement"`
}

type inputDesc struct {
	Name     string `toml:"name"`
	Type     string `toml:"type"`
	Required *bool  `toml:"required"`
}

func (in inputDesc) required() bool { return in.Required == nil || *in.Required }

type toolDesc struct {
	SchemaVersion  int64       `toml:"schema_version"`
	ID             string      `toml:"id"`
	Entry          string      `toml:"entry"`
	Runtime        string      `toml:"runtime"`
	RuntimeVersion string      `toml:"runtime_version"`
	Platforms      []string    `toml:"platforms"`
	Inputs         []inputDesc `toml:"inputs"`
	Argv           []string    `toml:"argv"`
	Files          []string    `toml:"files"`
	Cwd            string      `toml:"cwd"`
	Env            []string    `toml:"env"`
	Capabilities   []string    `toml:"capabilities"`
	Availability   string      `toml:"availability"`
}

type bindingDesc struct {
	Input string `toml:"input"`
	Field string `toml:"field"`
}

type matcherDesc struct {
	ToolNames []string `toml:"tool_names"`
}

type hookDesc struct {
	SchemaVersion   int64         `toml:"schema_version"`
	ID              string        `toml:"id"`
	Tool            string        `toml:"tool"`
	Subject         string        `toml:"subject"`
	Phase           string        `toml:"phase"`
	Effect          string        `toml:"effect"`
	Requirement     string        `toml:"requirement"`
	TimeoutMS       int64         `toml:"timeout_ms"`
	FailurePolicy   string        `toml:"failure_policy"`
	Retry           string        `toml:"retry"`
	ErrorVisibility string        `toml:"error_visibility"`
	BlockingScope   string        `toml:"blocking_scope"`
	Matcher         *matcherDesc  `toml:"matcher"`
	Bindings        []bindingDesc `toml:"bindings"`
	Fallback        string        `toml:"fallback"`
}

// diagf builds a package-contract error diagnostic for the manifest.
func manifestDiag(file, code, pointer string, line int, format string, args ...any) model.Diagnostic {
	return model.Diagnostic{
		Code: code, Severity: model.SeverityError, Boundary: model.BoundaryPackage,
		File: file, Pointer: pointer, Line: line, Message: sentence(fmt.Sprintf(format, args...)),
		Spec: "dalo §package", Phase: phaseContract,
	}
}

// sentence makes sure a message ends with a period.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// parseManifest applies, in order, every bound that keeps a hostile PLUGIN.toml from
// exhausting memory or the stack, then the TOML decoder, the structural schema and the
// struct decode. It returns nil and the diagnostics when the manifest is unusable.
func parseManifest(data []byte, file string) (*manifest, map[string]any, []model.Diagnostic) {
	if len(data) > maxManifestBytes {
		return nil, nil, []model.Diagnostic{manifestDiag(file, "manifest-too-large", "", 0,
			"PLUGIN.toml is %d bytes, over the %d-byte manifest limit", len(data), maxManifestBytes)}
	}
	if !utf8.Valid(data) {
		return nil, nil, []model.Diagnostic{manifestDiag(file, "manifest-not-utf8", "", lineOfInvalidUTF8(data),
			"PLUGIN.toml is not valid UTF-8; save it as UTF-8")}
	}
	// The decoder recurses once per nested array or inline table, so the depth is bounded
	// before it ever sees the text.
	if depth, line := bracketDepth(data, maxNesting+2); depth > maxNesting+1 {
		return nil, nil, []model.Diagnostic{manifestDiag(file, "manifest-too-deep", "", line,
			"PLUGIN.toml nests arrays, inline tables or dotted keys more than %d levels deep", maxNesting)}
	}
	var raw map[string]any
	if err := safeDecode(data, &raw); err != nil {
		line := 0
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line = pe.Position.Line
			err = errors.New(pe.Message)
		}
		return nil, nil, []model.Diagnostic{manifestDiag(file, "manifest-toml-syntax", "", line,
			"PLUGIN.toml is not valid TOML: %v", err)}
	}
	tree, diags := boundTree(raw, file)
	if len(diags) > 0 {
		return nil, nil, diags
	}
	root := tree.(map[string]any)
	if diags := schemaCheck(root, file); len(diags) > 0 {
		return nil, root, diags
	}
	var m manifest
	if err := safeDecode(data, &m); err != nil {
		return nil, root, []model.Diagnostic{manifestDiag(file, "manifest-toml-syntax", "", 0,
			"PLUGIN.toml could not be decoded: %v", err)}
	}
	return &m, root, nil
}

// safeDecode runs the TOML decoder and turns a panic inside it into an error: the input is
// hostile and a decoder bug must not take vouch down.
func safeDecode(data []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoder failure: %v", r)
		}
	}()
	_, err = toml.NewDecoder(bytes.NewReader(data)).Decode(v)
	return err
}

func lineOfInvalidUTF8(data []byte) int {
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		if data[i] == '\n' {
			line++
		}
		i += size
	}
	return 0
}

// bracketDepth returns the deepest nesting of '[' and '{' outside strings and comments,
// plus the segments of a dotted key there (a.b.c = 1 nests three tables), stopping early
// once stop is reached, and the line where the maximum occurred. Table headers count too
// ([[x]] is 2), so the caller allows one level of slack; the exact nesting limit is
// enforced on the decoded tree. Dotted keys are bounded here because the decoder's cost
// grows with the square of a key's segments (4,000 segments, 8 KB of text, made it
// allocate 675 MB).
func bracketDepth(data []byte, stop int) (int, int) {
	depth, max, line, maxLine := 0, 0, 1, 0
	dots := 0 // dots in the dotted key (or number) being read
	n := len(data)
	for i := 0; i < n; i++ {
		c := data[i]
		switch c {
		case '.':
			dots++
			if depth+dots > max {
				max, maxLine = depth+dots, line
				if max >= stop {
					return max, maxLine
				}
			}
			continue
		case ' ', '\t', '_', '-', '"', '\'':
			// inside a dotted key: a.b, a . b, "a".'b', bare-key characters
		default:
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				dots = 0
			}
		}
		switch c {
		case '\n':
			line++
		case '#':
			for i < n && data[i] != '\n' {
				i++
			}
			i--
		case '"', '\'':
			var lines int
			i, lines = skipString(data, i)
			line += lines
		case '[', '{':
			depth++
			if depth > max {
				max, maxLine = depth, line
				if max >= stop {
					return max, maxLine
				}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return max, maxLine
}

// skipString skips the TOML string that opens at data[i] (basic or literal, single-line or
// multi-line) and returns the index of its last byte, and how many line breaks it held.
// A single-line string ends at its closing quote or at the line break that leaves it
// unclosed, which is counted; backslash escapes exist in basic strings only.
func skipString(data []byte, i int) (int, int) {
	n, c, lines := len(data), data[i], 0
	if i+2 < n && data[i+1] == c && data[i+2] == c {
		i += 3
		for i < n && !(i+2 < n && data[i] == c && data[i+1] == c && data[i+2] == c) {
			if c == '"' && data[i] == '\\' {
				i++
			} else if data[i] == '\n' {
				lines++
			}
			i++
		}
		return i + 2, lines
	}
	i++
	for i < n && data[i] != c && data[i] != '\n' {
		if c == '"' && data[i] == '\\' {
			i++
		}
		i++
	}
	if i < n && data[i] == '\n' {
		lines++
	}
	return i, lines
}

// boundTree enforces the string, entry-count and nesting limits on the decoded manifest
// and converts it to the JSON data model the schema validator understands. It never
// recurses deeper than the nesting limit.
func boundTree(raw map[string]any, file string) (any, []model.Diagnostic) {
	var diags []model.Diagnostic
	add := func(code, ptr, format string, args ...any) {
		if len(diags) < 20 {
			diags = append(diags, manifestDiag(file, code, ptr, 0, format, args...))
		}
	}
	// overLimits reports a table or array nested deeper than the limit or holding more
	// entries than it, which is then left out of the tree.
	overLimits := func(ptr string, depth, entries int) bool {
		if depth > maxNesting {
			add("manifest-too-deep", ptr, "%s is nested more than %d levels deep", keyPath(ptr), maxNesting)
			return true
		}
		if entries > maxEntries {
			add("manifest-too-many-entries", ptr, "%s has %d entries, over the limit of %d", keyPath(ptr), entries, maxEntries)
			return true
		}
		return false
	}
	var conv func(v any, depth int, ptr string) any
	conv = func(v any, depth int, ptr string) any {
		switch x := v.(type) {
		case map[string]any:
			if overLimits(ptr, depth, len(x)) {
				return nil
			}
			out := make(map[string]any, len(x))
			for k, e := range x {
				if len(k) > maxStringBytes {
					add("manifest-string-too-long", ptr, "a key in %s is %d bytes, over the %d-byte string limit", keyPath(ptr), len(k), maxStringBytes)
					continue
				}
				out[k] = conv(e, depth+1, ptr+"/"+escapePtr(k))
			}
			return out
		case []map[string]any:
			arr := make([]any, len(x))
			for i, e := range x {
				arr[i] = e
			}
			return conv(arr, depth, ptr)
		case []any:
			if overLimits(ptr, depth, len(x)) {
				return nil
			}
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = conv(e, depth+1, ptr+"/"+strconv.Itoa(i))
			}
			return out
		case string:
			if len(x) > maxStringBytes {
				add("manifest-string-too-long", ptr, "%s is %d bytes, over the %d-byte string limit", keyPath(ptr), len(x), maxStringBytes)
				return ""
			}
			return x
		case int64, bool:
			return x
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				// Not representable in JSON; keep it a non-number so numeric keywords fail.
				return map[string]any{"toml-float": strconv.FormatFloat(x, 'g', -1, 64)}
			}
			return x
		case time.Time:
			// TOML datetimes have no JSON equivalent; an object fails every string field.
			return map[string]any{"toml-datetime": fmt.Sprint(x)}
		default:
			return map[string]any{"toml-value": fmt.Sprintf("%T", x)}
		}
	}
	out := conv(raw, 1, "")
	return out, diags
}

func escapePtr(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// keyPath turns a JSON pointer into the TOML key path a person recognises (tool[0].entry).
func keyPath(ptr string) string {
	if ptr == "" {
		return "the manifest"
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

var (
	schemaOnce sync.Once
	schemaVal  *jsonschema.Schema
	schemaErr  error
)

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("vouch never fetches schemas (%s)", url)
}

// compiledSchema compiles the embedded upstream schema once.
func compiledSchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.DaloPluginV1))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.UseLoader(noLoader{})
		c.UseRegexpEngine(schemas.ECMARegexp) // ECMA-262 patterns: "\\S" rejects a blank U+3000
		if err := c.AddResource(schemas.DaloPluginV1URL, doc); err != nil {
			schemaErr = err
			return
		}
		schemaVal, schemaErr = c.Compile(schemas.DaloPluginV1URL)
	})
	return schemaVal, schemaErr
}

var printer = message.NewPrinter(language.English)

// schemaCheck validates the JSON-model manifest against plugin-v1.schema.json and turns
// each leaf failure into a diagnostic with a code specific to the field.
func schemaCheck(doc map[string]any, file string) []model.Diagnostic {
	sch, err := compiledSchema()
	if err != nil {
		return []model.Diagnostic{manifestDiag(file, "schema-unavailable", "", 0, "the embedded plugin-v1 schema failed to compile: %v", err)}
	}
	err = sch.Validate(any(doc))
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []model.Diagnostic{manifestDiag(file, "schema-invalid", "", 0, "PLUGIN.toml does not match plugin-v1.schema.json: %v", err)}
	}
	var leaves []*jsonschema.ValidationError
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	collect(ve)
	var diags []model.Diagnostic
	seen := map[string]bool{}
	for _, l := range leaves {
		for _, d := range schemaDiags(l, file) {
			key := d.Code + d.Pointer
			if !seen[key] {
				seen[key] = true
				diags = append(diags, d)
			}
		}
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Pointer < diags[j].Pointer })
	return diags
}

// context names the table a JSON pointer points into, for diagnostic codes.
func schemaContext(loc []string) string {
	switch {
	case len(loc) == 0:
		return "manifest"
	case loc[0] == "plugin" && len(loc) >= 3 && loc[1] == "members":
		if len(loc) >= 4 && loc[3] == "fallback" {
			return "member-fallback"
		}
		return "member"
	case loc[0] == "plugin" && len(loc) >= 3 && loc[1] == "requires":
		return "dependency"
	case loc[0] == "plugin":
		return "plugin"
	case loc[0] == "tool" && len(loc) >= 4 && loc[2] == "inputs":
		return "tool-input"
	case loc[0] == "tool":
		return "tool"
	case loc[0] == "hook" && len(loc) >= 4 && loc[2] == "bindings":
		return "hook-binding"
	case loc[0] == "hook" && len(loc) >= 3 && loc[2] == "matcher":
		return "hook-matcher"
	case loc[0] == "hook":
		return "hook"
	}
	return "manifest"
}

// fieldOf returns the last non-index token of a location.
func fieldOf(loc []string) string {
	for i := len(loc) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(loc[i]); err != nil {
			return loc[i]
		}
	}
	return ""
}

func kebab(s string) string { return strings.ReplaceAll(s, "_", "-") }

func schemaDiags(e *jsonschema.ValidationError, file string) []model.Diagnostic {
	loc := e.InstanceLocation
	ptr := ""
	for _, t := range loc {
		ptr += "/" + escapePtr(t)
	}
	ctx := schemaContext(loc)
	where := keyPath(ptr)
	d := func(code, format string, args ...any) model.Diagnostic {
		x := manifestDiag(file, code, ptr, 0, format, args...)
		switch {
		case strings.HasPrefix(ctx, "tool"):
			x.Spec = "dalo §tool"
		case strings.HasPrefix(ctx, "hook"):
			x.Spec = "dalo §hook"
		case strings.HasPrefix(ctx, "member"), ctx == "dependency":
			x.Spec = "dalo §references"
		}
		return x
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		return perField(k.Properties, func(f string) model.Diagnostic {
			return d("manifest-unknown-field", "%s has the unknown field %q; every table except providers is closed, so remove it", where, f)
		}, ptr)
	case *kind.Required:
		return perField(k.Missing, func(f string) model.Diagnostic {
			return d("manifest-missing-field", "%s is missing the required field %q", where, f)
		}, ptr)
	}
	field := fieldOf(loc)
	msg := e.ErrorKind.LocalizedString(printer)
	if field == "schema_version" {
		switch ctx {
		case "tool", "hook":
			return []model.Diagnostic{d("unsupported_active_component_schema",
				"%s: this %s descriptor version is not supported (only schema_version = 1); vouch will not activate part of a package with an unknown descriptor", where, ctx)}
		default:
			return []model.Diagnostic{d("invalid_plugin_package",
				"%s: only PLUGIN.toml schema_version = 1 is supported", where)}
		}
	}
	if _, ok := e.ErrorKind.(*kind.UniqueItems); ok && ctx == "hook-matcher" {
		return []model.Diagnostic{d("hook-matcher-duplicate-name", "%s lists a tool name twice", where)}
	}
	if _, ok := e.ErrorKind.(*kind.MaxItems); ok {
		switch ctx {
		case "hook-matcher":
			return []model.Diagnostic{d("hook-matcher-limit", "%s has more than %d tool names", where, maxHookList)}
		case "hook":
			if field == "bindings" {
				return []model.Diagnostic{d("hook-bindings-limit", "%s has more than %d bindings", where, maxHookList)}
			}
		}
	}
	code := ctx + "-invalid"
	if field != "" && ctx != "manifest" {
		code += "-" + kebab(field)
	} else if field != "" {
		code = "manifest-invalid-" + kebab(field)
	}
	return []model.Diagnostic{d(code, "%s: %s", where, msg)}
}

// perField makes one diagnostic per named field, each pointing at the field below ptr.
func perField(fields []string, diag func(field string) model.Diagnostic, ptr string) []model.Diagnostic {
	out := make([]model.Diagnostic, 0, len(fields))
	for _, f := range fields {
		x := diag(f)
		x.Pointer = ptr + "/" + escapePtr(f)
		out = append(out, x)
	}
	return out
}

package dalo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
)

var (
	reInputName = lazyre.New(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$`)
	reEnvName   = lazyre.New(`^[A-Z_][A-Z0-9_]*$`)
	reArgInput  = lazyre.New(`^\$\{input\.([^}]*)\}$`)
)

// componentDiag builds an error diagnostic that invalidates one tool or hook.
func componentDiag(file, code, pointer, spec, format string, args ...any) model.Diagnostic {
	return model.Diagnostic{
		Code: code, Severity: model.SeverityError, Boundary: model.BoundaryComponent,
		File: file, Pointer: pointer, Message: sentence(fmt.Sprintf(format, args...)), Spec: spec, Phase: phaseContract,
	}
}

// builtTool is a tool component plus what hooks need to check bindings against it.
type builtTool struct {
	comp   *model.Component
	desc   toolDesc
	inputs map[string]inputDesc
}

// buildTools turns every [[tool]] into a component, checking each descriptor rule.
func (s *source) buildTools(p *loaded, pk *pkgFS, manifestFile string) map[string]*builtTool {
	out := map[string]*builtTool{}
	for i, t := range p.man.Tools {
		ptr := fmt.Sprintf("/tool/%d", i)
		var diags []model.Diagnostic
		bad := func(code, field, format string, args ...any) {
			pt := ptr
			if field != "" {
				pt += "/" + field
			}
			diags = append(diags, componentDiag(manifestFile, code, pt, "dalo §tool", format, args...))
		}
		where := fmt.Sprintf("tool %q", t.ID)
		if len(t.ID) > 128 {
			bad("tool-invalid-id", "id", "%s: the id is longer than 128 characters", where)
		}
		if _, dup := out[t.ID]; dup {
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, manifestDiag(manifestFile, "tool-duplicate-id", ptr+"/id", 0,
				"two tools use the id %q; tool ids must be unique within a package", t.ID))
			continue
		}
		inputs := map[string]inputDesc{}
		for j, in := range t.Inputs {
			f := fmt.Sprintf("inputs/%d/name", j)
			if !reInputName.MatchString(in.Name) || len(in.Name) > 128 {
				bad("tool-input-invalid-name", f, "%s: input name %q must be snake_case (lowercase letters, digits, single underscores) and at most 128 characters", where, in.Name)
			}
			if _, dup := inputs[in.Name]; dup {
				bad("tool-input-duplicate", f, "%s declares the input %q twice", where, in.Name)
			}
			inputs[in.Name] = in
		}
		for j, a := range t.Argv {
			if !strings.Contains(a, "${") {
				continue
			}
			m := reArgInput.FindStringSubmatch(a)
			if m == nil {
				bad("tool-argv-embedded-substitution", fmt.Sprintf("argv/%d", j),
					"%s: argv[%d] %q embeds a substitution; only a whole element ${input.<name>} may interpolate", where, j, a)
				continue
			}
			if _, ok := inputs[m[1]]; !ok {
				bad("tool-argv-undeclared-input", fmt.Sprintf("argv/%d", j),
					"%s: argv[%d] uses ${input.%s} but the tool declares no such input", where, j, m[1])
			}
		}
		seenEnv := map[string]bool{}
		for j, e := range t.Env {
			if !reEnvName.MatchString(e) {
				bad("tool-env-invalid-name", fmt.Sprintf("env/%d", j), "%s: env name %q must match [A-Z_][A-Z0-9_]*", where, e)
			}
			if seenEnv[e] {
				bad("tool-env-duplicate", fmt.Sprintf("env/%d", j), "%s lists the env name %q twice", where, e)
			}
			seenEnv[e] = true
		}
		if d := firstDup(t.Capabilities); d != "" {
			bad("tool-capability-duplicate", "capabilities", "%s lists the capability %q twice", where, d)
		}
		if d := firstDup(t.Platforms); d != "" {
			bad("tool-platform-duplicate", "platforms", "%s lists the platform %q twice", where, d)
		}

		// The file closure: the entry first, then files, each a regular non-symlink file
		// inside the package.
		var files []model.File
		seen := map[string]bool{}
		check := func(rel, field, role string) {
			f, diag := pk.closureFile(rel, role, where)
			if diag != "" {
				code := "tool-" + role + "-" + diag
				bad(code, field, "%s: %s", where, closureMessage(rel, role, diag, pk.rel))
				return
			}
			if seen[f.Path] {
				if role == "file" && f.Path == pk.rel+"/"+path.Clean(t.Entry) {
					bad("tool-entry-repeated", field, "%s: %q repeats the entry in files; the entry is included automatically", where, rel)
				} else {
					bad("tool-file-duplicate", field, "%s lists %q twice in files", where, rel)
				}
				return
			}
			seen[f.Path] = true
			files = append(files, f)
		}
		check(t.Entry, "entry", "entry")
		for j, f := range t.Files {
			check(f, fmt.Sprintf("files/%d", j), "file")
		}
		if t.Runtime == "executable" && len(files) > 0 && !files[0].Exec && files[0].Path == pk.rel+"/"+path.Clean(t.Entry) {
			bad("tool-entry-not-executable", "entry", "%s: runtime is executable but %s has no executable bit; run chmod +x (and git update-index --chmod=+x)", where, files[0].Path)
		}

		c := &model.Component{Kind: model.KindTool, ID: t.ID, Requirement: t.Availability, Diagnostics: diags, Files: files}
		c.Details = toolDetails(t, files)
		c.Capabilities = toolCapabilities(t, pk.rel)
		c.Summary = toolSummary(t, pk.rel)
		c.NotCovered = pk.toolNotCovered(t, files)
		if len(diags) > 0 {
			c.Validity = model.Invalid
		} else {
			c.Validity = model.Valid
			c.Contract = toolContract(t, files)
		}
		p.pkg.Components = append(p.pkg.Components, c)
		out[t.ID] = &builtTool{comp: c, desc: t, inputs: inputs}
	}
	return out
}

// maxUnlisted bounds the unlisted files named one by one; the rest are counted.
const maxUnlisted = 20

// toolNotCovered lists what a tool's approval cannot bind: its runtime found on PATH,
// argv paths outside the package, variables it receives that load code, and the files
// beside its entry that `files` does not list. Dalo's closure is exactly entry + files
// (the reference dispatcher stages only those), so a run from the staged copy cannot
// import the others; a harness that runs the source folder instead can, and they are not
// approved (`vouch stage` writes the approved closure).
func (pk *pkgFS) toolNotCovered(t toolDesc, files []model.File) []model.NotCovered {
	root := "/" + pk.rel // the staged directory, as an absolute path for placing argv
	p := closure.Process{Command: t.Runtime, Bundled: t.Runtime == "executable", Inherit: t.Env,
		Root: root, Starts: "the tool runs"}
	for _, a := range t.Argv {
		if !reArgInput.MatchString(a) {
			p.Args = append(p.Args, a)
		}
	}
	out := closure.NotCoveredBy(p)
	in := map[string]bool{}
	for _, f := range files {
		in[f.Path] = true
	}
	entryDir := path.Dir(path.Clean(t.Entry))
	var unlisted []string
	for rel, e := range pk.files {
		if e.Type != fsguard.TypeFile || in[pk.rel+"/"+rel] || rel == "PLUGIN.toml" {
			continue // the manifest's part in the tool is its contract fields
		}
		if entryDir == "." || rel == entryDir || strings.HasPrefix(rel, entryDir+"/") {
			unlisted = append(unlisted, pk.rel+"/"+rel)
		}
	}
	sort.Strings(unlisted)
	for i, f := range unlisted {
		if i == maxUnlisted {
			out = append(out, model.NotCovered{Kind: model.NotCoveredUnlisted, Subject: fmt.Sprintf("%d more", len(unlisted)-i),
				Detail: fmt.Sprintf("%d more files beside the entry are not listed in files either.", len(unlisted)-i)})
			break
		}
		out = append(out, model.NotCovered{Kind: model.NotCoveredUnlisted, Subject: f,
			Detail: fmt.Sprintf("%s sits beside the entry but is not listed in files: a staged copy does not hold it, and a harness that runs the source folder lets the entry import it unapproved.", f)})
	}
	return out
}

func firstDup(xs []string) string {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return x
		}
		seen[x] = true
	}
	return ""
}

// closureFile checks one tool path and hashes the file. On failure it returns a short
// reason used in the diagnostic code (missing, backslash, escape, symlink, not-regular,
// too-deep, too-large, unreadable).
func (pk *pkgFS) closureFile(rel, role, where string) (model.File, string) {
	switch {
	case rel == "":
		return model.File{}, "missing"
	case strings.Contains(rel, `\`):
		return model.File{}, "backslash"
	case strings.ContainsRune(rel, 0):
		return model.File{}, "escape"
	case path.IsAbs(rel):
		return model.File{}, "escape"
	}
	c := path.Clean(rel)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return model.File{}, "escape"
	}
	parts := strings.Split(c, "/")
	if len(parts) > pk.root.Limits().MaxDepth+1 {
		return model.File{}, "too-deep"
	}
	// Every directory on the way and the file itself must be real: a tool may not rely on
	// a symlink even when it points inside the package.
	for i := 1; i <= len(parts); i++ {
		e, err := pk.root.Lstat(strings.Join(parts[:i], "/"))
		if err != nil {
			return model.File{}, fsReason(err)
		}
		if e.Symlink {
			return model.File{}, "symlink"
		}
		if i < len(parts) && e.Type != fsguard.TypeDir {
			return model.File{}, "missing"
		}
		if i == len(parts) && e.Type != fsguard.TypeFile {
			return model.File{}, "not-regular"
		}
	}
	e, _ := pk.root.Lstat(c)
	data, err := pk.root.ReadFileNoFollow(c, 0)
	if err != nil {
		return model.File{}, fsReason(err)
	}
	sum := sha256.Sum256(data)
	return model.File{Path: pk.rel + "/" + c, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Exec: e.Exec}, ""
}

func fsReason(err error) string {
	switch fsguard.CodeOf(err) {
	case fsguard.CodeNotFound:
		return "missing"
	case fsguard.CodeEscape, fsguard.CodeBadPath:
		return "escape"
	case fsguard.CodeDangling, fsguard.CodeLoop:
		return "symlink"
	case fsguard.CodeNotRegular, fsguard.CodeNotDir:
		return "not-regular"
	case fsguard.CodeTooDeep:
		return "too-deep"
	case fsguard.CodeTooLarge, fsguard.CodeTotalExceeded:
		return "too-large"
	}
	return "unreadable"
}

func closureMessage(rel, role, reason, pkgRel string) string {
	switch reason {
	case "missing":
		return fmt.Sprintf("the %s %q does not exist as a file in %s", role, rel, pkgRel)
	case "backslash":
		return fmt.Sprintf("the %s %q contains a backslash; use / separators", role, rel)
	case "escape":
		return fmt.Sprintf("the %s %q leaves the package; paths must be relative and stay inside %s", role, rel, pkgRel)
	case "symlink":
		return fmt.Sprintf("the %s %q is or passes through a symlink; tools may not rely on symlinks", role, rel)
	case "not-regular":
		return fmt.Sprintf("the %s %q is not a regular file", role, rel)
	case "too-deep":
		return fmt.Sprintf("the %s %q is more than 32 directory levels deep", role, rel)
	case "too-large":
		return fmt.Sprintf("the %s %q is over the per-file or package size limit", role, rel)
	}
	return fmt.Sprintf("the %s %q cannot be read", role, rel)
}

func strs(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// toolContract holds what a tool grant binds: the invocation and the bytes of its closure.
// The package hash is not part of it, so editing a README keeps the approval.
func toolContract(t toolDesc, files []model.File) *model.Contract {
	var inputs []any
	for _, in := range t.Inputs {
		inputs = append(inputs, map[string]any{"name": in.Name, "type": in.Type, "required": in.required()})
	}
	if inputs == nil {
		inputs = []any{}
	}
	return &model.Contract{
		Kind: model.KindTool,
		Fields: model.Fields{
			{Key: "schema_version", Value: t.SchemaVersion},
			{Key: "entry", Value: t.Entry},
			{Key: "runtime", Value: t.Runtime},
			{Key: "runtime_version", Value: t.RuntimeVersion},
			{Key: "argv", Value: strs(t.Argv)},
			{Key: "cwd", Value: t.Cwd},
			{Key: "env", Value: strs(t.Env)},
			{Key: "inputs", Value: inputs},
			{Key: "capabilities", Value: strs(t.Capabilities)},
			{Key: "platforms", Value: strs(t.Platforms)},
			{Key: "availability", Value: t.Availability},
		},
		Files: files,
	}
}

func toolDetails(t toolDesc, files []model.File) model.Fields {
	fs := model.Fields{
		{Key: "entry", Value: t.Entry},
		{Key: "runtime", Value: t.Runtime},
	}
	if t.RuntimeVersion != "" {
		fs = append(fs, model.Field{Key: "runtime_version", Value: t.RuntimeVersion + " (authored metadata, not enforced)"})
	}
	fs = append(fs,
		model.Field{Key: "argv", Value: strs(t.Argv)},
		model.Field{Key: "cwd", Value: t.Cwd + " (the staged tool directory)"},
		model.Field{Key: "availability", Value: t.Availability})
	var ins []string
	for _, in := range t.Inputs {
		req := "required"
		if !in.required() {
			req = "optional"
		}
		ins = append(ins, fmt.Sprintf("%s: %s (%s)", in.Name, in.Type, req))
	}
	if len(ins) > 0 {
		fs = append(fs, model.Field{Key: "inputs", Value: ins})
	}
	if len(t.Env) > 0 {
		fs = append(fs, model.Field{Key: "env", Value: t.Env})
	}
	caps := "none declared"
	if len(t.Capabilities) > 0 {
		caps = strings.Join(t.Capabilities, ", ")
	}
	fs = append(fs, model.Field{Key: "capabilities", Value: caps})
	plat := "any (no claim that the runtime exists)"
	if len(t.Platforms) > 0 {
		plat = strings.Join(t.Platforms, ", ")
	}
	fs = append(fs, model.Field{Key: "platforms", Value: plat})
	var paths []string
	for _, f := range files {
		paths = append(paths, fmt.Sprintf("%s sha256:%s", f.Path, f.SHA256))
	}
	if len(paths) > 0 {
		fs = append(fs, model.Field{Key: "files", Value: paths})
	}
	return fs
}

func runsWith(t toolDesc) string {
	base := path.Base(t.Entry)
	if t.Runtime == "executable" {
		return fmt.Sprintf("runs `%s` directly as an executable", base)
	}
	return fmt.Sprintf("runs `%s` with %s", base, t.Runtime)
}

func toolCapabilities(t toolDesc, pkgRel string) []model.Capability {
	entry := pkgRel + "/" + path.Clean(t.Entry)
	caps := []model.Capability{{
		Kind: model.CapCodeExecution, Scope: []string{t.Runtime, entry},
		Detail: fmt.Sprintf("Runs %s with the %s runtime on your machine, with the permissions of the agent harness.", entry, t.Runtime),
	}}
	note := " (a declared claim, not an OS sandbox)"
	for _, c := range t.Capabilities {
		switch c {
		case "subprocess":
			caps = append(caps, model.Capability{Kind: model.CapSubprocess, Detail: "May start other programs" + note + "."})
		case "network":
			caps = append(caps, model.Capability{Kind: model.CapNetwork, Detail: "May connect to the network; no hosts are declared" + note + "."})
		case "filesystem_read":
			caps = append(caps, model.Capability{Kind: model.CapFilesystemRead, Detail: "May read files outside its own directory" + note + "."})
		case "filesystem_write":
			caps = append(caps, model.Capability{Kind: model.CapFilesystemWrite, Detail: "May write files" + note + "."})
		}
	}
	if len(t.Env) > 0 {
		caps = append(caps, model.Capability{Kind: model.CapEnv, Scope: t.Env,
			Detail: fmt.Sprintf("Receives the environment variables %s from your environment.", strings.Join(t.Env, ", "))})
	}
	return caps
}

func toolSummary(t toolDesc, pkgRel string) []string {
	first := runsWith(t) + " from its own directory"
	if len(t.Argv) > 0 {
		first += fmt.Sprintf(" with the arguments %s", strings.Join(t.Argv, " "))
	}
	out := []string{sentence(strings.ToUpper(first[:1]) + first[1:])}
	if len(t.Capabilities) == 0 {
		out = append(out, "It declares no subprocess, network or file-system capability (a claim, not a sandbox).")
	} else {
		out = append(out, sentence("It declares: "+strings.Join(humanCaps(t.Capabilities), ", ")+" (a claim, not a sandbox)"))
	}
	if len(t.Env) > 0 {
		out = append(out, sentence("It receives the environment variables "+strings.Join(t.Env, ", ")))
	} else {
		out = append(out, "It receives no variables from your environment.")
	}
	if t.Availability == "optional" {
		out = append(out, "It is optional: the package works without it.")
	}
	return out
}

func humanCaps(cs []string) []string {
	var out []string
	for _, c := range cs {
		switch c {
		case "subprocess":
			out = append(out, "may start other programs")
		case "network":
			out = append(out, "may use the network")
		case "filesystem_read":
			out = append(out, "may read files")
		case "filesystem_write":
			out = append(out, "may write files")
		default:
			out = append(out, c)
		}
	}
	return out
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Package splice loads Splice v1 packages: manifest.json directories, deterministic
// .tar.gz archives and legacy splice-bundle JSON files.
//
// It applies @spliceloom/spec's rules and messages exactly (manifest validation, the
// 14-keyword tool-schema subset, permission normalization, strict archive and bundle
// decoding, the integrity string and filesDigest) and turns the result into the model:
// one tool component per manifest tool, one skill component for SKILL.md, and an
// instruction component for an agent definition. Archives are decoded in memory with
// Splice's limits; nothing is ever written or run.
package splice

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/skills"
)

// Options configure the loader.
type Options struct {
	Limits fsguard.Limits
}

const (
	manifestFile = "manifest.json"
	skillDocFile = "SKILL.md"
	probeBytes   = 4096
)

// IsPackageDir reports whether dir is a Splice package directory (it holds manifest.json).
func IsPackageDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, manifestFile))
	return err == nil
}

var bundleProbe = lazyre.New(`^\s*\{[\s\S]*"format"\s*:\s*"splice-bundle"`)

// IsArtifact reports whether path is a Splice archive (gzip magic) or bundle, by content.
// It reads at most a few KiB and refuses anything that is not a regular file.
func IsArtifact(path string, limits fsguard.Limits) bool {
	head, _, err := fsguard.ReadUserFile(path, probeBytes)
	if err != nil {
		return false
	}
	if IsGzip(head) {
		return true
	}
	return bundleProbe.Match(bytes.TrimPrefix(head, []byte("\uFEFF")))
}

// Load reviews the package directory, archive or bundle at path. It never fails:
// problems become diagnostics.
func Load(p string, opts Options) *model.Package {
	opts.Limits = opts.Limits.OrDefault()
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	pkg := &model.Package{Format: model.FormatSplice, Root: abs, Name: filepath.Base(abs)}
	st, err := os.Stat(p)
	if err != nil {
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, diag("source-unreadable", model.BoundarySource, "", "", fmt.Sprintf("Could not read %s: %v.", p, err), "splice package"))
		return pkg
	}
	if st.IsDir() {
		files, dc, reader, diags := readDir(p, opts.Limits)
		pkg.Diagnostics = append(pkg.Diagnostics, diags...)
		pkg.Reader = reader
		build(pkg, files, dc, false)
		return pkg
	}
	data, size, err := fsguard.ReadUserFile(p, MaxArtifactBytes+1)
	switch {
	case err != nil:
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, diag("source-unreadable", model.BoundarySource, "", "", fmt.Sprintf("Could not read %s: %v.", p, err), "splice archive"))
		return pkg
	case int64(len(data)) > MaxArtifactBytes:
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, diag("archive-too-large", model.BoundaryPackage, "", "",
			fmt.Sprintf("Archive is %d bytes (max %d)", max(size, int64(len(data))), MaxArtifactBytes), "splice archive · INVALID_BUNDLE"))
		return pkg
	}
	pkg.Integrity = Integrity(data)
	kind := "bundle"
	if IsGzip(data) {
		kind = "archive"
	}
	files, err := Decode(data)
	if err != nil {
		var de *DecodeError
		code := "archive-invalid"
		msg := err.Error()
		if errors.As(err, &de) {
			code = de.Code
		}
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, diag(code, model.BoundaryPackage, "", "", msg, "splice "+kind+" · INVALID_BUNDLE"))
		return pkg
	}
	mem := map[string][]byte{}
	for _, f := range files {
		mem[f.Path] = f.Content
	}
	pkg.Reader = fsguard.MemReader{Files: mem, Of: "the package"}
	build(pkg, files, nil, true)
	return pkg
}

func diag(code string, b model.Boundary, file, ptr, msg, spec string) model.Diagnostic {
	return model.Diagnostic{Code: code, Severity: model.SeverityError, Boundary: b, File: file, Pointer: ptr, Message: msg, Spec: spec}
}

// dirReader reads package files from disk at call time (trust re-hashes current bytes),
// limited to the files that belong to the package or to a tool's closure, each with the
// size bound it was first read with.
type dirReader struct {
	root  *fsguard.Root
	files map[string]int64
}

func (d dirReader) ReadFile(rel string) ([]byte, error) {
	max, ok := d.files[rel]
	if !ok {
		return nil, &fsguard.Error{Code: fsguard.CodeNotFound, Path: rel, Msg: "is not a file of the package"}
	}
	return d.root.ReadFileNoFollow(rel, max)
}

func skippedName(name string) bool { return strings.HasPrefix(name, ".") || name == "node_modules" }

// readDir collects what Splice would pack from a directory: every regular file except
// hidden names and node_modules (never packed); a symlink is an error, as when packing.
//
// The files Splice would not pack are returned too, as unpacked: a harness that runs the
// folder as it is lets a tool read or import them (tools/x.ts can import "../.lib.js"),
// so they belong to every tool's closure even though no archive of the folder holds them.
// Whatever of them cannot be read whole (a symlink, a special file, an fsguard limit) is
// an error: an approval cannot be bound to bytes vouch did not see.
func readDir(dir string, limits fsguard.Limits) ([]File, *dirClosure, model.FileReader, []model.Diagnostic) {
	var diags []model.Diagnostic
	root, err := fsguard.Open(dir, limits)
	if err != nil {
		return nil, nil, nil, []model.Diagnostic{diag("source-unreadable", model.BoundarySource, "", "", fmt.Sprintf("Could not open %s: %v.", dir, err), "splice package")}
	}
	var files []File
	read := map[string][]byte{} // every byte read, for the closure: nothing is read twice
	gitSkipped := false
	known := map[string]int64{}
	var total int64
	stop := errors.New("stop")
	var walkUnpacked func(e fsguard.Entry, listErr error)
	walkUnpacked = func(e fsguard.Entry, listErr error) {
		const spec = "splice package"
		switch {
		case e.Symlink:
			diags = append(diags, diag("package-symlink", model.BoundaryPackage, e.Rel, "",
				fmt.Sprintf("%s is a symbolic link%s; Splice never packs it, but a tool run from this folder could follow it outside the package, so no approval can cover it.", e.Rel, linkTarget(root, e.Rel)), spec))
			return
		case listErr != nil:
			diags = append(diags, diag("package-unreadable", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("Could not read %s: %v.", e.Rel, listErr), spec))
			return
		case e.Type == fsguard.TypeDir:
			entries, errs, err := root.ReadDir(e.Rel)
			if err != nil {
				diags = append(diags, diag("package-unreadable", model.BoundaryPackage, e.Rel, "",
					fmt.Sprintf("Could not list %s: %v; a tool run from this folder can read it, so no approval can cover the folder.", e.Rel, err), spec))
				return
			}
			for _, c := range entries {
				walkUnpacked(c, errs[c.Name])
			}
			return
		case e.Type != fsguard.TypeFile:
			diags = append(diags, diag("package-special-file", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("%s is a %s; a Splice package folder holds regular files only.", e.Rel, e.Type), spec))
			return
		}
		data, err := root.ReadFileNoFollow(e.Rel, limits.MaxFileBytes)
		if err != nil {
			diags = append(diags, diag("package-unreadable", model.BoundaryPackage, e.Rel, "",
				fmt.Sprintf("Could not read %s: %v; a tool run from this folder can read it, so no approval can cover the folder.", e.Rel, err), spec))
			return
		}
		read[e.Rel] = data
		known[e.Rel] = limits.MaxFileBytes
	}
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, errs, err := root.ReadDir(rel)
		if err != nil {
			diags = append(diags, diag("package-unreadable", model.BoundaryPackage, rel, "", fmt.Sprintf("Could not list %s: %v.", rel, err), "splice package"))
			return stop
		}
		for _, e := range entries {
			if e.Rel == ".git" && e.Type == fsguard.TypeDir && !e.Symlink && isRepository(root, e.Rel) {
				// A checkout's .git changes with every commit and easily passes the entry
				// limit; binding approvals to it would reset them on each commit. Only the
				// package root's real .git directory is left out. Its name proves nothing
				// (anyone can call a directory .git), so it is never trusted to hold only
				// version-control data: every tool lists it as not covered, in the report,
				// the approval dialog and check. A nested .git or a symlinked one is bound
				// like any other hidden entry (or refused, for a link).
				gitSkipped = true
				diags = append(diags, model.Diagnostic{Code: "package-vcs-excluded", Severity: model.SeverityWarning, Boundary: model.BoundaryEntry,
					File: e.Rel, Spec: "splice package",
					Message: fmt.Sprintf("%s is left out of every tool's approval (it is taken for version-control metadata, which changes with every commit); a tool that reads or imports from it runs bytes no approval covers, and every tool lists it as not covered.", e.Rel)})
				continue
			}
			if skippedName(e.Name) {
				diags = append(diags, model.Diagnostic{Code: "package-file-skipped", Severity: model.SeverityWarning, Boundary: model.BoundaryEntry,
					File: e.Rel, Spec: "splice package",
					Message: fmt.Sprintf("%s is not part of a packed archive (Splice never packs hidden files or node_modules), but a tool run from this folder can read or import it, so it is part of what is approved for this folder's tools.", e.Rel)})
				walkUnpacked(e, errs[e.Name])
				continue
			}
			if e.Symlink {
				diags = append(diags, diag("package-symlink", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("%s is a symbolic link%s; Splice packages reject symbolic links.", e.Rel, linkTarget(root, e.Rel)), "splice package"))
				continue
			}
			if errs[e.Name] != nil {
				diags = append(diags, diag("package-unreadable", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("Could not read %s: %v.", e.Rel, errs[e.Name]), "splice package"))
				continue
			}
			switch e.Type {
			case fsguard.TypeDir:
				if err := walk(e.Rel); err != nil {
					return err
				}
				continue
			case fsguard.TypeFile:
			default:
				diags = append(diags, diag("package-special-file", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("%s is a %s; a Splice package holds regular files only.", e.Rel, e.Type), "splice package"))
				continue
			}
			if len(files) >= MaxFiles {
				diags = append(diags, diag("package-too-many-files", model.BoundaryPackage, "", "", fmt.Sprintf("Package has more than %d files (max %d)", MaxFiles, MaxFiles), "splice package"))
				return stop
			}
			if e.Size > MaxFileBytes {
				diags = append(diags, diag("package-file-too-large", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("file %s exceeds %d bytes", q(e.Rel), MaxFileBytes), "splice package"))
				continue
			}
			if total+e.Size > MaxUnpackedBytes {
				diags = append(diags, diag("package-too-large", model.BoundaryPackage, e.Rel, "", fmt.Sprintf("The package files add up to more than %d bytes; Splice could not pack them (archives are limited to %d bytes).", MaxUnpackedBytes, MaxArtifactBytes), "splice package"))
				return stop
			}
			data, err := root.ReadFileNoFollow(e.Rel, MaxFileBytes)
			if err != nil {
				code := "package-unreadable"
				msg := fmt.Sprintf("Could not read %s: %v.", e.Rel, err)
				if fsguard.CodeOf(err) == fsguard.CodeTooLarge {
					code, msg = "package-file-too-large", fmt.Sprintf("file %s exceeds %d bytes", q(e.Rel), MaxFileBytes)
				}
				diags = append(diags, diag(code, model.BoundaryPackage, e.Rel, "", msg, "splice package"))
				continue
			}
			total += int64(len(data))
			files = append(files, File{Path: e.Rel, Content: data})
			read[e.Rel] = data
			known[e.Rel] = MaxFileBytes
		}
		return nil
	}
	_ = walk(".")
	dc := &dirClosure{gitSkipped: gitSkipped}
	failed := false
	for _, d := range diags {
		failed = failed || d.IsError()
	}
	if failed {
		// The package errors block every tool; the files read are still shown.
		for p, data := range read {
			dc.res.Files = append(dc.res.Files, modelFile(File{Path: p, Content: data}))
		}
		sort.Slice(dc.res.Files, func(i, j int) bool { return lessUTF16(dc.res.Files[i].Path, dc.res.Files[j].Path) })
	} else {
		// The one closure rule (closure.Collect) over what was read: everything a tool can
		// import from the folder, hidden files, node_modules and manifest.json included.
		// Splice refuses links and special files above, so this finds the same files;
		// it is what holds the folder to the rule every other format follows.
		dc.res = closure.Collect(root, ".", closure.Options{
			Code: "package", Owner: "this folder's tools' approval", Spec: "splice package", Known: read, Runnable: true,
			Skip: func(rel string) bool { return gitSkipped && rel == ".git" },
		})
		for i := range dc.res.Files {
			dc.res.Files[i].Exec = false // as in an archive: Splice never executes package files
			known[dc.res.Files[i].Path] = limits.MaxFileBytes
		}
	}
	return files, dc, dirReader{root: root, files: known}, diags
}

// isRepository reports whether dir looks like a git repository as git decides it: a
// HEAD file naming a ref or a commit, and an objects directory, neither a link. Only
// then is the root's .git taken for version-control data and left out; a .git directory
// without them is an ordinary folder a tool can import from, so it is bound.
func isRepository(root *fsguard.Root, dir string) bool {
	head, err := root.Lstat(dir + "/HEAD")
	if err != nil || head.Symlink || head.Type != fsguard.TypeFile {
		return false
	}
	objects, err := root.Lstat(dir + "/objects")
	if err != nil || objects.Symlink || objects.Type != fsguard.TypeDir {
		return false
	}
	data, err := root.ReadFileNoFollow(dir+"/HEAD", 256)
	if err != nil {
		return false
	}
	h := strings.TrimSuffix(string(data), "\n")
	if strings.HasPrefix(h, "ref: refs/") {
		return !strings.ContainsAny(h, "\n\x00")
	}
	if len(h) != 40 && len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// linkTarget is " to <target>" for a symlink's diagnostic, "" when it cannot be read.
func linkTarget(root *fsguard.Root, rel string) string {
	if t, err := root.Readlink(rel); err == nil {
		return " to " + t
	}
	return ""
}

// dirClosure is a folder's tool closure: what closure.Collect found (empty when the
// folder already failed Splice's own rules, which block every tool) and whether the
// root's .git was left out.
type dirClosure struct {
	res        closure.Result
	gitSkipped bool
}

// build validates the files as validateBundleFiles does, and fills in the package.
// fromArtifact selects the rules that only decoded archives can break (hidden paths).
// dc is a directory's tool closure (nil for archives and bundles).
func build(pkg *model.Package, files []File, dc *dirClosure, fromArtifact bool) {
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Content
	}
	if len(files) > 0 {
		pkg.FilesDigest = FilesDigest(files)
	}
	m, issues := readPackageManifest(pkg, byPath)
	checkPackageFiles(pkg, files, fromArtifact)
	skill := skillComponent(pkg, m, byPath)
	if skill != nil {
		pkg.Components = append(pkg.Components, skill)
	}
	var tools []*model.Component
	var declared []*Tool // declared[i] is the manifest entry of tools[i]
	if m != nil {
		tools, declared = toolComponents(pkg, m, issues, files, byPath, dc)
		listPackageDependencies(pkg, m)
	}
	componentsRejectPackage(pkg, tools, declared, skill)
	if len(issues) > 0 || hasErrors(pkg.Diagnostics) || skill != nil && skill.Validity == model.Invalid {
		reject(pkg, append(pkg.Components, tools...), tools, declared, m)
	}
	pkg.Components = append(pkg.Components, tools...)
}

// readPackageManifest validates manifest.json and fills the package's identity; the
// package-level findings are added in upstream order, and every finding is returned so
// tool findings can go to their tool.
func readPackageManifest(pkg *model.Package, byPath map[string][]byte) (*Manifest, []Issue) {
	add := func(d model.Diagnostic) { pkg.Diagnostics = append(pkg.Diagnostics, d) }
	var m *Manifest
	var issues []Issue
	if raw, ok := byPath[manifestFile]; !ok {
		add(diag("manifest-missing", model.BoundaryPackage, manifestFile, "", "manifest.json is missing", "splice package"))
	} else if !utf8.Valid(raw) {
		add(diag("manifest-invalid-utf8", model.BoundaryPackage, manifestFile, "", "manifest.json is not valid UTF-8", "splice package"))
	} else {
		m, issues = ValidateManifestJSON(raw)
	}
	for _, is := range issues {
		if is.Tool < 0 {
			add(issueDiag(is))
		}
	}
	if m == nil {
		return nil, issues
	}
	// Refs carry the package name, so only a well-formed id replaces the file name.
	if nameSegmentRe.MatchString(m.Namespace) && nameSegmentRe.MatchString(m.Name) {
		pkg.Name, pkg.ID = m.ID(), m.ID()
	}
	pkg.Version, pkg.Description = m.Version, m.Description
	pkg.Manifest = manifestFields(m)
	if strings.Contains(m.Version, "+") && isValidVersion(m.Version) {
		add(model.Diagnostic{Code: "manifest-build-metadata", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage,
			File: manifestFile, Pointer: "/version", Spec: "splice manifest",
			Message: "The version has build metadata (+...); it is valid here but the Splice registry refuses to publish it."})
	}
	if len(m.Dependencies) > 0 {
		add(model.Diagnostic{Code: "manifest-dependencies-reserved", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage,
			File: manifestFile, Pointer: "/dependencies", Spec: "splice manifest",
			Message: "dependencies is reserved in spec version 1: nothing resolves them and the Splice registry rejects packages that declare any."})
	}
	return m, issues
}

// checkPackageFiles refuses hidden files and node_modules in a decoded archive, and any
// file over the per-file limit.
func checkPackageFiles(pkg *model.Package, files []File, fromArtifact bool) {
	add := func(d model.Diagnostic) { pkg.Diagnostics = append(pkg.Diagnostics, d) }
	for _, f := range files {
		if fromArtifact {
			for _, seg := range strings.Split(f.Path, "/") {
				if skippedName(seg) {
					add(diag("package-disallowed-file", model.BoundaryPackage, f.Path, "",
						fmt.Sprintf("disallowed file %s: hidden files and node_modules are not allowed in packages", q(f.Path)), "splice package"))
					break
				}
			}
		}
		if len(f.Content) > MaxFileBytes {
			add(diag("package-file-too-large", model.BoundaryPackage, f.Path, "", fmt.Sprintf("file %s exceeds %d bytes", q(f.Path), MaxFileBytes), "splice package"))
		}
	}
}

// toolComponents builds one component per declared tool, each with the manifest findings
// about it and a missing entry file, under a unique id; declared[i] is tools[i]'s entry.
func toolComponents(pkg *model.Package, m *Manifest, issues []Issue, files []File, byPath map[string][]byte, dc *dirClosure) (tools []*model.Component, declared []*Tool) {
	used := map[string]bool{}
	for _, t := range m.Tools {
		c := toolComponent(pkg, m, t, files, dc)
		// A finding about one tool is that tool's (component boundary); that it also
		// rejects the package is said once at the package boundary, below.
		for _, is := range issues {
			if is.Tool == t.Index {
				d := issueDiag(is)
				d.Boundary = model.BoundaryComponent
				c.Diagnostics = append(c.Diagnostics, d)
			}
		}
		if t.Entry != "" && isValidToolEntry(t.Entry) {
			if _, ok := byPath[t.Entry]; !ok {
				c.Diagnostics = append(c.Diagnostics, diag("tool-entry-missing", model.BoundaryComponent, t.Entry, fmt.Sprintf("/tools/%d/entry", t.Index),
					fmt.Sprintf("tool %s: entry file %s is missing", q(t.Name), q(t.Entry)), "splice package"))
			}
		}
		if c.ID == "" || used[c.ID] {
			c.ID = fmt.Sprintf("tools[%d]", t.Index)
		}
		used[c.ID] = true
		tools = append(tools, c)
		declared = append(declared, t)
	}
	return tools, declared
}

// listPackageDependencies lists the agent's component and what it and the reserved
// dependencies name: external packages vouch does not resolve.
func listPackageDependencies(pkg *model.Package, m *Manifest) {
	if m.Agent != nil {
		pkg.Components = append(pkg.Components, agentComponent(pkg, m))
		for _, s := range m.Agent.Skills {
			pkg.Dependencies = append(pkg.Dependencies, model.Reference{Ref: s, Requirement: "external", Status: "unavailable_external",
				Detail: "The agent may call this package's tools; it must be installed to run the agent, and its tools run under its own permissions."})
		}
	}
	for _, d := range m.Dependencies {
		pkg.Dependencies = append(pkg.Dependencies, model.Reference{Ref: d[0] + "@" + d[1], Requirement: "external", Status: "unavailable_external",
			Detail: "Reserved in spec version 1: not resolved by Splice."})
	}
}

// componentsRejectPackage says at the package boundary that a tool or the skill with
// errors of its own rejects the package: Splice accepts or refuses a package as a whole,
// and one error anywhere means no tool runs.
func componentsRejectPackage(pkg *model.Package, tools []*model.Component, declared []*Tool, skill *model.Component) {
	add := func(d model.Diagnostic) { pkg.Diagnostics = append(pkg.Diagnostics, d) }
	for i, c := range tools {
		if hasErrors(c.Diagnostics) {
			own := c.Diagnostics[0]
			add(model.Diagnostic{Code: "package-component-invalid", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
				File: manifestFile, Pointer: fmt.Sprintf("/tools/%d", declared[i].Index), Line: own.Line, Spec: "splice package",
				Message: fmt.Sprintf("tool:%s has %s; Splice refuses the whole package while any tool is invalid, so none of its tools can run.", c.ID, plural(countErrors(c.Diagnostics), "error"))})
		}
	}
	if skill != nil && hasErrors(skill.Diagnostics) {
		add(model.Diagnostic{Code: "package-component-invalid", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
			File: skillDocFile, Spec: "splice package",
			Message: fmt.Sprintf("skill:%s has %s (%s); Splice refuses the whole package while SKILL.md is missing or invalid, so none of its tools can run.", skill.ID, plural(countErrors(skill.Diagnostics), "error"), strings.TrimSuffix(skill.Diagnostics[0].Message, "."))})
	}
}

// reject marks every component of a package Splice refuses as invalid, and makes each say
// why: a component without an error of its own gets one naming the package's first error.
// A tool's summary then says what the manifest claims, never what will run.
func reject(pkg *model.Package, all, tools []*model.Component, declared []*Tool, m *Manifest) {
	pkg.Rejected = true
	var first *model.Diagnostic
	n := 0
	for i, d := range pkg.Diagnostics {
		if d.IsError() {
			if first == nil {
				first = &pkg.Diagnostics[i]
			}
			n++
		}
	}
	why := "the package is rejected"
	var file, ptr string
	line := 0
	if first != nil {
		file, ptr, line = first.File, first.Pointer, first.Line
		where := first.File
		if first.Pointer != "" {
			where += " " + first.Pointer
		}
		if where != "" {
			where += ": "
		}
		why = fmt.Sprintf("the package is rejected (%s; first: %s%s)", plural(n, "error"), where, strings.TrimSuffix(first.Message, "."))
	}
	for _, c := range all {
		c.Validity, c.Contract = model.Invalid, nil
		if !hasErrors(c.Diagnostics) {
			c.Diagnostics = append(c.Diagnostics, model.Diagnostic{Code: "package-rejected", Severity: model.SeverityError,
				Boundary: model.BoundaryPackage, File: file, Pointer: ptr, Line: line, Spec: "splice package",
				Message: upperFirst(why) + "; Splice uses nothing from a rejected package, this " + string(c.Kind) + " included."})
		}
	}
	for i, c := range tools {
		t := declared[i]
		own := 0
		for _, d := range c.Diagnostics {
			if d.IsError() && d.Code != "package-rejected" {
				own++
			}
		}
		lead := "Splice rejects this package, so this tool never runs: " + why + "."
		if own > 0 {
			lead = fmt.Sprintf("Splice rejects this tool (%s in its manifest entry, listed below) and with it the whole package, so nothing in the package runs.", plural(own, "error"))
		}
		c.Summary = []string{
			lead,
			fmt.Sprintf("As written in manifest.json, not validated: tool name %s, entry %s, timeout %d ms.", jsString(t.Name), jsString(t.Entry), t.Timeout()),
			"The manifest asks for these permissions for every tool of the package: " + strings.Join(describePermissions(m.Permissions), "; ") + ".",
		}
		if d := strings.TrimSpace(t.Description); d != "" {
			c.Summary = append(c.Summary, "The manifest describes it as: "+d)
		}
		for j := range c.Capabilities {
			if c.Capabilities[j].Kind == model.CapCodeExecution {
				c.Capabilities[j].Detail = fmt.Sprintf("The manifest names %s as the file Node.js would run for this tool; the package is rejected, so it does not run.", jsString(t.Entry))
			}
		}
		// Names derived from invalid parts would be shown as if a client used them.
		kept := c.Details[:0]
		for _, f := range c.Details {
			if f.Key != "name" && f.Key != "qualifiedName" && f.Key != "mcpName" {
				kept = append(kept, f)
			}
		}
		c.Details = kept
		c.Support = []model.Support{{Provider: model.ClientSplice, Version: "spec 1", Status: model.NotApplicable,
			Detail: "Splice rejects this package, so it serves none of its tools."}}
	}
}

func hasErrors(ds []model.Diagnostic) bool { return countErrors(ds) > 0 }

func countErrors(ds []model.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.IsError() {
			n++
		}
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func issueDiag(is Issue) model.Diagnostic {
	spec := "splice manifest"
	switch {
	case strings.HasPrefix(is.Code, "permissions-"):
		spec = "splice permissions"
	case strings.HasPrefix(is.Code, "schema-"):
		spec = "splice tool schema"
	}
	return model.Diagnostic{Code: is.Code, Severity: model.SeverityError, Boundary: model.BoundaryPackage,
		File: manifestFile, Pointer: is.Pointer, Line: is.Line, Message: is.Message, Spec: spec}
}

func modelFile(f File) model.File {
	// Splice archives store every file as 0644 and the runtime never executes files
	// directly, so exec is always false: a directory and its archive get the same digest.
	return model.File{Path: f.Path, Size: int64(len(f.Content)), SHA256: sha256Hex(f.Content)}
}

// toolClosure is everything a tool may read from its package. The Splice runtime always
// lets a tool read its own package directory (and import any file in it), so every
// package file is in the closure, not only the entry, manifest.json included (a tool can
// import it as JSON). For a folder that is closure.Collect's list, which also holds what
// Splice would not pack (hidden files, node_modules): the tool can import them when the
// folder is run as it is. An archive or bundle cannot hold them, so a folder without them
// has the same closure as its archive.
func toolClosure(files []File, dc *dirClosure) []model.File {
	if dc != nil {
		return dc.res.Files
	}
	var out []model.File
	for _, f := range files {
		out = append(out, modelFile(f))
	}
	sort.Slice(out, func(i, j int) bool { return lessUTF16(out[i].Path, out[j].Path) })
	return out
}

func toolComponent(pkg *model.Package, m *Manifest, t *Tool, files []File, dc *dirClosure) *model.Component {
	id := m.ID()
	mcp := m.Namespace + "_" + m.Name + "_" + t.Name
	qualified := id + "." + t.Name
	perms := m.Permissions
	ann := annotationsOf(perms)
	c := &model.Component{Kind: model.KindTool, ID: t.Name, Validity: model.Valid}

	c.Support = []model.Support{{Provider: model.ClientSplice, Version: "spec 1", Status: model.Supported,
		Detail: "Runs as an ES module in the Splice Node.js sandbox; served to MCP clients as " + mcp + "."}}
	if m.RuntimeType != "node" {
		c.Support[0].Status, c.Support[0].Detail = model.NotSupported, "Spec version 1 supports only the node runtime."
	} else if m.MinNodeVersion != "" {
		c.Support[0].Detail += " Needs Node.js " + m.MinNodeVersion + " or later (older gives RUNTIME_UNSUPPORTED)."
	}

	run := fmt.Sprintf("Runs %s with Node.js in the Splice sandbox when an agent calls %s (%s); the input is checked against the tool's schema first and the run is killed after %d ms.",
		t.Entry, mcp, qualified, t.Timeout())
	c.Summary = append(c.Summary, run)
	c.Summary = append(c.Summary, "Permissions, granted to every tool of the package together: "+strings.Join(describePermissions(perms), "; ")+".")
	c.Summary = append(c.Summary, alwaysDenied)
	if len(perms.Network) > 0 {
		c.Summary = append(c.Summary, "Network access goes through Splice's guarded fetch only: raw sockets, WebSocket and EventSource are removed.")
	}
	if d := strings.TrimSpace(t.Description); d != "" {
		c.Summary = append(c.Summary, "Agents are told: "+d)
	}

	c.Capabilities = append([]model.Capability{{Kind: model.CapCodeExecution, Scope: []string{t.Entry},
		Detail: fmt.Sprintf("Runs %s (its default export) with Node.js when an agent calls %s; stopped after %d ms.", t.Entry, mcp, t.Timeout())}},
		capabilities(perms)...)

	annFields := model.Fields{{Key: "readOnlyHint", Value: ann.ReadOnly}, {Key: "destructiveHint", Value: ann.Destructive}, {Key: "openWorldHint", Value: ann.OpenWorld}}
	c.Details = model.Fields{
		{Key: "name", Value: m.Name + "." + t.Name},
		{Key: "qualifiedName", Value: qualified},
		{Key: "mcpName", Value: mcp},
		{Key: "description", Value: t.Description},
		{Key: "entry", Value: t.Entry},
		{Key: "timeoutMs", Value: t.Timeout()},
	}
	if t.TimeoutMs == 0 {
		c.Details = append(c.Details, model.Field{Key: "timeoutMs source", Value: "default (not declared)"})
	}
	c.Details = append(c.Details,
		model.Field{Key: "inputSchema", Value: toModel(t.Input)},
	)
	if t.Output != nil {
		c.Details = append(c.Details, model.Field{Key: "outputSchema", Value: toModel(t.Output)})
	}
	c.Details = append(c.Details,
		model.Field{Key: "permissions", Value: describePermissions(perms)},
		model.Field{Key: "annotations", Value: annFields},
		model.Field{Key: "always denied", Value: []string{"child processes", "worker threads", "native addons", "WASI", "eval"}},
	)
	if t.Vendor != nil {
		c.Details = append(c.Details, model.Field{Key: "vendor data (x-*, ignored by Splice)", Value: objectFields(t.Vendor)})
	}

	c.Files = toolClosure(files, dc)
	if dc != nil {
		if dc.gitSkipped {
			c.NotCovered = append(c.NotCovered, model.NotCovered{Kind: model.NotCoveredUnbound, Subject: ".git/",
				Detail: "The folder's .git directory is left out of this approval (taken for version-control metadata, which changes with every commit); the tool can read or import files under it, and those bytes are not approved."})
		}
		c.Diagnostics = append(c.Diagnostics, dc.res.Diagnostics...)
	}
	fields := model.Fields{
		{Key: "package", Value: id},
		{Key: "tool", Value: t.Name},
		{Key: "description", Value: t.Description},
		{Key: "entry", Value: t.Entry},
		{Key: "runtime", Value: runtimeFields(m)},
		{Key: "input", Value: toModel(t.Input)},
	}
	if t.Output != nil {
		fields = append(fields, model.Field{Key: "output", Value: toModel(t.Output)})
	}
	fields = append(fields,
		model.Field{Key: "timeoutMs", Value: t.Timeout()},
		model.Field{Key: "permissions", Value: permissionsFields(perms)},
	)
	if dc != nil && !dc.res.Complete && len(dc.res.Diagnostics) > 0 {
		// The closure could not be bound (its diagnostics say why): no contract.
		return c
	}
	c.Contract = &model.Contract{Kind: model.KindTool, Fields: fields, Files: c.Files}
	return c
}

func runtimeFields(m *Manifest) model.Fields {
	f := model.Fields{{Key: "type", Value: m.RuntimeType}}
	if m.MinNodeVersion != "" {
		f = append(f, model.Field{Key: "minNodeVersion", Value: m.MinNodeVersion})
	}
	return f
}

// skillComponent checks SKILL.md as validateSkillDoc does and shows it as the package's
// skill: the text an agent reads to decide when to call the tools.
func skillComponent(pkg *model.Package, m *Manifest, byPath map[string][]byte) *model.Component {
	data, ok := byPath[skillDocFile]
	id := "skill"
	if m != nil && nameSegmentRe.MatchString(m.Name) {
		id = m.Name
	}
	c := &model.Component{Kind: model.KindSkill, ID: id, Validity: model.Valid, BodyFile: skillDocFile}
	bad := func(code, msg string) *model.Component {
		c.Validity = model.Invalid
		c.Diagnostics = append(c.Diagnostics, diag(code, model.BoundaryComponent, skillDocFile, "", msg, "splice package"))
		return c
	}
	if !ok {
		c.Summary = []string{"The package has no SKILL.md."}
		return bad("skill-doc-missing", "SKILL.md is missing")
	}
	f := File{Path: skillDocFile, Content: data}
	c.Files = []model.File{modelFile(f)}
	switch {
	case len(data) > MaxSkillDocBytes:
		return bad("skill-doc-too-large", fmt.Sprintf("SKILL.md exceeds %d bytes", MaxSkillDocBytes))
	case !utf8.Valid(data):
		return bad("skill-doc-invalid-utf8", "SKILL.md is not valid UTF-8")
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	if strings.ContainsRune(text, 0) {
		return bad("skill-doc-nul", "SKILL.md must be text (contains NUL bytes)")
	}
	if jsTrim(text) == "" {
		return bad("skill-doc-empty", "SKILL.md is empty")
	}
	c.Body = text
	sk, sdiags := skills.Parse(data, id, skillDocFile)
	if sk != nil {
		c.Hidden = sk.Hidden
	}
	// Splice's SKILL.md is plain Markdown: Agent Skills frontmatter is not required, so its
	// rules are reported only when the file does carry frontmatter, and never as errors.
	if strings.HasPrefix(text, "---\n") || strings.HasPrefix(text, "---\r\n") {
		for _, d := range sdiags {
			if d.Severity == model.SeverityError {
				d.Severity = model.SeverityWarning
			}
			d.Boundary = model.BoundaryComponent
			c.Diagnostics = append(c.Diagnostics, d)
		}
	}
	c.Summary = []string{"Documentation an agent reads as context to decide when and how to call the package's tools (SKILL.md)."}
	if len(c.Hidden) > 0 {
		c.Summary = append(c.Summary, fmt.Sprintf("%d piece(s) of content a Markdown renderer would not show but an agent reads.", len(c.Hidden)))
	}
	c.Capabilities = []model.Capability{{Kind: model.CapModelContext, Scope: []string{skillDocFile},
		Detail: "Adds SKILL.md to what the agent reads."}}
	c.Contract = &model.Contract{Kind: model.KindSkill, Fields: model.Fields{
		{Key: "package", Value: pkg.Name},
		{Key: "file", Value: skillDocFile},
	}, Files: c.Files}
	return c
}

func agentComponent(pkg *model.Package, m *Manifest) *model.Component {
	a := m.Agent
	c := &model.Component{Kind: model.KindInstruction, ID: "agent", Validity: model.Valid, Body: a.Instructions, BodyFile: manifestFile}
	// The instructions are markdown the console renders like a SKILL.md; list what a
	// markdown view hides in them. Lines count within the instructions text (the JSON
	// string of agent.instructions), not within manifest.json.
	c.Hidden = skills.ScanHidden(a.Instructions, 1)
	skillsList := nonNil(a.Skills)
	c.Summary = []string{
		"An agent definition: system instructions the model reads, and the packages whose tools it may call.",
		"The agent holds no keys and gets no permissions: each tool call runs in the sandbox of the package that owns the tool.",
	}
	if len(skillsList) > 0 {
		c.Summary = append(c.Summary, "May call the tools of: "+strings.Join(skillsList, ", ")+".")
	}
	c.Capabilities = []model.Capability{{Kind: model.CapModelContext, Scope: []string{manifestFile + "#/agent/instructions"}, Detail: "Gives the model these instructions as its system prompt."}}
	c.Details = model.Fields{{Key: "skills", Value: skillsList}}
	fields := model.Fields{{Key: "package", Value: pkg.Name}, {Key: "instructions", Value: a.Instructions}, {Key: "skills", Value: skillsList}}
	if a.Model != "" {
		c.Details = append(c.Details, model.Field{Key: "model", Value: a.Model})
		fields = append(fields, model.Field{Key: "model", Value: a.Model})
	}
	if len(a.Examples) > 0 {
		c.Details = append(c.Details, model.Field{Key: "examples", Value: a.Examples})
		fields = append(fields, model.Field{Key: "examples", Value: a.Examples})
	}
	if a.Vendor != nil {
		c.Details = append(c.Details, model.Field{Key: "vendor data (x-*, ignored by Splice)", Value: objectFields(a.Vendor)})
	}
	c.Contract = &model.Contract{Kind: model.KindInstruction, Fields: fields}
	return c
}

func objectFields(o *object) model.Fields {
	f := model.Fields{}
	for _, k := range o.keys() {
		f = append(f, model.Field{Key: k, Value: toModel(o.vals[k])})
	}
	return f
}

// manifestFields is the normalized manifest in Splice's key order, for display, with the
// x-* vendor data Splice drops shown separately.
func manifestFields(m *Manifest) model.Fields {
	f := model.Fields{
		{Key: "specVersion", Value: toModel(m.SpecVersion)},
		{Key: "id", Value: m.ID()},
		{Key: "namespace", Value: m.Namespace},
		{Key: "name", Value: m.Name},
		{Key: "version", Value: m.Version},
		{Key: "description", Value: m.Description},
		{Key: "runtime", Value: runtimeFields(m)},
		{Key: "permissions", Value: describePermissions(m.Permissions)},
	}
	var names []string
	for _, t := range m.Tools {
		names = append(names, t.Name)
	}
	f = append(f, model.Field{Key: "tools", Value: nonNil(names)})
	if m.License != nil {
		f = append(f, model.Field{Key: "license", Value: *m.License})
	}
	if m.Homepage != nil {
		f = append(f, model.Field{Key: "homepage", Value: *m.Homepage})
	}
	if m.Agent != nil {
		f = append(f, model.Field{Key: "agent", Value: model.Fields{{Key: "skills", Value: nonNil(m.Agent.Skills)}, {Key: "model", Value: m.Agent.Model}}})
	}
	if len(m.Dependencies) > 0 {
		var deps []string
		for _, d := range m.Dependencies {
			deps = append(deps, d[0]+" "+d[1])
		}
		f = append(f, model.Field{Key: "dependencies", Value: deps})
	}
	if m.Vendor != nil {
		f = append(f, model.Field{Key: "vendor data (x-*, ignored by Splice)", Value: objectFields(m.Vendor)})
	}
	if m.RuntimeVendor != nil {
		f = append(f, model.Field{Key: "runtime vendor data (x-*, ignored by Splice)", Value: objectFields(m.RuntimeVendor)})
	}
	return f
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

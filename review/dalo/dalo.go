// Package dalo loads Portable Agent Packages draft 0.1 sources: plugins/<name>/PLUGIN.toml
// with tools, hooks, members and requires, skills/<name>/SKILL.md and
// instructions/<selector>.md.
//
// Paths. A Dalo package's closure spans the source: its tools live under
// plugins/<name>/, its skill members under skills/, its instructions under instructions/.
// So every path this loader reports (Diagnostic.File, model.File.Path, Component.BodyFile)
// is a slash path relative to the SOURCE directory, for example
// plugins/design-review/context.mjs or skills/design-review/SKILL.md. Package.Root is the
// absolute path of plugins/<name>; Package.Reader reads the source-relative paths, and
// only those of the package's own closure: plugins/<name>/..., the skills/<member>/
// directories and the instructions/<member>.md files it resolved.
//
// Limits. The package-level reference limits (4096 entries, 32 directory levels, 64 MiB
// per file, 256 MiB per package) are enforced by an fsguard root opened at plugins/<name>,
// so they count exactly from the package directory; the manifest limits (1 MiB, 16 KiB
// strings, 1024 entries per array or table, 32 nesting levels) are enforced before and
// after the TOML decoder.
package dalo

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/probe"
)

// Options configure the loader.
type Options struct {
	SourceID string // source identity used in references (default "validation")
	Limits   fsguard.Limits
}

// Hook adapter baselines: the releases Dalo's hook rules were checked against; later
// versions need evidence, not inference.
const (
	ClaudeBaseline = model.ClaudeCodeDalo
	CodexBaseline  = model.CodexDalo
)

// IsSource reports whether dir is a Dalo source (it holds plugins/<name>/PLUGIN.toml).
func IsSource(dir string) bool { return IsSourceIn(probe.New(dir)) }

// IsSourceIn is IsSource asked of a probe, which answers from one listing of the folder.
func IsSourceIn(p *probe.Dir) bool {
	if !p.IsDir("plugins") {
		return false
	}
	plugins := filepath.Join(p.Path(), "plugins")
	entries, err := os.ReadDir(plugins)
	if err != nil {
		return false
	}
	for i, e := range entries {
		if i >= 4096 {
			break
		}
		// A symlinked package directory still marks the source so that Load can reject it
		// visibly instead of the source silently disappearing.
		if _, err := os.Lstat(filepath.Join(plugins, e.Name(), "PLUGIN.toml")); err == nil {
			return true
		}
	}
	return false
}

// source is what Load shares between the packages of one source.
type source struct {
	dir    string // absolute, symlink-free
	opts   Options
	root   *fsguard.Root // the source directory: skills/ and instructions/
	pkgs   []*loaded
	bySlot map[string]*loaded
	byID   map[string][]*loaded
}

// loaded is one package while the source is being resolved.
type loaded struct {
	pkg    *model.Package
	slot   string
	man    *manifest
	reader *reader
	deps   []depState
}

type depState struct {
	ref    parsedRef
	req    string
	target *loaded
	index  int // into pkg.Dependencies
}

// Load reviews every package of the source at dir.
func Load(dir string, opts Options) []*model.Package {
	if opts.SourceID == "" {
		opts.SourceID = "validation"
	}
	opts.Limits = opts.Limits.OrDefault()
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		return []*model.Package{sourceFailure(dir, opts, "unreadable_plugin_path", fmt.Sprintf("The source %s cannot be opened: %v.", dir, err))}
	}
	defer root.Close()
	src := &source{dir: root.Path(), opts: opts, root: root, bySlot: map[string]*loaded{}, byID: map[string][]*loaded{}}

	entries, errs, err := root.ReadDir("plugins")
	if err != nil {
		return []*model.Package{sourceFailure(dir, opts, "unreadable_plugin_path", fmt.Sprintf("plugins/ cannot be listed: %v.", err))}
	}
	for _, e := range entries {
		rel := "plugins/" + e.Name
		if e.Symlink {
			if _, lerr := os.Lstat(filepath.Join(src.dir, rel, "PLUGIN.toml")); lerr != nil && !isDirLink(src.dir, rel) {
				continue
			}
			p := src.newPackage(e.Name)
			p.pkg.Rejected = true
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, model.Diagnostic{
				Code: "unsafe_plugin_package_entry", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
				File: rel, Phase: phaseContract, Spec: "dalo §package",
				Message: fmt.Sprintf("%s is a symlink; package directories must be real directories inside the source, so this package is rejected.", rel),
			})
			continue
		}
		if errs[e.Name] != nil || e.Type != fsguard.TypeDir {
			continue
		}
		me, merr := root.Lstat(rel + "/PLUGIN.toml")
		if merr != nil {
			continue // a directory without a manifest is not a package
		}
		p := src.newPackage(e.Name)
		if me.Symlink || me.Type != fsguard.TypeFile {
			p.pkg.Rejected = true
			what := "a symlink"
			if !me.Symlink {
				what = "not a regular file"
			}
			p.pkg.Diagnostics = append(p.pkg.Diagnostics, model.Diagnostic{
				Code: "unsafe_plugin_package_entry", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
				File: rel + "/PLUGIN.toml", Phase: phaseContract, Spec: "dalo §package",
				Message: fmt.Sprintf("%s/PLUGIN.toml is %s; the manifest must be a regular file, so this package is rejected.", rel, what),
			})
			continue
		}
		src.loadPackage(p)
	}
	if len(src.pkgs) == 0 {
		return []*model.Package{sourceFailure(dir, opts, "no_plugin_packages", "The source has no plugins/<name>/PLUGIN.toml; add a package directory with a manifest.")}
	}
	src.resolveSource()
	out := make([]*model.Package, 0, len(src.pkgs))
	for _, p := range src.pkgs {
		invalidContract(p.pkg)
		p.pkg.SortComponents()
		sortDiags(p.pkg.Diagnostics)
		out = append(out, p.pkg)
	}
	return out
}

// invalidContract makes one invalid tool, hook or member invalidate the package contract,
// as upstream reports it (invalid_plugin_package): a Dalo package is activated as a whole,
// and a consumer must not activate the known half of it. The package-boundary error is
// what keeps every sibling from being approved.
func invalidContract(pkg *model.Package) {
	if pkg.Rejected {
		return
	}
	var bad []string
	for _, c := range pkg.Components {
		if c.Validity == model.Invalid {
			bad = append(bad, string(c.Kind)+":"+c.ID)
		}
	}
	if len(bad) == 0 {
		return
	}
	pkg.Diagnostics = append(pkg.Diagnostics, model.Diagnostic{
		Code: "invalid_plugin_package", Severity: model.SeverityError, Boundary: model.BoundaryPackage,
		Phase: phaseContract, Spec: "dalo §3 validity",
		Message: fmt.Sprintf("The package contract is invalid because %s %s invalid; no part of the package can be activated until that is fixed.",
			strings.Join(bad, ", "), map[bool]string{true: "is", false: "are"}[len(bad) == 1]),
	})
}

func isDirLink(dir, rel string) bool {
	st, err := os.Stat(filepath.Join(dir, rel))
	return err == nil && st.IsDir()
}

func sortDiags(ds []model.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Phase != b.Phase {
			return a.Phase < b.Phase
		}
		return a.Code < b.Code
	})
}

// sourceFailure reports a source that yields no package as one rejected package, so the
// failure reaches the report like any other.
func sourceFailure(dir string, opts Options, code, msg string) *model.Package {
	abs, _ := filepath.Abs(dir)
	return &model.Package{
		Format: model.FormatDalo, Name: filepath.Base(abs), Root: abs, SourceID: opts.SourceID, Rejected: true,
		Diagnostics: []model.Diagnostic{{
			Code: code, Severity: model.SeverityError, Boundary: model.BoundarySource, File: "",
			Message: msg, Spec: "dalo §package", Phase: phaseContract,
		}},
	}
}

func (s *source) newPackage(slot string) *loaded {
	rel := "plugins/" + slot
	p := &loaded{slot: slot, pkg: &model.Package{
		Format: model.FormatDalo, Name: slot, SourceID: s.opts.SourceID,
		Root:    filepath.Join(s.dir, "plugins", slot),
		Members: []model.Reference{}, Dependencies: []model.Reference{},
	}}
	p.reader = &reader{dir: s.dir, limits: s.opts.Limits, prefixes: []string{rel + "/"}}
	p.pkg.Reader = p.reader
	s.pkgs = append(s.pkgs, p)
	return p
}

// loadPackage reads one package: its directory under the package limits, its manifest,
// its tools and hooks, and its members.
func (s *source) loadPackage(p *loaded) {
	pkg := p.pkg
	rel := "plugins/" + p.slot
	manifestFile := rel + "/PLUGIN.toml"
	proot, err := fsguard.Open(filepath.Join(s.dir, "plugins", p.slot), s.opts.Limits)
	if err != nil {
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, manifestDiag(manifestFile, "unreadable_plugin_path", "", 0, "%s cannot be opened: %v", rel, err))
		return
	}
	defer proot.Close()
	pk := &pkgFS{root: proot, rel: rel}

	data, err := proot.ReadFileNoFollow("PLUGIN.toml", maxManifestBytes)
	if err != nil {
		code := "unreadable_plugin_path"
		if fsguard.CodeOf(err) == fsguard.CodeTooLarge {
			code = "manifest-too-large"
		}
		pkg.Rejected = true
		pkg.Diagnostics = append(pkg.Diagnostics, manifestDiag(manifestFile, code, "", 0, "PLUGIN.toml cannot be read: %v", err))
		return
	}
	m, raw, diags := parseManifest(data, manifestFile)
	pkg.Diagnostics = append(pkg.Diagnostics, diags...)
	if raw != nil {
		if pl, ok := raw["plugin"].(map[string]any); ok {
			if n, ok := pl["name"].(string); ok && n != "" {
				pkg.Name = n
			}
			if d, ok := pl["description"].(string); ok {
				pkg.Description = d
			}
		}
	}
	if m == nil {
		pkg.Rejected = true
		return
	}
	p.man = m
	if m.Plugin.Name != "" {
		pkg.Name = m.Plugin.Name
	}
	pkg.ID = m.Plugin.ID
	pkg.Version = m.Plugin.Version
	pkg.Description = m.Plugin.Description
	if m.Plugin.Name != p.slot {
		pkg.Diagnostics = append(pkg.Diagnostics, manifestDiag(manifestFile, "plugin-name-mismatch", "/plugin/name", 0,
			"plugin.name is %q but the package directory is %q; they must be equal", m.Plugin.Name, p.slot))
	}
	pkg.Manifest = manifestFields(m, s.opts.SourceID, rel)
	if len(m.Providers) > 0 {
		keys := slices.Sorted(maps.Keys(m.Providers))
		pkg.Diagnostics = append(pkg.Diagnostics, model.Diagnostic{
			Code: "provider-overlay-inert", Severity: model.SeverityInfo, Boundary: model.BoundaryPackage,
			File: manifestFile, Pointer: "/providers", Phase: phaseContract, Spec: "dalo §package",
			Message: fmt.Sprintf("providers holds adapter-owned data for %s; vouch shows it but it grants and changes nothing.", strings.Join(keys, ", ")),
		})
	}

	walkDiags, digest := pk.walk(manifestFile)
	pkg.Diagnostics = append(pkg.Diagnostics, walkDiags...)
	pkg.FilesDigest = digest

	tools := s.buildTools(p, pk, manifestFile)
	s.buildHooks(p, tools, manifestFile)
	s.checkReferences(p, manifestFile)
	s.resolveMembers(p, manifestFile)
}

func manifestFields(m *manifest, sourceID, rel string) model.Fields {
	fs := model.Fields{
		{Key: "schema_version", Value: m.SchemaVersion},
		{Key: "name", Value: m.Plugin.Name},
	}
	if m.Plugin.ID != "" {
		fs = append(fs, model.Field{Key: "id", Value: m.Plugin.ID})
	}
	if m.Plugin.Version != "" {
		fs = append(fs, model.Field{Key: "version", Value: m.Plugin.Version})
	}
	fs = append(fs, model.Field{Key: "description", Value: m.Plugin.Description},
		model.Field{Key: "source_id", Value: sourceID},
		model.Field{Key: "path", Value: rel},
		model.Field{Key: "profile", Value: "portable-agent-packages/0.1"})
	var members []string
	for _, mem := range m.Plugin.Members {
		members = append(members, mem.Ref+" ("+mem.Requirement+")")
	}
	if len(members) > 0 {
		fs = append(fs, model.Field{Key: "members", Value: members})
	}
	var reqs []string
	for _, r := range m.Plugin.Requires {
		reqs = append(reqs, r.Ref+" ("+r.Requirement+")")
	}
	if len(reqs) > 0 {
		fs = append(fs, model.Field{Key: "requires", Value: reqs})
	}
	if len(m.Providers) > 0 {
		fs = append(fs, model.Field{Key: "providers", Value: slices.Sorted(maps.Keys(m.Providers))})
	}
	return fs
}

// pkgFS reads files of one package through an fsguard root opened at plugins/<name>, so
// every package limit counts from the package directory.
type pkgFS struct {
	root *fsguard.Root
	rel  string // plugins/<name>
	// entries found by walk: package-relative path → entry
	files map[string]fsguard.Entry
}

// walk visits the whole package directory under the package limits, rejects symlinks and
// special files, and computes the package hash (path, type, exec bit, length, bytes of
// every file in path order) the way the reference implementation does. The hash is
// informational: tool and hook contracts never include it, so a README edit keeps grants.
func (pk *pkgFS) walk(manifestFile string) ([]model.Diagnostic, string) {
	var diags []model.Diagnostic
	lim := pk.root.Limits()
	pkgErr := func(code, file, format string, args ...any) {
		diags = append(diags, model.Diagnostic{
			Code: code, Severity: model.SeverityError, Boundary: model.BoundaryPackage, File: file,
			Phase: phaseContract, Spec: "dalo §limits", Message: sentence(fmt.Sprintf(format, args...)),
		})
	}
	pk.files = map[string]fsguard.Entry{}
	var files []fsguard.Entry
	var total int64
	tooBig := false
	err := pk.root.Walk(".", func(e fsguard.Entry, err error) error {
		file := pk.rel + "/" + e.Rel
		if err != nil {
			switch fsguard.CodeOf(err) {
			case fsguard.CodeTooDeep:
				pkgErr("package-too-deep", file, "%s is more than %d directory levels below the package directory", file, lim.MaxDepth)
				return nil
			case fsguard.CodeEscape, fsguard.CodeDangling, fsguard.CodeLoop:
				// reported as a symlink below
			default:
				pkgErr("unreadable_plugin_path", file, "%s cannot be read: %v", file, err)
				return nil
			}
		}
		switch {
		case e.Symlink:
			to := ""
			if target, err := pk.root.Readlink(e.Rel); err == nil {
				to = " to " + target
			}
			diags = append(diags, model.Diagnostic{Code: "unsafe_plugin_package_entry", Severity: model.SeverityError,
				Boundary: model.BoundaryPackage, File: file, Phase: phaseContract, Spec: "dalo §package",
				Message: fmt.Sprintf("%s is a symlink%s; packages may not contain symlinks, remove it or replace it with the file.", file, to)})
		case e.Type == fsguard.TypeOther:
			diags = append(diags, model.Diagnostic{Code: "unsafe_plugin_package_entry", Severity: model.SeverityError,
				Boundary: model.BoundaryPackage, File: file, Phase: phaseContract, Spec: "dalo §package",
				Message: fmt.Sprintf("%s is a special file (FIFO, socket or device); packages may contain only regular files and directories.", file)})
		case e.Type == fsguard.TypeFile:
			if e.Size > lim.MaxFileBytes {
				pkgErr("package-file-too-large", file, "%s is %d bytes, over the %d-byte per-file limit", file, e.Size, lim.MaxFileBytes)
				tooBig = true
			}
			total += e.Size
			files = append(files, e)
			pk.files[e.Rel] = e
		}
		return nil
	})
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeTooMany:
			pkgErr("package-too-many-entries", pk.rel, "%s has more than %d entries; the package listing stopped there", pk.rel, lim.MaxEntries)
		case fsguard.CodeTooDeep:
			pkgErr("package-too-deep", pk.rel, "%s is more than %d directory levels deep", pk.rel, lim.MaxDepth)
		default:
			pkgErr("unreadable_plugin_path", pk.rel, "%s cannot be listed: %v", pk.rel, err)
		}
		return diags, ""
	}
	if total > lim.MaxTotalBytes {
		pkgErr("package-too-large", pk.rel, "the files of %s add up to %d bytes, over the %d-byte package limit", pk.rel, total, lim.MaxTotalBytes)
		return diags, ""
	}
	if tooBig {
		return diags, ""
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	h := sha256.New()
	h.Write([]byte("dalo-plugin-package-v1\x00"))
	field := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, f := range files {
		data, err := pk.root.ReadFileNoFollow(f.Rel, 0)
		if err != nil {
			pkgErr("unreadable_plugin_path", pk.rel+"/"+f.Rel, "%s/%s cannot be read: %v", pk.rel, f.Rel, err)
			return diags, ""
		}
		field([]byte(f.Rel))
		field([]byte("f"))
		if f.Exec {
			field([]byte{1})
		} else {
			field([]byte{0})
		}
		field(data)
	}
	return diags, "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// reader is the package's FileReader: source-relative paths of its own closure only.
type reader struct {
	dir      string
	limits   fsguard.Limits
	mu       sync.Mutex
	prefixes []string        // directory prefixes ending in "/"
	exact    map[string]bool // single files (instructions)
	follow   []string        // prefixes whose files may be contained symlinks (skills)
}

func (r *reader) allowFile(p string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.exact == nil {
		r.exact = map[string]bool{}
	}
	r.exact[p] = true
}

func (r *reader) allowDir(p string, follow bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prefixes = append(r.prefixes, p+"/")
	if follow {
		r.follow = append(r.follow, p+"/")
	}
}

// ReadFile reads a source-relative path of this package's closure. Each call opens its own
// fsguard root so repeated reads (trust re-hashing at dispatch) never exhaust one budget.
func (r *reader) ReadFile(rel string) ([]byte, error) {
	c := path.Clean(rel)
	if c != rel || strings.HasPrefix(c, "../") || c == ".." || path.IsAbs(c) {
		return nil, &fsguard.Error{Code: fsguard.CodeBadPath, Path: rel, Msg: "not a clean source-relative path"}
	}
	r.mu.Lock()
	allowed, follow := r.exact[c], false
	for _, p := range r.prefixes {
		if strings.HasPrefix(c, p) {
			allowed = true
		}
	}
	for _, p := range r.follow {
		if strings.HasPrefix(c, p) {
			follow = true
		}
	}
	r.mu.Unlock()
	if !allowed {
		return nil, &fsguard.Error{Code: fsguard.CodeEscape, Path: rel, Msg: "is not part of this package's closure"}
	}
	root, err := fsguard.Open(r.dir, r.limits)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if follow {
		return root.ReadFile(c, 0)
	}
	// Tool files and instructions may not be symlinks, nor live under one.
	if err := noSymlinkPrefix(root, c); err != nil {
		return nil, err
	}
	return root.ReadFileNoFollow(c, 0)
}

// noSymlinkPrefix refuses a path any of whose directories is a symlink.
func noSymlinkPrefix(root *fsguard.Root, rel string) error {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		e, err := root.Lstat(strings.Join(parts[:i], "/"))
		if err != nil {
			return err
		}
		if e.Symlink {
			return &fsguard.Error{Code: fsguard.CodeNotRegular, Path: rel, Msg: strings.Join(parts[:i], "/") + " is a symlink"}
		}
	}
	return nil
}

// PackageDir recognises <source>/plugins/<name> holding PLUGIN.toml and returns the
// source and the package root as Load reports it (absolute, symlinks resolved), so a
// package directory given on its own can be loaded with its source.
func PackageDir(p string) (source, root string, ok bool) {
	if _, err := os.Lstat(filepath.Join(p, "PLUGIN.toml")); err != nil {
		return "", "", false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || filepath.Base(filepath.Dir(real)) != "plugins" {
		return "", "", false
	}
	src := filepath.Dir(filepath.Dir(real))
	if !IsSource(src) {
		return "", "", false
	}
	return src, real, true
}

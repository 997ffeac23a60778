// Package mcpb loads MCP Bundles (Claude Desktop extensions, formerly DXT): a folder with
// manifest.json, or the .mcpb/.dxt zip of one. The manifest is checked against the
// official strict schema of its manifest_version (or the deprecated dxt_version), embedded
// byte-identical, as `mcpb validate` 2.1.2 does; an archive is read with a strict, bounded
// zip reader that refuses every hostile layout instead of extracting part of it. The one
// server a bundle declares becomes an mcp-server component whose approval binds its launch
// fields and every file of the bundle. Nothing is executed and nothing is written.
package mcpb

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"vouch/internal/lazyre"
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/fsguard"
	"vouch/review/jsontext"
	"vouch/review/probe"
)

const manifestFile = "manifest.json"

// Options configure the loader.
type Options struct {
	Limits fsguard.Limits
	// SignatureRoots are the certificates a bundle signature must chain to, as the user
	// configured them; nil leaves every valid signature untrusted. The operating
	// system's store is never used.
	SignatureRoots *x509.CertPool
	// Home is shown for ${HOME} (and Desktop, Documents, Downloads below it); "" uses the
	// current user's home directory. Display only: nothing there is read.
	Home string
}

// Kind says what a folder's manifest.json is.
type Kind int

const (
	KindNone   Kind = iota // no manifest.json
	KindMCPB               // has manifest_version or dxt_version
	KindSplice             // has specVersion
	KindOther              // neither: a source diagnostic, never a Splice or MCPB error
)

// probeLimit bounds what classification reads: the 1 MiB limit vouch sets on a manifest.
const probeLimit = 1 << 20

// Classify reads dir/manifest.json (bounded, a regular file inside dir) and says whose it
// is. Splice and MCP Bundles both use that name: a manifest is an MCP Bundle's when it has
// manifest_version or dxt_version at the top level, Splice's when it has specVersion, and
// otherwise neither's; then the diagnostic says so (a source finding, not a package).
func Classify(dir string) (Kind, *model.Diagnostic) { return ClassifyIn(probe.New(dir)) }

// ClassifyIn is Classify asked of a probe, which answers from one listing of the folder.
func ClassifyIn(d *probe.Dir) (Kind, *model.Diagnostic) {
	if !d.Exists(manifestFile) {
		return KindNone, nil
	}
	p := filepath.Join(d.Path(), manifestFile)
	other := func(why string) (Kind, *model.Diagnostic) {
		return KindOther, &model.Diagnostic{Code: "manifest-unrecognized", Severity: model.SeverityWarning, Boundary: model.BoundarySource,
			File: p, Spec: specManifest,
			Message: fmt.Sprintf("%s %s, so it is neither an MCP Bundle manifest (manifest_version or dxt_version) nor a Splice manifest (specVersion) and vouch does not read it; a bundle needs \"manifest_version\", a Splice package \"specVersion\".", p, why)}
	}
	data, _, err := fsguard.ReadUserFile(p, probeLimit+1)
	if err != nil {
		return other(fmt.Sprintf("cannot be read (%v)", err))
	}
	if len(data) > probeLimit {
		return other(fmt.Sprintf("is over the %d-byte manifest limit", probeLimit))
	}
	v, _, perr := jsontext.Parse(data, parseOptions)
	if perr != nil {
		return other("is not JSON (it " + perr.Msg + ")")
	}
	if v.Kind != jsontext.Object {
		return other("holds a JSON " + v.Kind.String() + ", not an object")
	}
	if v.Get("manifest_version") != nil || v.Get("dxt_version") != nil {
		return KindMCPB, nil
	}
	if v.Get("specVersion") != nil {
		return KindSplice, nil
	}
	return other("has no version field")
}

// HasBundleName reports whether a file name is a bundle's (.mcpb, or the legacy .dxt).
func HasBundleName(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".mcpb") || strings.HasSuffix(n, ".dxt")
}

// IsArtifact reports whether path is a bundle archive: a regular file named .mcpb/.dxt,
// or any regular file that starts like a zip (a path given directly is judged by content).
func IsArtifact(p string) bool {
	head, _, err := fsguard.ReadUserFile(p, 4)
	if err != nil {
		return false
	}
	return HasBundleName(p) || IsZip(head)
}

// bundle is what a folder or an archive provides to the component builder.
type bundle struct {
	pkg      *model.Package
	opts     Options
	manifest *Manifest
	archive  bool
	// files lists the closure (every file but manifest.json); complete is false when it
	// could not be listed whole, and then nothing is approvable.
	files    []model.File
	complete bool
	// closureDiags are the closure's findings, attached to the server component.
	closureDiags []model.Diagnostic
	// invalid is set when the manifest fails validation.
	invalid bool
	// exists answers whether a bundle-relative file exists and its first bytes (icons).
	head func(rel string) ([]byte, bool)
	sig  *Signature
	// interp holds the #! line of executable bundle files; unbound the directories the
	// closure leaves out (.git), for not_covered.
	interp  map[string]string
	unbound []model.NotCovered
}

// Load reviews the bundle at p: a folder or a .mcpb/.dxt file. It never fails: problems
// become diagnostics.
func Load(p string, opts Options) *model.Package {
	opts.Limits = opts.Limits.OrDefault()
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	pkg := &model.Package{Format: model.FormatMCPB, Root: abs, Name: baseName(abs)}
	st, err := os.Stat(p)
	if err != nil {
		reject(pkg, "source-unreadable", "", fmt.Sprintf("Could not read %s: %v.", p, err))
		return pkg
	}
	if st.IsDir() {
		loadDir(pkg, p, opts)
	} else {
		loadArchive(pkg, p, opts)
	}
	pkg.SortComponents()
	return pkg
}

func baseName(p string) string {
	b := filepath.Base(p)
	for _, ext := range []string{".mcpb", ".dxt", ".MCPB", ".DXT", ".zip"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

func reject(pkg *model.Package, code, file, msg string) {
	pkg.Rejected = true
	pkg.Components = nil
	pkg.Diagnostics = append(pkg.Diagnostics, model.Diagnostic{Code: code, Severity: model.SeverityError, Boundary: model.BoundaryPackage, File: file, Message: msg, Spec: specBundle})
}

const specBundle = "mcpb README (bundle format); mcpb 2.1.2 pack/unpack/sign"

func loadDir(pkg *model.Package, dir string, opts Options) {
	root, err := fsguard.Open(dir, opts.Limits)
	if err != nil {
		reject(pkg, "package-unreadable", "", fmt.Sprintf("The bundle folder could not be opened (%v).", err))
		return
	}
	defer root.Close()
	pkg.Root = root.Path()
	pkg.Reader = &dirReader{dir: root.Path(), limits: opts.Limits}
	data, err := root.ReadFile(manifestFile, opts.Limits.MaxManifestSize)
	if err != nil {
		reject(pkg, "manifest-unreadable", manifestFile, fmt.Sprintf("manifest.json cannot be read (%v).", err))
		return
	}
	b := &bundle{pkg: pkg, opts: opts}
	b.head = func(rel string) ([]byte, bool) {
		e, err := root.Stat(rel)
		if err != nil || e.Type != fsguard.TypeFile {
			return nil, false
		}
		d, err := root.ReadFile(rel, 0)
		if err != nil {
			return nil, false
		}
		return d[:min(len(d), 8)], true
	}
	if !b.parse(data) {
		return
	}
	b.folderClosure(root)
	b.build()
}

// folderClosure is a bundle folder's closure (closure.Collect, the one rule every loader
// shares): every file the server can reach in the folder it runs from, links bound as
// links, manifest.json included (the server can read it, as every runnable component's
// closure holds its manifests), except the root's .git directory (it changes with every
// commit; named under not_covered, since the server could read it). Links that leave the
// folder, dangle, loop or are absolute block the server: it would follow them.
func (b *bundle) folderClosure(root *fsguard.Root) {
	gitDir := false
	res := closure.Collect(root, ".", closure.Options{
		Code:     "bundle",
		Owner:    "the server's approval",
		Spec:     specBundle,
		LimitMsg: "The bundle's files could not all be read (%v), so the server's approval could not cover every file it may run",
		Runnable: true,
		Skip: func(rel string) bool {
			if rel == ".git" {
				gitDir = true
				return true
			}
			return false
		},
	})
	b.files, b.closureDiags, b.complete, b.interp = res.Files, res.Diagnostics, res.Complete, res.Interpreters
	if gitDir {
		b.closureDiags = append(b.closureDiags, model.Diagnostic{Code: "bundle-vcs-excluded", Severity: model.SeverityWarning, Boundary: model.BoundaryEntry, File: ".git", Spec: specBundle,
			Message: ".git is version-control metadata and is left out of the server's approval (mcpb pack leaves it out too); a server that reads it is not covered by what you approve."})
		b.unbound = append(b.unbound, model.NotCovered{Kind: model.NotCoveredUnbound, Subject: ".git",
			Detail: ".git is left out of the server's approval (mcpb pack leaves it out too); a server that reads or loads code from it runs bytes you did not approve."})
	}
}

func loadArchive(pkg *model.Package, p string, opts Options) {
	lim := DefaultZipLimits()
	lim.MaxEntries = opts.Limits.MaxEntries
	lim.MaxFileBytes = opts.Limits.MaxFileBytes
	lim.MaxTotalBytes = opts.Limits.MaxTotalBytes
	lim.MaxArchiveBytes = opts.Limits.MaxTotalBytes
	data, _, err := fsguard.ReadUserFile(p, lim.MaxArchiveBytes+1)
	if err != nil {
		reject(pkg, "source-unreadable", "", fmt.Sprintf("Could not read %s: %v.", p, err))
		return
	}
	sum := sha256.Sum256(data)
	pkg.Integrity = "sha256-" + hex.EncodeToString(sum[:])
	files, sig, err := ReadZip(data, lim)
	b := &bundle{pkg: pkg, opts: opts, archive: true, sig: sig}
	if err == nil {
		// Checked only over a zip the reader accepted: its end record ends where the
		// block starts, so the signed bytes are the bytes reviewed.
		signatureOf(pkg, data[:len(data)-int(blockLen(sig))], sig, opts.SignatureRoots)
	}
	if err != nil {
		var ze *ZipError
		if errors.As(err, &ze) {
			reject(pkg, ze.Code, ze.Path, ze.Message)
		} else {
			reject(pkg, "zip-unreadable", "", err.Error())
		}
		return
	}
	mem := map[string][]byte{}
	var manifest []byte
	for _, f := range files {
		mem[f.Path] = f.Content
		if f.Path == manifestFile {
			manifest = f.Content
		}
		if line, ok := closure.Shebang(f.Content); ok && f.Exec {
			if b.interp == nil {
				b.interp = map[string]string{}
			}
			b.interp[f.Path] = line
		}
		s := sha256.Sum256(f.Content)
		b.files = append(b.files, model.File{Path: f.Path, Size: int64(len(f.Content)), SHA256: hex.EncodeToString(s[:]), Exec: f.Exec})
	}
	sort.Slice(b.files, func(i, j int) bool { return b.files[i].Path < b.files[j].Path })
	b.complete = true
	pkg.Reader = fsguard.MemReader{Files: mem, Of: "the bundle"}
	if manifest == nil {
		reject(pkg, "manifest-missing", manifestFile, "The bundle has no manifest.json at the root of its zip, so no host can install it.")
		return
	}
	if int64(len(manifest)) > opts.Limits.MaxManifestSize {
		reject(pkg, "manifest-too-large", manifestFile, fmt.Sprintf("manifest.json is %d bytes, over vouch's %d-byte manifest limit.", len(manifest), opts.Limits.MaxManifestSize))
		return
	}
	b.head = func(rel string) ([]byte, bool) {
		d, ok := mem[path.Clean(strings.TrimPrefix(rel, "./"))]
		return d[:min(len(d), 8)], ok
	}
	if !b.parse(manifest) {
		return
	}
	b.build()
}

// parse reads the manifest and validates it; false when nothing more can be said.
func (b *bundle) parse(data []byte) bool {
	m, diags := ParseManifest(data)
	b.pkg.Diagnostics = append(b.pkg.Diagnostics, diags...)
	if m == nil {
		b.pkg.Rejected = true
		return false
	}
	b.manifest = m
	b.pkg.Diagnostics = append(b.pkg.Diagnostics, m.Validate()...)
	b.pkg.Diagnostics = append(b.pkg.Diagnostics, b.checkIcon()...)
	b.invalid = slices.ContainsFunc(b.pkg.Diagnostics, model.Diagnostic.IsError)
	b.identity()
	return true
}

var safeName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// identity takes the package name from the manifest, which a folder and its packed .mcpb
// share (refs stay the same either way), when it can serve in a ref; otherwise the file
// or folder name is kept and the reason given.
func (b *bundle) identity() {
	m := b.manifest
	if v, ok := m.str("version"); ok {
		b.pkg.Version = v
	}
	if d, ok := m.str("description"); ok {
		b.pkg.Description = d
	}
	name, ok := m.str("name")
	switch {
	case !ok:
	case safeName.MatchString(name):
		b.pkg.Name = name
	default:
		b.pkg.Diagnostics = append(b.pkg.Diagnostics, mdiag("manifest-name-not-ref-safe", model.SeverityInfo, model.BoundaryPackage, "/name", line(m, "name"),
			fmt.Sprintf("The bundle name %q cannot serve in a vouch ref (letters, digits, '.', '_' and '-'), so the package is called %q after its file or folder.", clip(name), b.pkg.Name)))
	}
	for _, k := range []string{"manifest_version", "dxt_version", "name", "display_name", "version", "description", "author", "license", "homepage", "repository", "compatibility"} {
		if v := m.value(k); v != nil {
			b.pkg.Manifest = append(b.pkg.Manifest, model.Field{Key: k, Value: display(v)})
		}
	}
}

// display converts a JSON value to model field values (ordered objects).
func display(v *jsontext.Value) any {
	if x, ok := v.Scalar(); ok {
		return x
	}
	if v.Kind == jsontext.Array {
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = display(e)
		}
		return out
	}
	fs := model.Fields{}
	for _, m := range v.Obj {
		fs = append(fs, model.Field{Key: m.Key, Value: display(m.Val)})
	}
	return fs
}

var pngMagic = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

// checkIcon applies mcpb validate's icon rules (after the schema passes): a remote URL is
// a warning; ${__dirname} or an absolute path is an error; otherwise the file must exist
// in the bundle and be a PNG.
func (b *bundle) checkIcon() []model.Diagnostic {
	icon, ok := b.manifest.str("icon")
	if !ok || icon == "" {
		return nil
	}
	ln := line(b.manifest, "icon")
	d := func(code string, sev model.Severity, msg string) []model.Diagnostic {
		return []model.Diagnostic{mdiag(code, sev, model.BoundaryPackage, "/icon", ln, msg)}
	}
	remote := strings.HasPrefix(icon, "http://") || strings.HasPrefix(icon, "https://")
	switch {
	case remote:
		return d("icon-remote", model.SeverityWarning, "The icon is a remote URL; Claude Desktop shows only icon files inside the bundle.")
	case strings.Contains(icon, "${__dirname}"):
		return d("icon-dirname", model.SeverityError, "The icon path uses ${__dirname}, which mcpb validate rejects; use a path relative to the bundle root.")
	case filepath.IsAbs(icon) || strings.HasPrefix(icon, "/"):
		return d("icon-absolute", model.SeverityError, fmt.Sprintf("The icon path %q is absolute; it must be relative to the bundle root.", clip(icon)))
	}
	head, ok := b.head(icon)
	if !ok {
		return d("icon-missing", model.SeverityError, fmt.Sprintf("The icon file %q is not in the bundle.", clip(icon)))
	}
	if !bytes.HasPrefix(head, pngMagic) {
		return d("icon-not-png", model.SeverityError, fmt.Sprintf("The icon file %q is not a PNG file.", clip(icon)))
	}
	return nil
}

// dirReader serves a bundle folder's bytes to trust, opening the root per call.
type dirReader struct {
	dir    string
	limits fsguard.Limits
}

func (r *dirReader) ReadFile(rel string) ([]byte, error) {
	root, err := fsguard.Open(r.dir, r.limits)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(rel, 0)
}

// Package review turns paths into packages: it detects which format each path holds,
// runs that format's loader and returns the packages in a stable order. Formats are
// entries of one table (formats.go). Loaders are pure: files in, model out, no writes.
package review

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"vouch/internal/parallel"
	"vouch/model"
	"vouch/review/claudecode"
	"vouch/review/foreign"
	"vouch/review/fsguard"
	"vouch/review/probe"
	"vouch/review/skillpkg"
	"vouch/review/skills"
)

// Options configure a review run.
type Options struct {
	// SourceID is the source identity used in Dalo references (default "validation").
	SourceID string
	// Retained says the caller keeps every package for long (the console, not a streamed
	// validation): loaders that can then copy the few strings they keep out of the file
	// texts they parsed, so that those texts are freed.
	Retained bool
	// ClientVersions names, by client id (model.ClientClaudeCode, model.ClientCodex), the
	// release the support answers are for: the one installed, when the caller found it.
	// A client not named is answered for the newest release vouch models.
	ClientVersions map[string]string
	// ClaudeSkillsDir, when set, is Claude Code's skills folder ($CLAUDE_CONFIG_DIR/skills):
	// each folder in it that holds .claude-plugin/plugin.json is reviewed after the
	// sources as the plugin <name>@skills-dir, which Claude Code loads with no install
	// step (status --claude).
	ClaudeSkillsDir string
	// DataDir is the directory shown for ${PLUGIN_DATA}; a plugin's data dir is DataDir/<name>.
	// Validation never creates it.
	DataDir string
	// Limits bound every read of one package; zero means fsguard.DefaultLimits().
	Limits fsguard.Limits
	// SignatureRoots are the certificates an MCP Bundle's signature must chain to, as the
	// user configured them (nil: none, so no signer can be confirmed).
	SignatureRoots *x509.CertPool
	// SearchDepth bounds how deep plain directories are searched for package roots (default
	// 4). It is the shape of the search, not a resource bound: directories below it are
	// counted and named in a warning (search-depth-reached), never dropped silently.
	SearchDepth int
	// MaxPackages bounds the package roots found below one SOURCE (default
	// DefaultMaxPackages); MaxSearchEntries bounds the directory entries the search lists
	// there (default DefaultMaxSearchEntries). Reaching either stops the search with an
	// error at the source boundary (source-too-many-packages, source-search-too-large): a
	// source that was not searched completely is never reported as valid.
	MaxPackages      int
	MaxSearchEntries int
	// Exclude, when set, names what the search below a SOURCE leaves out: it is asked
	// about every folder and file the search meets, with its path relative to the SOURCE
	// in slash form, and a folder it excludes is not entered. A path given as SOURCE is
	// reviewed whatever Exclude says. What it left out is counted in a note
	// (search-excluded), so a report never hides that part of a SOURCE was skipped.
	Exclude func(rel string) bool

	// skills is the cache of skills shared by the loaders of one folder (set per job).
	skills *skills.Shared

	// skipNotes leaves out the findings about folders that no package carries
	// (sourceNotes): Locate's caller reads packages only, and on a wide SOURCE the notes
	// cost more than the search.
	skipNotes bool
}

// The search bounds of one SOURCE. They are far above the per-package limits (4,096
// entries in one package): a plugin cache or a marketplace checkout holds thousands of
// packages, and every one of them must be reviewed or the run must fail.
const (
	DefaultMaxPackages      = 100_000
	DefaultMaxSearchEntries = 2_000_000
)

func (o Options) withDefaults() Options {
	if o.SourceID == "" {
		o.SourceID = "validation"
	}
	o.Limits = o.Limits.OrDefault()
	if o.SearchDepth == 0 {
		o.SearchDepth = 4
	}
	if o.MaxPackages == 0 {
		o.MaxPackages = DefaultMaxPackages
	}
	if o.MaxSearchEntries == 0 {
		o.MaxSearchEntries = DefaultMaxSearchEntries
	}
	return o
}

// ErrNotFound is returned (wrapped) when a path given by the user does not exist.
var ErrNotFound = errors.New("path not found")

// Result is what Open found.
type Result struct {
	Packages []*model.Package
	// Diagnostics are findings about the sources themselves (nothing found, unreadable dirs).
	Diagnostics []model.Diagnostic
}

// Open reviews each path. A missing path is an error (usage: exit 2); everything else,
// however hostile, becomes diagnostics. It is Stream with every batch kept.
func Open(opts Options, paths ...string) (*Result, error) {
	res := &Result{}
	diags, err := Stream(opts, paths, func(batch []*model.Package) bool {
		res.Packages = append(res.Packages, batch...)
		return true
	})
	if err != nil {
		return nil, err
	}
	res.Diagnostics = diags
	return res, nil
}

type job struct {
	format *format
	path   string
	// only keeps just the package rooted there (format.inside).
	only string
	// notes are added to every package the job loads (how a client holds it: an
	// installed Claude Code plugin's id and enabled state).
	notes []model.Diagnostic
	// onlyOrAlone loads the folder only names on its own when path loads no package
	// rooted there: an installed plugin whose marketplace entry no longer names its folder
	// is still reviewed, never dropped.
	onlyOrAlone bool
	// dir: detection found path to be a directory (a probe listed it), so Locate's name
	// probe need not ask again.
	dir bool
	// loadAs, when set, loads path instead of the format's own loader: an installed
	// Claude Code plugin merged with the entry of a marketplace kept elsewhere.
	loadAs func(path string, opts Options) []*model.Package
	// skills is shared by the jobs of one folder, which read its skills once.
	skills *skills.Shared
}

func (j job) load(opts Options) []*model.Package {
	opts.skills = j.skills
	defer j.skills.Done()
	var pkgs []*model.Package
	if j.loadAs != nil {
		pkgs = j.loadAs(j.path, opts)
	} else {
		pkgs = j.format.load(j.path, opts)
	}
	if j.only != "" {
		var kept []*model.Package
		for _, p := range pkgs {
			if p.Root == j.only {
				kept = append(kept, p)
			}
		}
		pkgs = kept
		if len(pkgs) == 0 && j.onlyOrAlone {
			pkgs = j.format.load(j.only, opts)
			for _, p := range pkgs {
				p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "claude-installed-entry-not-loaded", Severity: model.SeverityWarning, Boundary: model.BoundaryPackage, File: p.Root,
					Message: fmt.Sprintf("The marketplace in %s no longer loads this folder through a valid entry, so it is reviewed as a plugin on its own; Claude Code may read it differently.", j.path)})
			}
		}
	}
	for _, p := range pkgs {
		for _, d := range j.notes {
			d.File = p.Root
			p.Diagnostics = append(p.Diagnostics, d)
		}
	}
	return pkgs
}

// detect says which formats a path given as SOURCE holds, or none for a plain
// directory to search. It follows a symlink given as SOURCE; the search does not.
func detect(path string, limits fsguard.Limits) []job {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if !st.IsDir() {
		return detectFile(path, limits, false)
	}
	return detectDir(path)
}

// notes is sourceNotes unless the caller asked for packages only.
func (o Options) notes(dir string) []model.Diagnostic { return o.notesOf(probe.New(dir)) }

// notesOf is notes of a probed folder.
func (o Options) notesOf(p *probe.Dir) []model.Diagnostic {
	if o.skipNotes {
		return nil
	}
	return sourceNotes(p)
}

// detectNotes detects a folder met while searching and gives its source notes, both
// from one probe.
func (o Options) detectNotes(dir string) ([]job, []model.Diagnostic) {
	p := probe.New(dir)
	return detectProbed(p), o.notesOf(p)
}

// vcsDirs hold version-control metadata, never a package a client loads: the search
// does not enter them (a path given as SOURCE is reviewed whatever its name).
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true}

// searchChunk is how many entries one directory read returns: a directory is listed in
// chunks so that a huge one costs at most the search's entry bound, not its size.
const searchChunk = 1024

// openDir opens a directory for listing; tests replace it to make one unreadable (root,
// which runs CI, can read any directory whatever its mode).
var openDir = func(dir string) (dirReader, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// dirReader is the part of *os.File the search uses.
type dirReader interface {
	ReadDir(n int) ([]os.DirEntry, error)
	Close() error
}

// search is the state of discovering one SOURCE.
type search struct {
	opts   Options
	source string
	// sink takes the jobs as they are found (discoverTo); nfound counts them.
	sink    func([]job) bool
	nfound  int
	diags   []model.Diagnostic
	listed  int // directory entries listed so far
	stopped bool
	// deep counts the directories below SearchDepth that were not searched; deepFirst
	// is the first of them in search order, named in the warning.
	deep      int
	deepFirst string
	// excluded counts what Options.Exclude left out; excludedFirst is the first of it.
	excluded      int
	excludedFirst string
}

// discover finds package roots under p. A package root is never searched further;
// symlinked directories are not followed during the search.
func discover(p string, opts Options) ([]job, []model.Diagnostic) {
	var jobs []job
	diags := discoverTo(p, opts, func(js []job) bool {
		jobs = append(jobs, js...)
		return true
	})
	return jobs, diags
}

// discoverTo is discover handing the jobs to sink as the search finds them, in discovery
// order, so loading can start before a large source is searched to its end; sink
// returning false stops the search.
func discoverTo(p string, opts Options, sink func([]job) bool) []model.Diagnostic {
	jobs, diags, searched := discoverOne(p, opts, sink)
	if !searched && len(jobs) > 0 {
		sink(jobs)
	}
	return diags
}

// discoverOne returns the jobs of a SOURCE that is not searched (a package, an archive,
// an install record); a searched one hands its jobs to sink itself (searched is true).
func discoverOne(p string, opts Options, sink func([]job) bool) (jobs []job, diags []model.Diagnostic, searched bool) {
	jobs, diags = discoverDirect(p, opts)
	if jobs != nil || diags != nil {
		return jobs, diags, false
	}
	s := &search{opts: opts, source: p, diags: opts.notes(p), sink: sink}
	s.walk(p, 1)
	if s.deep > 0 {
		s.diags = append(s.diags, model.Diagnostic{
			Code: "search-depth-reached", Severity: model.SeverityWarning, Boundary: model.BoundarySource, File: p,
			Message: fmt.Sprintf("%s searched %d directory levels deep; %d directories below that were not searched (the first is %s): give a deeper folder as SOURCE to review packages there.",
				p, opts.SearchDepth, s.deep, s.deepFirst),
		})
	}
	if s.excluded > 0 {
		what := fmt.Sprintf("%d folders and files that an exclude pattern matches (the first is %s)", s.excluded, s.excludedFirst)
		if s.excluded == 1 {
			what = s.excludedFirst + ", which an exclude pattern matches"
		}
		s.diags = append(s.diags, model.Diagnostic{
			Code: "search-excluded", Severity: model.SeverityInfo, Boundary: model.BoundarySource, File: p,
			Message: fmt.Sprintf("The search of %s left out %s; packages there were not reviewed.", p, what),
		})
	}
	if s.diags == nil {
		s.diags = []model.Diagnostic{}
	}
	return nil, s.diags, true
}

// discoverDirect answers a SOURCE that is not a plain directory to search: (nil, nil)
// when it is one.
func discoverDirect(p string, opts Options) ([]job, []model.Diagnostic) {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		// One probe for the formats' tests and the notes: one listing of the folder.
		pd := probe.New(p)
		if jobs := detectProbed(pd); len(jobs) > 0 {
			return jobs, opts.notesOf(pd)
		}
	} else if jobs := detect(p, opts.Limits); len(jobs) > 0 {
		return jobs, nil
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() && isManifestDir(filepath.Base(p)) {
		return nil, []model.Diagnostic{foreign.ClientDirSource(p)}
	}
	if jobs := detectInside(p); len(jobs) > 0 {
		return jobs, nil
	}
	if claudecode.IsInstallDir(p) {
		return installedJobs(p)
	}
	st, err := os.Stat(p)
	if err == nil && st.IsDir() {
		return nil, nil
	}
	if f, dir, ok := manifestOf(p); ok {
		return nil, []model.Diagnostic{{
			Code: "source-is-manifest", Severity: model.SeverityError, Boundary: model.BoundarySource, File: p,
			Message: fmt.Sprintf("%s is the manifest of the %s package in %s: give the folder %s as SOURCE, not the file.", p, f.title, dir, dir),
		}}
	}
	return nil, []model.Diagnostic{{
		Code: "unrecognized-source", Severity: model.SeverityError, Boundary: model.BoundarySource, File: p,
		Message: fmt.Sprintf("%s is not %s.", p, OrList(SourceForms())),
	}}
}

func (s *search) walk(dir string, depth int) {
	entries, ok := s.list(dir)
	if !ok {
		return
	}
	entries = s.exclude(dir, entries)
	// Detecting a folder is a few Lstats: for a listing of many folders (a plugin cache)
	// they are made on every core at once, a chunk at a time, then used in listing order
	// as before; chunks let the first packages go to the loaders while the rest of a
	// large listing is still being detected.
	detected := make([][]job, len(entries))
	notes := make([][]model.Diagnostic, len(entries))
	for i, e := range entries {
		if s.stopped {
			return
		}
		if len(entries) >= parallelDetect && i%detectChunk == 0 {
			chunk := entries[i:min(i+detectChunk, len(entries))]
			parallel.For(len(chunk), ioWorkers(), func(k int) {
				e := chunk[k]
				if e.IsDir() && e.Type()&os.ModeSymlink == 0 && !isManifestDir(e.Name()) {
					child := filepath.Join(dir, e.Name())
					detected[i+k], notes[i+k] = s.opts.detectNotes(child)
				}
			})
		}
		child := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			// A skills collection (~/.claude/skills) often links its skills in: a linked
			// skill folder is loaded, never searched.
			if st, err := os.Stat(child); err == nil && st.IsDir() && skillpkg.IsRoot(child) {
				s.found([]job{{format: formatNamed(model.FormatAgentSkills), path: child}})
			}
			continue
		}
		if !e.IsDir() {
			if e.Type().IsRegular() {
				s.found(detectFile(child, s.opts.Limits, true))
			}
			continue
		}
		if isManifestDir(e.Name()) {
			continue // a plugin's manifest folder is read with the plugin, never alone
		}
		jobs, ns := detected[i], notes[i]
		if len(entries) < parallelDetect {
			jobs, ns = s.opts.detectNotes(child)
		}
		s.diags = append(s.diags, ns...)
		if len(jobs) > 0 {
			s.found(jobs)
			continue
		}
		if vcsDirs[e.Name()] {
			continue
		}
		if depth+1 > s.opts.SearchDepth {
			if s.deep == 0 {
				s.deepFirst = child
			}
			s.deep++
			continue
		}
		s.walk(child, depth+1)
	}
}

// exclude drops the entries of dir that Options.Exclude matches, counting them.
func (s *search) exclude(dir string, entries []os.DirEntry) []os.DirEntry {
	if s.opts.Exclude == nil {
		return entries
	}
	kept := entries[:0]
	for _, e := range entries {
		child := filepath.Join(dir, e.Name())
		rel, err := filepath.Rel(s.source, child)
		if err == nil && s.opts.Exclude(filepath.ToSlash(rel)) {
			if s.excluded == 0 {
				s.excludedFirst = child
			}
			s.excluded++
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// parallelDetect is the listing size from which its folders are detected concurrently,
// detectChunk folders at a time.
const (
	parallelDetect = 32
	detectChunk    = 128
)

// ioWorkers is how many goroutines detect folders at once: two per core, since each
// mostly waits on system calls.
func ioWorkers() int { return 2 * runtime.GOMAXPROCS(0) }

// list reads dir in chunks, counting every entry against the search bound, and returns
// the entries sorted by name (the stable discovery order). A listing that fails, or
// that the bound cut short, is reported and not searched: a partial listing would make
// the packages found depend on the file system's order.
func (s *search) list(dir string) ([]os.DirEntry, bool) {
	f, err := openDir(dir)
	if err != nil {
		s.unreadable(dir, err)
		return nil, false
	}
	defer f.Close()
	var entries []os.DirEntry
	for {
		chunk, err := f.ReadDir(searchChunk)
		entries = append(entries, chunk...)
		s.listed += len(chunk)
		if s.listed > s.opts.MaxSearchEntries {
			s.stop("source-search-too-large", fmt.Sprintf("The search of %s listed more than %d directory entries and stopped in %s; packages past that point were not reviewed, so give the folders that hold them as separate SOURCEs.",
				s.source, s.opts.MaxSearchEntries, dir))
			return nil, false
		}
		if err == io.EOF || (err == nil && len(chunk) == 0) {
			break
		}
		if err != nil {
			s.unreadable(dir, err)
			return nil, false
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, true
}

// found records package roots, unless that passes the package bound.
func (s *search) found(jobs []job) {
	if len(jobs) == 0 {
		return
	}
	if s.nfound+len(jobs) > s.opts.MaxPackages {
		s.stop("source-too-many-packages", fmt.Sprintf("%s holds more than %d package roots; the search stopped at %s and the packages from there on were not reviewed, so give the folders that hold them as separate SOURCEs.",
			s.source, s.opts.MaxPackages, jobs[0].path))
		return
	}
	s.nfound += len(jobs)
	if !s.sink(jobs) {
		s.stopped = true
	}
}

func (s *search) stop(code, msg string) {
	s.stopped = true
	s.diags = append(s.diags, model.Diagnostic{Code: code, Severity: model.SeverityError, Boundary: model.BoundarySource, File: s.source, Message: msg})
}

func (s *search) unreadable(dir string, err error) {
	s.diags = append(s.diags, model.Diagnostic{Code: "unreadable-directory", Severity: model.SeverityError,
		Boundary: model.BoundarySource, File: dir,
		Message: fmt.Sprintf("Could not list %s (%v), so packages in it were not reviewed.", dir, errText(err))})
}

// errText is the cause of a path error without the path, which the message already names.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Package fsguard is the only way vouch reads package files. It resolves a package root,
// follows symlinks itself so that every hop is checked against the root, rejects special
// files without opening them for long (a FIFO never blocks a read), and enforces the
// limits of DESIGN.md §10 with bounded readers. Package files are hostile input.
package fsguard

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"vouch/internal/boundedread"
)

// Limits bound what a package may make vouch read.
type Limits struct {
	MaxFileBytes    int64 // one file
	MaxTotalBytes   int64 // every file read through one Root
	MaxEntries      int   // directory entries listed through one Root
	MaxDepth        int   // directory levels below the root
	MaxSymlinkHops  int   // symlinks followed while resolving one path
	MaxManifestSize int64 // manifests (plugin.json, PLUGIN.toml, manifest.json, mcp.json)
}

// DefaultLimits are the Portable Agent Packages reference limits, applied to every format.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:    64 << 20,
		MaxTotalBytes:   256 << 20,
		MaxEntries:      4096,
		MaxDepth:        32,
		MaxSymlinkHops:  40,
		MaxManifestSize: 1 << 20,
	}
}

// OrDefault is the limits a load reads with: l as set, or DefaultLimits when the caller
// set none (the zero Limits would refuse every file).
func (l Limits) OrDefault() Limits {
	if l == (Limits{}) {
		return DefaultLimits()
	}
	return l
}

// Code classifies a refusal so loaders can turn it into a diagnostic code.
type Code string

const (
	CodeNotFound      Code = "not-found"
	CodeEscape        Code = "path-escape"
	CodeDangling      Code = "symlink-dangling"
	CodeLoop          Code = "symlink-loop"
	CodeNotRegular    Code = "not-regular-file"
	CodeNotDir        Code = "not-directory"
	CodeTooLarge      Code = "file-too-large"
	CodeTotalExceeded Code = "package-too-large"
	CodeTooMany       Code = "too-many-entries"
	CodeTooDeep       Code = "too-deep"
	CodeBadPath       Code = "bad-path"
	CodeIO            Code = "io-error"
)

// Error is a refusal to read a path, with the reason as a Code.
type Error struct {
	Code Code
	Path string // slash path relative to the root
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// CodeOf returns the Code of an fsguard error, or "" for other errors.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsNotFound reports whether err says the path does not exist (without a dangling link).
func IsNotFound(err error) bool { return CodeOf(err) == CodeNotFound }

// Type is what a path is after symlinks are followed.
type Type int

const (
	TypeMissing Type = iota
	TypeFile
	TypeDir
	TypeOther // FIFO, socket, device
)

func (t Type) String() string {
	return [...]string{"missing", "regular file", "directory", "special file"}[t]
}

// Entry describes a path inside the root.
type Entry struct {
	Name    string // base name
	Rel     string // slash path relative to the root
	Type    Type   // after following symlinks
	Symlink bool   // the path itself (last element) is a symlink
	Size    int64  // a file's or a link's size; 0 for a directory
	Exec    bool   // any execute bit set on the resolved file
}

// Root is a package root. It is safe for concurrent use.
type Root struct {
	abs    string
	limits Limits
	root   dirHandle

	// listMu serializes directory listings: a handle's read position is shared, so each
	// directory is read once, from its start, and the names are cached. rootListed says
	// the root handle's position was used.
	listMu     sync.Mutex
	rootListed bool

	mu      sync.Mutex
	total   int64
	entries int
	// listed holds the sorted names of each real directory already listed: it was counted
	// against MaxEntries once, and a loader that lists it again (skills/, then each skill
	// walks its own directory) is served the same names without another getdents.
	listed map[string][]string
	// order holds the directories of listed in the order they were counted (ReadsSince).
	order []string
	// stats caches lstat results by real (symlink-free) path, and dirs holds a handle on
	// each real directory looked into, so that a path is resolved with one syscall per new
	// element instead of an open and close of every parent on every call. A Root is one
	// package load: the package is read as it was when first looked at.
	stats map[string]lstatResult
	dirs  map[string]cachedDir
	// maxDirs is this root's handle budget, maxDirHandles (a test lowers it to reach it).
	maxDirs int
	// retired holds handles whose read position a failed listing left somewhere in the
	// middle: they are closed with the Root (others may still be looking up through them)
	// and never listed again.
	retired []dirHandle
}

// meta is what vouch needs of an lstat or fstat: the type and permission bits, the size.
type meta struct {
	mode fs.FileMode
	size int64
}

func (m meta) IsDir() bool { return m.mode.IsDir() }

type lstatResult struct {
	m   meta
	err error
	// typeOnly: m holds the type bits a directory listing gave (d_type), not the
	// permissions or the size; lstat asks the system before answering with it, lstatType
	// answers with it.
	typeOnly bool
}

// unknownType marks a listed name whose type the listing did not give.
const unknownType = ^fs.FileMode(0)

type cachedDir struct {
	h  dirHandle
	ok bool // false: the directory could not be opened; callers take the slow path
}

// maxDirHandles bounds the directory handles one Root keeps open; past it, lookups go
// through the root handle (correct, only slower). A plugin of a few hundred skills has
// about two directories a skill, each looked into by every reader of the plugin: at 64
// handles most lookups reopened every parent from the root (two thirds of the opens of
// such a plugin's validation).
const maxDirHandles = 1024

// heldHandles counts the directory handles every open Root holds, which together may not
// pass handleBudget: the loaders of many packages run at once, and a search of a large
// source must not spend the process's file descriptors on caches.
var heldHandles atomic.Int64

// handleBudget is how many directory handles all Roots together may hold: a quarter of
// the descriptors the process may open, at most 4,096, so the files the loaders open
// and everything else the process does keep the rest.
var handleBudget = sync.OnceValue(func() int64 { return min(openFileLimit()/4, 4096) })

// reserveHandle takes one handle from the process-wide budget, or reports false when it is
// spent.
func reserveHandle() bool {
	if heldHandles.Add(1) > handleBudget() {
		heldHandles.Add(-1)
		return false
	}
	return true
}

// Open resolves dir (following symlinks in the path the user gave) and returns a Root.
func Open(dir string, limits Limits) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: dir, Msg: err.Error()}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{Code: CodeNotFound, Path: dir, Msg: "no such directory"}
		}
		return nil, &Error{Code: CodeIO, Path: dir, Msg: err.Error()}
	}
	h, err := openRootDir(real)
	if err != nil {
		switch {
		case errors.Is(err, syscall.ENOTDIR):
			return nil, &Error{Code: CodeNotDir, Path: dir, Msg: "not a directory"}
		case errors.Is(err, fs.ErrNotExist):
			return nil, &Error{Code: CodeNotFound, Path: dir, Msg: "no such directory"}
		}
		return nil, &Error{Code: CodeIO, Path: dir, Msg: err.Error()}
	}
	return &Root{abs: real, limits: limits, root: h, maxDirs: maxDirHandles}, nil
}

// Path returns the absolute, symlink-free path of the root.
func (r *Root) Path() string { return r.abs }

// Limits returns the limits this root enforces.
func (r *Root) Limits() Limits { return r.limits }

// Close releases the root directory handle and the directory handles opened below it.
func (r *Root) Close() error {
	r.mu.Lock()
	dirs := r.dirs
	r.dirs = nil
	held := len(r.retired)
	for _, h := range r.retired {
		h.close()
	}
	r.retired = nil
	r.mu.Unlock()
	for _, d := range dirs {
		if d.ok {
			d.h.close()
			held++
		}
	}
	heldHandles.Add(-int64(held))
	return r.root.close()
}

// dir returns a handle on the real directory dir ("" or "." is the root), opening and
// caching it, or false when it cannot be opened or the handle budget is spent; callers
// then use withDir's temporary handles, which report the error.
func (r *Root) dir(dir string) (dirHandle, bool) {
	if dir == "" || dir == "." {
		return r.root, true
	}
	r.mu.Lock()
	d, ok := r.dirs[dir]
	full := len(r.dirs) >= r.maxDirs
	r.mu.Unlock()
	if ok {
		return d.h, d.ok
	}
	if full {
		return d.h, false
	}
	// Only a directory gets a handle (and the open itself refuses anything else).
	if m, err := r.lstatType(dir); err != nil || !m.IsDir() {
		return d.h, false
	}
	parent, base := splitReal(dir)
	p, ok := r.dir(parent)
	if !ok || !reserveHandle() {
		return d.h, false
	}
	h, err := p.openDir(base)
	d = cachedDir{h: h, ok: err == nil}
	if !d.ok {
		heldHandles.Add(-1)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.dirs[dir]; ok {
		// Another goroutine opened it first.
		if d.ok {
			d.h.close()
			heldHandles.Add(-1)
		}
		return prev.h, prev.ok
	}
	if r.dirs == nil {
		r.dirs = map[string]cachedDir{}
	}
	r.dirs[dir] = d
	return d.h, d.ok
}

// splitReal splits a real, cleaned path into its parent ("." for the root) and base.
func splitReal(real string) (string, string) {
	i := strings.LastIndexByte(real, '/')
	if i < 0 {
		return ".", real
	}
	return real[:i], real[i+1:]
}

// inDir is withDir for a call that gives a value back: what fn returns, or the zero
// value and the error when no handle of dir could be had.
func inDir[T any](r *Root, dir string, fn func(dirHandle) (T, error)) (T, error) {
	var v T
	err := r.withDir(dir, func(h dirHandle) error {
		var e error
		v, e = fn(h)
		return e
	})
	return v, err
}

// withDir runs fn on a handle of the real directory dir: the cached one, or when the
// handle budget is spent, one opened for this call element by element from the root,
// each element with O_NOFOLLOW|O_DIRECTORY.
func (r *Root) withDir(dir string, fn func(dirHandle) error) error {
	if h, ok := r.dir(dir); ok {
		return fn(h)
	}
	h := r.root
	owned := false
	for rest := dir; rest != "" && rest != "."; {
		elem, tail, _ := strings.Cut(rest, "/")
		rest = tail
		next, err := h.openDir(elem)
		if owned {
			h.close()
		}
		if err != nil {
			return err
		}
		h, owned = next, true
	}
	if owned {
		defer h.close()
	}
	return fn(h)
}

// lstatType is lstat for a caller that needs only the type bits of the answer (is it a
// directory, a symlink, a regular file): a name a listing already typed costs nothing,
// and neither does a name missing from a listing that answers for its absence.
func (r *Root) lstatType(real string) (meta, error) {
	r.mu.Lock()
	c, ok := r.stats[real]
	absent := !ok && r.listedWithout(real)
	r.mu.Unlock()
	if ok {
		return c.m, c.err
	}
	if absent {
		return meta{}, &fs.PathError{Op: "lstat", Path: real, Err: syscall.ENOENT}
	}
	return r.lstat(real)
}

// listedWithout reports whether the listing of real's parent shows that real does not
// exist (r.mu held). Only where a listing is the file system's whole answer: on Linux
// (typed listings), for a name of ASCII letters, digits and punctuation in a listing
// with no name equal to it in another letter case (a case-folding directory would find
// it), and for a listing small enough to look through.
func (r *Root) listedWithout(real string) bool {
	if !exactListings {
		return false
	}
	parent, base := splitReal(real)
	names, ok := r.listed[parent]
	if !ok || len(names) > 256 {
		return false
	}
	for i := 0; i < len(base); i++ {
		if base[i] < 0x21 || base[i] > 0x7e {
			return false
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, base) {
			return false
		}
	}
	return true
}

// lstatEntry is lstat for Stat and Lstat: a directory a listing typed is answered
// from the listing (an Entry gives a directory no size and no exec bit), anything else
// as lstat answers it.
func (r *Root) lstatEntry(real string) (meta, error) {
	r.mu.Lock()
	c, ok := r.stats[real]
	r.mu.Unlock()
	if ok && c.typeOnly && c.m.IsDir() {
		return c.m, nil
	}
	return r.lstat(real)
}

// lstat is Lstat of a real, cleaned, symlink-free path, cached.
func (r *Root) lstat(real string) (meta, error) {
	r.mu.Lock()
	c, ok := r.stats[real]
	r.mu.Unlock()
	if ok && !c.typeOnly {
		return c.m, c.err
	}
	var m meta
	var err error
	if real == "." || real == "" {
		m, err = r.root.lstat(".")
	} else {
		parent, base := splitReal(real)
		m, err = inDir(r, parent, func(h dirHandle) (meta, error) { return h.lstat(base) })
	}
	r.mu.Lock()
	if r.stats == nil {
		r.stats = map[string]lstatResult{}
	}
	r.stats[real] = lstatResult{m: m, err: err}
	r.mu.Unlock()
	return m, err
}

// openFile opens a real, cleaned, symlink-free path for reading, without following a
// final symlink.
func (r *Root) openFile(real string) (fileHandle, error) {
	parent, base := splitReal(real)
	return inDir(r, parent, func(h dirHandle) (fileHandle, error) { return h.openFile(base) })
}

// BytesRead returns how many bytes were read through this root so far.
func (r *Root) BytesRead() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Mark is a point in what a Root has counted against its limits (ReadsSince).
type Mark struct {
	bytes int64
	dirs  int
}

// Mark returns the point this root's counting has reached.
func (r *Root) Mark() Mark {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Mark{bytes: r.total, dirs: len(r.order)}
}

// Reads is what one root counted between a Mark and a later call of ReadsSince: the
// bytes read and the directories listed, with their names.
type Reads struct {
	bytes int64
	dirs  []string
	names [][]string
}

// ReadsSince returns what this root counted from m on. Only a caller that made every
// read of the root in between itself (a loader reads its package on one goroutine)
// gets just its own reads.
func (r *Root) ReadsSince(m Mark) Reads {
	r.mu.Lock()
	defer r.mu.Unlock()
	rd := Reads{bytes: r.total - m.bytes}
	for _, d := range r.order[m.dirs:] {
		rd.dirs = append(rd.dirs, d)
		rd.names = append(rd.names, r.listed[d])
	}
	return rd
}

// Charge counts rd, read through another root of the same folder, against this root's
// limits as if the reads had been made through it: a result shared by the formats of a
// folder (one skill, which its Claude Code and Codex readings both load) costs each
// package what reading it would have. A directory this root has not listed yet is
// counted and its names remembered, so a later listing of it here counts nothing again,
// as with a listing of its own. Nothing is counted when a limit would be passed; the
// error is the one the read itself would have met.
func (r *Root) Charge(rel string, rd Reads) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total+rd.bytes > r.limits.MaxTotalBytes {
		return &Error{Code: CodeTotalExceeded, Path: rel, Msg: fmt.Sprintf("reading it would pass the %d-byte package limit", r.limits.MaxTotalBytes)}
	}
	entries := 0
	for i, d := range rd.dirs {
		if _, ok := r.listed[d]; !ok {
			entries += len(rd.names[i])
		}
	}
	if r.entries+entries > r.limits.MaxEntries {
		return &Error{Code: CodeTooMany, Path: rel, Msg: fmt.Sprintf("the package has more than %d entries", r.limits.MaxEntries)}
	}
	r.total += rd.bytes
	r.entries += entries
	for i, d := range rd.dirs {
		if _, ok := r.listed[d]; !ok {
			r.remember(d, rd.names[i])
		}
	}
	return nil
}

// remember records the sorted names of the real directory dir as listed and counted
// (r.mu held).
func (r *Root) remember(dir string, names []string) {
	if r.listed == nil {
		r.listed = map[string][]string{}
	}
	r.listed[dir] = names
	r.order = append(r.order, dir)
}

// check refuses paths that can never name something inside the package.
func check(rel string) error {
	if strings.ContainsRune(rel, 0) {
		return &Error{Code: CodeBadPath, Path: rel, Msg: "path contains a NUL byte"}
	}
	if strings.Contains(rel, "\\") {
		return &Error{Code: CodeBadPath, Path: rel, Msg: "path contains a backslash"}
	}
	if path.IsAbs(rel) {
		return &Error{Code: CodeEscape, Path: rel, Msg: "absolute path is outside the package"}
	}
	return nil
}

// clean validates a package-relative slash path and returns it cleaned lexically, for
// display. Lexical cleaning is not how the kernel reads "link/..", so resolution never
// uses the cleaned form: Resolve walks the raw path.
func clean(rel string) (string, error) {
	if rel == "" || rel == "." {
		return ".", nil
	}
	if err := check(rel); err != nil {
		return "", err
	}
	c := path.Clean(rel)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", &Error{Code: CodeEscape, Path: rel, Msg: "path leaves the package root"}
	}
	return c, nil
}

// Resolve follows every symlink in rel, hop by hop, and returns the slash path relative
// to the root that it finally names. Every hop must stay inside the root. A path whose
// final element does not exist returns CodeNotFound; a symlink to nothing, CodeDangling.
func (r *Root) Resolve(rel string) (string, error) {
	if rel == "" || rel == "." {
		return ".", nil
	}
	if err := check(rel); err != nil {
		return "", err
	}
	if real, ok := r.resolvePlain(rel); ok {
		return real, nil
	}
	return r.resolveWalk(rel)
}

// resolveWalk is Resolve for any checked path, symlinks and dot elements included.
func (r *Root) resolveWalk(rel string) (string, error) {
	// Walk the raw path: a ".." after a symlink steps out of the link's target, as the
	// kernel does, because done always holds the resolved path so far.
	pending := strings.Split(rel, "/")
	var done []string
	cur := "" // done joined with "/"
	hops := 0
	viaLink := false
	for len(pending) > 0 {
		part := pending[0]
		pending = pending[1:]
		switch part {
		case ".", "":
			continue
		case "..":
			if len(done) == 0 {
				return "", &Error{Code: CodeEscape, Path: rel, Msg: "symlink leads outside the package root"}
			}
			done = done[:len(done)-1]
			cur = strings.Join(done, "/")
			continue
		}
		next := part
		if cur != "" {
			next = cur + "/" + part
		}
		if len(done)+1 > r.limits.MaxDepth+1 {
			return "", &Error{Code: CodeTooDeep, Path: rel, Msg: fmt.Sprintf("more than %d directory levels", r.limits.MaxDepth)}
		}
		st, err := r.lstatType(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if viaLink {
					return "", &Error{Code: CodeDangling, Path: rel, Msg: "symlink points to a path that does not exist"}
				}
				return "", &Error{Code: CodeNotFound, Path: rel, Msg: "does not exist"}
			}
			if errors.Is(err, syscall.ENOTDIR) {
				return "", &Error{Code: CodeNotFound, Path: rel, Msg: "a parent is not a directory"}
			}
			return "", &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
		}
		if st.mode&fs.ModeSymlink == 0 {
			done = append(done, part)
			cur = next
			continue
		}
		hops++
		if hops > r.limits.MaxSymlinkHops {
			return "", &Error{Code: CodeLoop, Path: rel, Msg: fmt.Sprintf("more than %d symlink hops (a loop?)", r.limits.MaxSymlinkHops)}
		}
		target, err := inDir(r, cur, func(h dirHandle) (string, error) { return h.readlink(part) })
		if err != nil {
			return "", &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
		}
		viaLink = true
		if filepath.IsAbs(target) {
			// An absolute target is contained only if it points back inside the root.
			t := filepath.Clean(target)
			prefix := r.abs
			if !strings.HasSuffix(prefix, string(filepath.Separator)) {
				prefix += string(filepath.Separator) // a root of "/" must not become "//"
			}
			if t != r.abs && !strings.HasPrefix(t, prefix) {
				return "", &Error{Code: CodeEscape, Path: rel, Msg: "symlink leads outside the package root"}
			}
			inner, _ := filepath.Rel(r.abs, t)
			done, cur = nil, ""
			pending = append(strings.Split(filepath.ToSlash(inner), "/"), pending...)
			continue
		}
		pending = append(strings.Split(filepath.ToSlash(target), "/"), pending...)
	}
	if cur == "" {
		return ".", nil
	}
	return cur, nil
}

// resolvePlain is Resolve for the common path: every element a plain name (no "", "."
// or "..") that exists and is not a symlink. The real path is then rel itself, found
// with no allocation. Anything else reports false and Resolve walks the path in full,
// from the same cached lstat answers.
func (r *Root) resolvePlain(rel string) (string, bool) {
	elems := 0
	for end := 0; end < len(rel); end++ {
		i := strings.IndexByte(rel[end:], '/')
		if i < 0 {
			i = len(rel) - end
		}
		elem := rel[end : end+i]
		if elem == "" || elem == "." || elem == ".." {
			return "", false
		}
		elems++
		if elems > r.limits.MaxDepth+1 {
			return "", false
		}
		end += i
		st, err := r.lstatType(rel[:end])
		if err != nil || st.mode&fs.ModeSymlink != 0 {
			return "", false
		}
	}
	if rel == "" || rel[len(rel)-1] == '/' {
		return "", false
	}
	return rel, true
}

// Stat describes rel after following symlinks. A missing path returns an Entry of
// TypeMissing and a CodeNotFound error.
func (r *Root) Stat(rel string) (Entry, error) {
	c, err := clean(rel)
	if err != nil {
		return Entry{Rel: rel}, err
	}
	e := Entry{Name: path.Base(c), Rel: c}
	real, rerr := r.Resolve(rel)
	// A path that resolves to its own cleaned form has no symlink as its last element:
	// the cached lstat of that element said so when Resolve passed it. Otherwise ask.
	if c != "." && (rerr != nil || real != c) {
		if lst, err := r.Lstat(rel); err == nil {
			e.Symlink = lst.Symlink
		}
	}
	if rerr != nil {
		return e, rerr
	}
	st, err := r.lstatEntry(real)
	if err != nil {
		return e, &Error{Code: CodeIO, Path: c, Msg: err.Error()}
	}
	e.Type = typeOf(st.mode)
	if !st.IsDir() {
		e.Size = st.size
	}
	e.Exec = st.mode.IsRegular() && st.mode.Perm()&0o111 != 0
	return e, nil
}

// Lstat describes rel itself without following a final symlink (parents are resolved).
func (r *Root) Lstat(rel string) (Entry, error) {
	c, err := clean(rel)
	if err != nil {
		return Entry{Rel: rel}, err
	}
	dir, base := path.Split(strings.TrimRight(rel, "/"))
	if base == ".." || base == "." || base == "" {
		// The path ends in a step, not a name: nothing is left unresolved to be a link.
		real, err := r.Resolve(rel)
		if err != nil {
			return Entry{Rel: c, Name: path.Base(c)}, err
		}
		dir, base = path.Split(real)
		if real == "." {
			dir, base = "", "."
		}
	}
	realDir := "."
	if dir != "" {
		if realDir, err = r.Resolve(strings.TrimSuffix(dir, "/")); err != nil {
			return Entry{Rel: c, Name: base}, err
		}
	}
	st, err := r.lstatEntry(joinReal(realDir, base, rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{Rel: c, Name: base}, &Error{Code: CodeNotFound, Path: c, Msg: "does not exist"}
		}
		return Entry{Rel: c, Name: base}, &Error{Code: CodeIO, Path: c, Msg: err.Error()}
	}
	e := Entry{Name: base, Rel: c, Symlink: st.mode&fs.ModeSymlink != 0}
	if !st.IsDir() {
		e.Size = st.size
	}
	if !e.Symlink {
		e.Type = typeOf(st.mode)
		e.Exec = st.mode.IsRegular() && st.mode.Perm()&0o111 != 0
	}
	return e, nil
}

// joinReal is path.Join(dir, base), reusing rel's bytes when rel already spells it.
func joinReal(dir, base, rel string) string {
	rel = strings.TrimRight(rel, "/")
	if dir == "." {
		if rel == base {
			return rel
		}
	} else if len(rel) == len(dir)+1+len(base) && rel[len(dir)] == '/' && strings.HasPrefix(rel, dir) && strings.HasSuffix(rel, base) {
		return rel
	}
	return path.Join(dir, base)
}

func typeOf(m fs.FileMode) Type {
	switch {
	case m.IsRegular():
		return TypeFile
	case m.IsDir():
		return TypeDir
	default:
		return TypeOther
	}
}

// ReadFile reads a regular file, following contained symlinks, refusing anything larger
// than max bytes (or the per-file limit when max <= 0) without reading past the limit.
func (r *Root) ReadFile(rel string, max int64) ([]byte, error) {
	real, err := r.Resolve(rel)
	if err != nil {
		return nil, err
	}
	return r.readResolved(rel, real, max)
}

// ReadFileNoFollow reads a regular file that must not itself be a symlink (formats that
// forbid symlinks: Dalo tools, instructions). Parent directories are still resolved.
func (r *Root) ReadFileNoFollow(rel string, max int64) ([]byte, error) {
	e, err := r.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if e.Symlink {
		return nil, &Error{Code: CodeNotRegular, Path: e.Rel, Msg: "is a symlink"}
	}
	real, err := r.Resolve(rel)
	if err != nil {
		return nil, err
	}
	return r.readResolved(rel, real, max)
}

func (r *Root) readResolved(rel, real string, max int64) ([]byte, error) {
	if max <= 0 || max > r.limits.MaxFileBytes {
		max = r.limits.MaxFileBytes
	}
	// Refuse special files before opening them at all: opening a device can have side
	// effects, and a socket cannot be opened. The fstat below re-checks after the open.
	if lst, err := r.lstatType(real); err == nil && !lst.mode.IsRegular() {
		what := "a directory"
		if !lst.IsDir() {
			what = "a special file (FIFO, socket or device)"
		}
		return nil, &Error{Code: CodeNotRegular, Path: rel, Msg: "is " + what + ", not a regular file"}
	}
	// O_NONBLOCK so that a FIFO planted under a manifest's name cannot block the open;
	// O_NOFOLLOW because Resolve already followed every link and checked it.
	f, err := r.openFile(real)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	defer f.close()
	st, err := f.stat()
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if !st.mode.IsRegular() {
		what := "a directory"
		if !st.IsDir() {
			what = "a special file (FIFO, socket or device)"
		}
		return nil, &Error{Code: CodeNotRegular, Path: rel, Msg: "is " + what + ", not a regular file"}
	}
	// The descriptor was opened without following a link, so fstat describes the name
	// as lstat would: a later Stat of it (the exec bit of a file a closure hashes) is
	// answered without asking again.
	r.mu.Lock()
	if c, ok := r.stats[real]; !ok || c.typeOnly {
		if r.stats == nil {
			r.stats = map[string]lstatResult{}
		}
		r.stats[real] = lstatResult{m: st}
	}
	r.mu.Unlock()
	if st.size > max {
		return nil, &Error{Code: CodeTooLarge, Path: rel, Msg: fmt.Sprintf("is %d bytes, over the %d-byte limit", st.size, max)}
	}
	if err := r.reserve(rel, st.size); err != nil {
		return nil, err
	}
	// The size can change between Stat and Read; the read's limit is the real bound.
	data, err := boundedread.Read(f, st.size, max)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if int64(len(data)) > max {
		return nil, &Error{Code: CodeTooLarge, Path: rel, Msg: fmt.Sprintf("grew past the %d-byte limit while being read", max)}
	}
	if extra := int64(len(data)) - st.size; extra > 0 {
		if err := r.reserve(rel, extra); err != nil {
			return nil, err
		}
	}
	return data, nil
}

func (r *Root) reserve(rel string, n int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total+n > r.limits.MaxTotalBytes {
		return &Error{Code: CodeTotalExceeded, Path: rel, Msg: fmt.Sprintf("reading it would pass the %d-byte package limit", r.limits.MaxTotalBytes)}
	}
	r.total += n
	return nil
}

// ReadDir lists a directory (following contained symlinks to reach it), sorted by name.
// Each entry's Type follows symlinks; a link that cannot be resolved keeps TypeMissing
// and its error is returned in errs by name. Listing counts against MaxEntries.
func (r *Root) ReadDir(rel string) ([]Entry, map[string]error, error) {
	return r.readDir(rel, false)
}

// ReadDirTypes is ReadDir for a caller that needs each entry's name and type and
// whether it is a symlink, not its size or exec bit: an entry that is not a symlink is
// typed from the directory listing, with no lstat of its own, and has Size 0 and Exec
// false (Stat it, or read it with ReadFile, which leaves the answer cached for Stat).
// Symlinks and entries the listing did not type are described as ReadDir describes them.
func (r *Root) ReadDirTypes(rel string) ([]Entry, map[string]error, error) {
	return r.readDir(rel, true)
}

// readDir is ReadDir, and ReadDirTypes when typesOnly.
func (r *Root) readDir(rel string, typesOnly bool) ([]Entry, map[string]error, error) {
	names, err := r.ReadDirNames(rel)
	if err != nil {
		return nil, nil, err
	}
	base := rel
	if c, err := clean(rel); err == nil {
		base = c
	}
	real := ""
	if typesOnly {
		if real, err = r.Resolve(rel); err != nil {
			return nil, nil, err
		}
	}
	entries := make([]Entry, 0, len(names))
	var errs map[string]error
	for _, n := range names {
		child := n
		if base != "." {
			child = base + "/" + n
		}
		if typesOnly {
			if e, ok := r.typedEntry(real, n, child); ok {
				entries = append(entries, e)
				continue
			}
		}
		e, err := r.Stat(child)
		e.Name, e.Rel = n, child
		if err != nil {
			if errs == nil {
				errs = map[string]error{}
			}
			errs[n] = err
		}
		entries = append(entries, e)
	}
	return entries, errs, nil
}

// typedEntry describes the name n of the real directory real from the cache alone
// (what its listing or an earlier look said), when that is not a symlink.
func (r *Root) typedEntry(real, n, child string) (Entry, bool) {
	childReal := n
	if real != "." {
		childReal = real + "/" + n
	}
	r.mu.Lock()
	c, ok := r.stats[childReal]
	r.mu.Unlock()
	if !ok || c.err != nil || c.m.mode&fs.ModeSymlink != 0 {
		return Entry{}, false
	}
	e := Entry{Name: n, Rel: child, Type: typeOf(c.m.mode)}
	if !c.typeOnly {
		if !c.m.IsDir() {
			e.Size = c.m.size
		}
		e.Exec = c.m.mode.IsRegular() && c.m.mode.Perm()&0o111 != 0
	}
	return e, true
}

// ReadDirNames lists the names in a directory (following contained symlinks to reach
// it), sorted, without describing each entry: for callers that look at a few names only.
// The slice is shared; do not modify it. Listing counts against MaxEntries, once per
// directory.
func (r *Root) ReadDirNames(rel string) ([]string, error) {
	real, err := r.Resolve(rel)
	if err != nil {
		return nil, err
	}
	if depth(real) > r.limits.MaxDepth {
		return nil, &Error{Code: CodeTooDeep, Path: rel, Msg: fmt.Sprintf("more than %d directory levels", r.limits.MaxDepth)}
	}
	// A directory listed again (a loader lists skills/, then each skill walks its own
	// directory) is counted once and not read again: MaxEntries bounds the package, not
	// the number of looks.
	r.mu.Lock()
	names, counted := r.listed[real]
	r.mu.Unlock()
	if counted {
		return names, nil
	}
	return r.list(rel, real)
}

// list reads the names in the real directory real, counting them against MaxEntries,
// and remembers them sorted.
func (r *Root) list(rel, real string) ([]string, error) {
	r.listMu.Lock()
	defer r.listMu.Unlock()
	r.mu.Lock()
	names, done := r.listed[real]
	// Asking for one more name than the budget left reads a directory that fits in one
	// call (two getdents) and never holds more than the budget plus one name.
	left := r.limits.MaxEntries - r.entries
	r.mu.Unlock()
	if done {
		return names, nil
	}
	var err error
	var types []fs.FileMode
	if real == "." && !r.rootListed {
		r.rootListed = true
		names, types, err = r.root.names(max(left, 0) + 1)
	} else if real == "." {
		// Listed before and failed: through a new handle.
		h, e := r.root.openDir(".")
		if e == nil {
			names, types, err = h.names(max(left, 0) + 1)
			h.close()
		} else {
			err = e
		}
	} else {
		parent, base := splitReal(real)
		err = r.withDir(parent, func(p dirHandle) error {
			// The listing reads the cached handle (it is listed once, under listMu), or
			// one opened for this call.
			if h, ok := r.dir(real); ok {
				var e error
				if names, types, e = h.names(max(left, 0) + 1); e != nil {
					r.retire(real)
				}
				return e
			}
			h, e := p.openDir(base)
			if e != nil {
				return e
			}
			defer h.close()
			names, types, e = h.names(max(left, 0) + 1)
			return e
		})
	}
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, &Error{Code: CodeNotDir, Path: rel, Msg: "is not a directory"}
		}
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if cerr := r.countEntries(rel, len(names)); cerr != nil {
		r.retire(real)
		return nil, cerr
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// The listing's types answer the type questions (is it a directory, a link) about
	// each name: the resolution of a path below this directory and the check before a
	// file is opened need no lstat of their own. Symlinks and untyped names are left to
	// lstat; a name already answered keeps its answer.
	if r.stats == nil {
		r.stats = map[string]lstatResult{}
	}
	for i, n := range names {
		if i >= len(types) || types[i] == unknownType || types[i]&fs.ModeSymlink != 0 {
			continue
		}
		child := n
		if real != "." {
			child = real + "/" + n
		}
		if _, ok := r.stats[child]; !ok {
			r.stats[child] = lstatResult{m: meta{mode: types[i]}, typeOnly: true}
		}
	}
	slices.Sort(names)
	r.remember(real, names)
	return names, nil
}

// retire stops using the cached handle of dir for anything but closing.
func (r *Root) retire(dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d, ok := r.dirs[dir]; ok && d.ok {
		r.retired = append(r.retired, d.h)
		r.dirs[dir] = cachedDir{}
	}
}

func (r *Root) countEntries(rel string, n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries += n
	if r.entries > r.limits.MaxEntries {
		return &Error{Code: CodeTooMany, Path: rel, Msg: fmt.Sprintf("the package has more than %d entries", r.limits.MaxEntries)}
	}
	return nil
}

func depth(rel string) int {
	if rel == "." {
		return 0
	}
	return strings.Count(rel, "/") + 1
}

// WalkFunc is called for every entry below the walked directory, in lexical order.
// err is set for entries that could not be resolved; returning an error stops the walk.
type WalkFunc func(e Entry, err error) error

// Walk visits every entry below rel without following symlinked directories (a symlink is
// reported as an entry with Symlink set), bounded by MaxDepth and MaxEntries.
func (r *Root) Walk(rel string, fn WalkFunc) error {
	entries, errs, err := r.ReadDir(rel)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := fn(e, errs[e.Name]); err != nil {
			return err
		}
		if e.Type == TypeDir && !e.Symlink {
			if depth(e.Rel) >= r.limits.MaxDepth {
				if err := fn(e, &Error{Code: CodeTooDeep, Path: e.Rel, Msg: fmt.Sprintf("more than %d directory levels", r.limits.MaxDepth)}); err != nil {
					return err
				}
				continue
			}
			if err := r.Walk(e.Rel, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadsOf is reads of n bytes and no listing: what a test charges to spend a budget.
func ReadsOf(n int64) Reads { return Reads{bytes: n} }

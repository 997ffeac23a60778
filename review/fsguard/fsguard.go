// Package fsguard is the only way vouch reads package files. It resolves a package root,
// follows symlinks itself so that every hop is checked against the root, rejects special
// files without opening them for long (a FIFO never blocks a read), and enforces the
// limits of DESIGN.md §10 with bounded readers. Package files are hostile input.
package fsguard

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
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
	Size    int64
	Exec    bool // any execute bit set on the resolved file
}

// Root is a package root. It is safe for concurrent use.
type Root struct {
	abs    string
	limits Limits
	root   *os.Root

	mu      sync.Mutex
	total   int64
	entries int
	// listed holds the sorted names of each real directory already listed: it was counted
	// against MaxEntries once, and a loader that lists it again (skills/, then each skill
	// walks its own directory) is served the same names without another getdents.
	listed map[string][]string
	// stats caches lstat results by real (symlink-free) path, and dirs holds a handle on
	// each real directory looked into, so that a path is resolved with one syscall per new
	// element instead of an open and close of every parent on every call. A Root is one
	// package load: the package is read as it was when first looked at.
	stats map[string]lstatResult
	dirs  map[string]*os.Root
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

// maxDirHandles bounds the directory handles one Root keeps open; past it, lookups go
// through the root handle (correct, only slower).
const maxDirHandles = 64

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
	st, err := os.Stat(real)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: dir, Msg: err.Error()}
	}
	if !st.IsDir() {
		return nil, &Error{Code: CodeNotDir, Path: dir, Msg: "not a directory"}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: dir, Msg: err.Error()}
	}
	return &Root{abs: real, limits: limits, root: r}, nil
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
	r.mu.Unlock()
	for _, d := range dirs {
		if d != nil {
			d.Close()
		}
	}
	return r.root.Close()
}

// dir returns a handle on the real directory dir ("" or "." is the root), opening and
// caching it, or nil when it cannot be opened or the handle budget is spent; callers
// then go through the root handle with the full path, which reports the error.
func (r *Root) dir(dir string) *os.Root {
	if dir == "" || dir == "." {
		return r.root
	}
	r.mu.Lock()
	d, ok := r.dirs[dir]
	full := len(r.dirs) >= maxDirHandles
	r.mu.Unlock()
	if ok {
		return d
	}
	if full {
		return nil
	}
	// Only a directory gets a handle. The trailing "/." makes os.Root open dir as an
	// intermediate element, with O_DIRECTORY: if dir was swapped for a FIFO since the
	// lstat, the open fails instead of blocking.
	if fi, err := r.lstat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	parent, base := path.Split(dir)
	var err error
	if p := r.dir(strings.TrimSuffix(parent, "/")); p != nil {
		d, err = p.OpenRoot(base + "/.")
	} else {
		d, err = r.root.OpenRoot(dir + "/.")
	}
	if err != nil {
		d = nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.dirs[dir]; ok {
		// Another goroutine opened it first.
		if d != nil {
			d.Close()
		}
		return prev
	}
	if r.dirs == nil {
		r.dirs = map[string]*os.Root{}
	}
	r.dirs[dir] = d
	return d
}

// lstat is Lstat of a real, cleaned, symlink-free path, cached.
func (r *Root) lstat(real string) (fs.FileInfo, error) {
	r.mu.Lock()
	c, ok := r.stats[real]
	r.mu.Unlock()
	if ok {
		return c.fi, c.err
	}
	var fi fs.FileInfo
	var err error
	parent, base := path.Split(real)
	if d := r.dir(strings.TrimSuffix(parent, "/")); d != nil && base != "" {
		fi, err = d.Lstat(base)
	} else {
		fi, err = r.root.Lstat(real)
	}
	r.mu.Lock()
	if r.stats == nil {
		r.stats = map[string]lstatResult{}
	}
	r.stats[real] = lstatResult{fi, err}
	r.mu.Unlock()
	return fi, err
}

// openReal opens a real, cleaned, symlink-free path with flag (O_NOFOLLOW added by os.Root).
func (r *Root) openReal(real string, flag int) (*os.File, error) {
	if real == "." || real == "" {
		return r.root.OpenFile(".", flag, 0)
	}
	parent, base := path.Split(real)
	if d := r.dir(strings.TrimSuffix(parent, "/")); d != nil {
		return d.OpenFile(base, flag, 0)
	}
	return r.root.OpenFile(real, flag, 0)
}

// BytesRead returns how many bytes were read through this root so far.
func (r *Root) BytesRead() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
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
		st, err := r.lstat(next)
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
		if st.Mode()&fs.ModeSymlink == 0 {
			done = append(done, part)
			cur = next
			continue
		}
		hops++
		if hops > r.limits.MaxSymlinkHops {
			return "", &Error{Code: CodeLoop, Path: rel, Msg: fmt.Sprintf("more than %d symlink hops (a loop?)", r.limits.MaxSymlinkHops)}
		}
		target, err := r.root.Readlink(next)
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

// Stat describes rel after following symlinks. A missing path returns an Entry of
// TypeMissing and a CodeNotFound error.
func (r *Root) Stat(rel string) (Entry, error) {
	c, err := clean(rel)
	if err != nil {
		return Entry{Rel: rel}, err
	}
	e := Entry{Name: path.Base(c), Rel: c}
	if c != "." {
		if lst, err := r.Lstat(rel); err == nil {
			e.Symlink = lst.Symlink
		}
	}
	real, err := r.Resolve(rel)
	if err != nil {
		return e, err
	}
	st, err := r.lstat(real)
	if err != nil {
		return e, &Error{Code: CodeIO, Path: c, Msg: err.Error()}
	}
	e.Type = typeOf(st.Mode())
	e.Size = st.Size()
	e.Exec = st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
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
	st, err := r.lstat(path.Join(realDir, base))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{Rel: c, Name: base}, &Error{Code: CodeNotFound, Path: c, Msg: "does not exist"}
		}
		return Entry{Rel: c, Name: base}, &Error{Code: CodeIO, Path: c, Msg: err.Error()}
	}
	e := Entry{Name: base, Rel: c, Symlink: st.Mode()&fs.ModeSymlink != 0, Size: st.Size()}
	if !e.Symlink {
		e.Type = typeOf(st.Mode())
		e.Exec = st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
	}
	return e, nil
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
	if lst, err := r.lstat(real); err == nil && !lst.Mode().IsRegular() {
		what := "a directory"
		if !lst.IsDir() {
			what = "a special file (FIFO, socket or device)"
		}
		return nil, &Error{Code: CodeNotRegular, Path: rel, Msg: "is " + what + ", not a regular file"}
	}
	// O_NONBLOCK so that a FIFO planted under a manifest's name cannot block the open;
	// O_NOFOLLOW because Resolve already followed every link and checked it.
	f, err := r.openReal(real, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if !st.Mode().IsRegular() {
		what := "a directory"
		if !st.IsDir() {
			what = "a special file (FIFO, socket or device)"
		}
		return nil, &Error{Code: CodeNotRegular, Path: rel, Msg: "is " + what + ", not a regular file"}
	}
	if st.Size() > max {
		return nil, &Error{Code: CodeTooLarge, Path: rel, Msg: fmt.Sprintf("is %d bytes, over the %d-byte limit", st.Size(), max)}
	}
	if err := r.reserve(rel, st.Size()); err != nil {
		return nil, err
	}
	// The size can change between Stat and Read; readBounded's limit is the real bound.
	data, err := readBounded(f, st.Size(), max)
	if err != nil {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if int64(len(data)) > max {
		return nil, &Error{Code: CodeTooLarge, Path: rel, Msg: fmt.Sprintf("grew past the %d-byte limit while being read", max)}
	}
	if extra := int64(len(data)) - st.Size(); extra > 0 {
		if err := r.reserve(rel, extra); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// readBounded reads f to its end or to max+1 bytes, whichever comes first. The buffer
// starts at the size fstat reported plus one byte, so a file that does not change is read
// with one read and one read that sees its end, and copied nowhere.
func readBounded(f *os.File, size, max int64) ([]byte, error) {
	if size < 0 || size > max {
		size = max
	}
	buf := make([]byte, 0, size+1)
	for int64(len(buf)) <= max {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grew since fstat: let append pick the growth
		}
		chunk := buf[len(buf):cap(buf)]
		if room := max + 1 - int64(len(buf)); int64(len(chunk)) > room {
			chunk = chunk[:room]
		}
		n, err := f.Read(chunk)
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
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
	names, err := r.ReadDirNames(rel)
	if err != nil {
		return nil, nil, err
	}
	base := rel
	if c, err := clean(rel); err == nil {
		base = c
	}
	entries := make([]Entry, 0, len(names))
	var errs map[string]error
	for _, n := range names {
		child := n
		if base != "." {
			child = base + "/" + n
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
	f, err := r.openReal(real, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_DIRECTORY)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, &Error{Code: CodeNotDir, Path: rel, Msg: "is not a directory"}
		}
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	defer f.Close()
	// Readdirnames(n) stops at n names or at the end of the directory. Asking for one
	// more than the budget left reads a directory that fits in one call (two getdents)
	// and never holds more than the budget plus one name.
	r.mu.Lock()
	left := r.limits.MaxEntries - r.entries
	r.mu.Unlock()
	names, err := f.Readdirnames(max(left, 0) + 1)
	if err != nil && err != io.EOF {
		return nil, &Error{Code: CodeIO, Path: rel, Msg: err.Error()}
	}
	if cerr := r.countEntries(rel, len(names)); cerr != nil {
		return nil, cerr
	}
	sort.Strings(names)
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.listed[real]; ok {
		return prev, nil // listed concurrently: counted twice, harmless, keep one
	}
	if r.listed == nil {
		r.listed = map[string][]string{}
	}
	r.listed[real] = names
	return names, nil
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

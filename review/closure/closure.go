// Package closure is the one rule for what a runnable component's approval covers: every
// file its process can reach in the folder it runs from (README.md, "What an approval
// covers"). Collect
// walks that folder through fsguard and returns every regular file (hashed) and every
// symbolic link, bound as a link (its path and the target it holds), with the files a
// contained link leads to; a link that leaves the package, dangles or loops blocks the
// closure. Every loader with runnable components (Agent Plugins stdio servers, Splice
// tools, Claude Code hooks and LSP servers) and the skill loader call it, so one set of
// hostile layouts (closure_test.go) holds for all of them.
//
// The package also classifies what no approval can bind (NotCovered: programs on PATH,
// launchers that download code at start, paths outside the package, environment variables
// that load code), so every format names those the same way.
//
// Typical use:
//
//	res := closure.Collect(root, ".", closure.Options{Code: "plugin", Owner: "the server's approval", Runnable: true})
//	if !res.Complete { /* no contract: the component is blocked, res.Diagnostics say why */ }
//	contract.Files = res.Files
package closure

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"vouch/model"
	"vouch/review/fsguard"
)

// Options adapt Collect to its caller's component.
type Options struct {
	// Code is the stem of the diagnostic codes: "plugin" gives plugin-file-escape,
	// plugin-file-dangling, plugin-file-loop, plugin-file-absolute-link,
	// plugin-file-special, plugin-file-unreadable, plugin-file-link-skipped and
	// plugin-files-limit. Empty means "closure".
	Code string
	// Owner names what the files belong to in messages ("the server's approval").
	Owner string
	// Spec is the Spec of every diagnostic.
	Spec string
	// LimitMsg is the message (one %v: the refusal) of the error reported once when a
	// limit leaves the list incomplete. Empty gives a generic sentence.
	LimitMsg string
	// Known holds bytes the caller already read, by root-relative slash path: they are
	// hashed from there, never read again (the package's byte budget counts each file once).
	Known map[string][]byte
	// Skip leaves root-relative paths out, a whole subtree at a time: it is asked about
	// every entry walked (a skipped directory is not listed) and about the target of every
	// contained link (a skipped target is not walked; the link itself is still bound).
	// Callers use it for what they bind by other means. Nil skips nothing.
	Skip func(rel string) bool
	// Runnable makes a special file (FIFO, socket, device) an error that blocks the
	// closure: a process can read it, and its bytes cannot be bound. Otherwise it is a
	// warning and left out (a skill's files are read by an agent, not a process).
	Runnable bool
}

// Result is a closure.
type Result struct {
	// Files are sorted by path: regular files under their real (symlink-free) path, links
	// as link entries (model.File.Link set) under the path they sit at.
	Files []model.File
	// Diagnostics explain every link followed or refused, every file left out, a limit.
	Diagnostics []model.Diagnostic
	// Complete is false when anything reachable could not be bound (a link that leaves
	// the package, dangles or loops; an unreadable or special file; a limit): such a list
	// must never become an approvable contract. It is false exactly when a diagnostic is
	// an error.
	Complete bool
	// Interpreters holds the #! line (without "#!", at most 256 bytes) of every
	// executable file that starts with one, by path: the program the kernel runs for it
	// is outside the package (Process.Interpreter).
	Interpreters map[string]string
}

// Collect returns the closure of dir (a root-relative slash path, "." for the root).
func Collect(root *fsguard.Root, dir string, o Options) Result {
	c := &collector{root: root, o: o, seen: map[string]bool{}, walked: map[string]bool{}}
	if c.o.Code == "" {
		c.o.Code = "closure"
	}
	if c.o.Owner == "" {
		c.o.Owner = "this approval"
	}
	if c.o.LimitMsg == "" {
		c.o.LimitMsg = "The files could not all be read (%v), so " + c.o.Owner + " could not cover every file"
	}
	dir = strings.TrimPrefix(dir, "./")
	if dir == "" {
		dir = "."
	}
	c.linksOnTheWay(dir)
	real, err := root.Resolve(dir)
	if err != nil {
		c.refuse(dir, "", err)
	} else if err := c.walk(real); err != nil {
		c.limit(dir, err)
	}
	sort.Slice(c.files, func(i, j int) bool { return c.files[i].Path < c.files[j].Path })
	res := Result{Files: c.files[:len(c.files):len(c.files)], Diagnostics: c.diags, Complete: true, Interpreters: c.interp}
	for _, d := range c.diags {
		if d.IsError() {
			res.Complete = false
		}
	}
	return res
}

// AddOwned puts into r.Files the contract files of the components whose folders Skip
// left out (a skill that hashed its own complete file list), keyed by folder: the list
// stays sorted by path with each path once, and its capacity is clipped, because every
// component bound to the closure shares it read-only.
func (r *Result) AddOwned(owned map[string]*model.Component) {
	if len(owned) == 0 {
		return
	}
	// Sized for every file at once: the list is kept (every component bound to the
	// closure shares it), and appends would leave it up to twice as large as it is.
	n := len(r.Files)
	for _, c := range owned {
		n += len(c.Contract.Files)
	}
	files := append(make([]model.File, 0, n), r.Files...)
	for _, c := range owned {
		files = append(files, c.Contract.Files...)
	}
	// A skill's file list can name a file the walk found too (a link inside the skill
	// to a file elsewhere in the plugin), or one another skill names: the file is listed
	// once, as first found, so that the closure shows and hashes each path once.
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	files = slices.CompactFunc(files, func(a, b model.File) bool { return a.Path == b.Path })
	r.Files = files[:len(files):len(files)]
}

type collector struct {
	root    *fsguard.Root
	o       Options
	files   []model.File
	diags   []model.Diagnostic
	seen    map[string]bool // paths already in files
	walked  map[string]bool // real directories already walked
	interp  map[string]string
	limited bool
}

func (c *collector) add(sev model.Severity, b model.Boundary, code, file, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	c.diags = append(c.diags, model.Diagnostic{Code: c.o.Code + code, Severity: sev, Boundary: b, File: file, Message: msg, Spec: c.o.Spec})
}

func (c *collector) limit(rel string, err error) {
	if c.limited {
		return
	}
	c.limited = true
	c.add(model.SeverityError, model.BoundaryComponent, "-files-limit", rel, c.o.LimitMsg, err)
}

func (c *collector) skip(rel string) bool { return c.o.Skip != nil && c.o.Skip(rel) }

// stops reports whether err ends the walk: a limit that every later read would hit too.
func stops(err error) bool {
	switch fsguard.CodeOf(err) {
	case fsguard.CodeTooMany, fsguard.CodeTotalExceeded:
		return true
	}
	return false
}

// linksOnTheWay binds the links among dir's own path elements ("skills/x" where x is a
// link): the folder a process runs from is named through them.
func (c *collector) linksOnTheWay(dir string) {
	if dir == "." {
		return
	}
	parts := strings.Split(dir, "/")
	for i := 1; i <= len(parts); i++ {
		p := strings.Join(parts[:i], "/")
		if e, err := c.root.Lstat(p); err == nil && e.Symlink {
			c.link(p)
		}
	}
}

// walk lists the real directory dir and visits each entry; a returned error is a limit
// that stops everything.
func (c *collector) walk(dir string) error {
	if c.walked[dir] {
		return nil
	}
	c.walked[dir] = true
	entries, errs, err := c.root.ReadDirTypes(dir)
	if err != nil {
		if stops(err) || fsguard.CodeOf(err) == fsguard.CodeTooDeep {
			return err
		}
		c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", dir, "%s cannot be listed (%v), so %s cannot cover it", dir, err, c.o.Owner)
		return nil
	}
	maxDepth := c.root.Limits().MaxDepth
	for _, e := range entries {
		if c.skip(e.Rel) {
			continue
		}
		if err := c.visit(e, errs[e.Name], maxDepth); err != nil {
			return err
		}
	}
	return nil
}

func (c *collector) visit(e fsguard.Entry, lerr error, maxDepth int) error {
	if e.Symlink || isLinkErr(lerr) {
		return c.link(e.Rel)
	}
	if lerr != nil {
		if stops(lerr) || fsguard.CodeOf(lerr) == fsguard.CodeTooDeep {
			c.limit(e.Rel, lerr)
			return nil
		}
		c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", e.Rel, "%s cannot be read (%v), so %s cannot cover it", e.Rel, lerr, c.o.Owner)
		return nil
	}
	switch e.Type {
	case fsguard.TypeFile:
		return c.file(e.Rel, nil) // the listing typed it: the exec bit comes with the read
	case fsguard.TypeDir:
		if strings.Count(e.Rel, "/")+1 >= maxDepth {
			c.limit(e.Rel, &fsguard.Error{Code: fsguard.CodeTooDeep, Path: e.Rel, Msg: fmt.Sprintf("more than %d directory levels", maxDepth)})
			return nil
		}
		return c.walk(e.Rel)
	default:
		c.special(e.Rel)
	}
	return nil
}

func isLinkErr(err error) bool {
	switch fsguard.CodeOf(err) {
	case fsguard.CodeEscape, fsguard.CodeDangling, fsguard.CodeLoop:
		return true
	}
	return false
}

func (c *collector) special(rel string) {
	if c.o.Runnable {
		c.add(model.SeverityError, model.BoundaryComponent, "-file-special", rel, "%s is a special file (FIFO, socket or device); a process can read it, and its bytes cannot be bound, so no approval can be given until it is removed", rel)
		return
	}
	c.add(model.SeverityWarning, model.BoundaryEntry, "-file-special", rel, "%s is a special file (FIFO, socket or device); it is left out of %s", rel, c.o.Owner)
}

// file hashes one regular file at its real path.
func (c *collector) file(rel string, execBit *bool) error {
	if c.seen[rel] {
		return nil
	}
	data, known := c.o.Known[rel]
	var err error
	if !known || data == nil {
		data, err = c.root.ReadFile(rel, 0)
	}
	if err != nil {
		switch fsguard.CodeOf(err) {
		case fsguard.CodeTooLarge:
			c.limit(rel, err)
		case fsguard.CodeTotalExceeded:
			c.limit(rel, err)
			return err
		case fsguard.CodeNotRegular:
			c.special(rel)
		default:
			c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", rel, "%s cannot be read (%v), so %s cannot cover it", rel, err, c.o.Owner)
		}
		return nil
	}
	exec := execBit != nil && *execBit
	if execBit == nil {
		// Asked after the read, which left the file's fstat in the root's cache.
		st, err := c.root.Stat(rel)
		if err != nil {
			c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", rel, "%s cannot be read (%v), so %s cannot cover it", rel, err, c.o.Owner)
			return nil
		}
		exec = st.Exec
	}
	c.seen[rel] = true
	if line, ok := Shebang(data); ok && exec {
		if c.interp == nil {
			c.interp = map[string]string{}
		}
		c.interp[rel] = line
	}
	sum := sha256.Sum256(data)
	c.files = append(c.files, model.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Exec: exec})
	return nil
}

// link binds the symlink at rel as a link and, when it stays inside the package, what it
// leads to. One that leaves, dangles, loops or holds an absolute target blocks.
func (c *collector) link(rel string) error {
	if c.seen[rel] {
		return nil
	}
	target, err := c.root.Readlink(rel)
	if err != nil {
		c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", rel, "The symlink %s cannot be read (%v), so %s cannot cover it", rel, err, c.o.Owner)
		return nil
	}
	c.seen[rel] = true
	c.files = append(c.files, model.File{Path: rel, Link: target})
	if path.IsAbs(target) {
		// Even a target that points back inside names this copy's location: a client
		// that installs the package elsewhere (a plugin cache) runs whatever sits there.
		c.add(model.SeverityError, model.BoundaryComponent, "-file-absolute-link", rel,
			"%s is a symlink to the absolute path %s, which is outside the package wherever it is installed; a process would follow it to bytes %s cannot bind, so no approval can be given until it is removed or made relative", rel, target, c.o.Owner)
		return nil
	}
	real, err := c.root.Resolve(rel)
	if err != nil {
		return c.refuse(rel, target, err)
	}
	st, err := c.root.Stat(real)
	if err != nil {
		return c.refuse(rel, target, err)
	}
	if c.skip(real) {
		c.add(model.SeverityInfo, model.BoundaryEntry, "-file-link-skipped", rel, "%s is a symlink to %s, which %s binds by other means; the link itself is bound", rel, real, c.o.Owner)
		return nil
	}
	switch st.Type {
	case fsguard.TypeFile:
		return c.file(real, &st.Exec)
	case fsguard.TypeDir:
		if c.walked[real] || c.inWalked(real) {
			return nil
		}
		return c.walk(real)
	default:
		c.special(rel)
	}
	return nil
}

// inWalked reports whether real lies inside a directory already walked in full.
func (c *collector) inWalked(real string) bool {
	for d := path.Dir(real); ; d = path.Dir(d) {
		if c.walked[d] {
			return true
		}
		if d == "." || d == "/" {
			return false
		}
	}
}

// refuse reports a link (or the walked directory) that cannot be followed inside the root.
func (c *collector) refuse(rel, target string, err error) error {
	to := ""
	if target != "" {
		to = " to " + target
	}
	switch fsguard.CodeOf(err) {
	case fsguard.CodeEscape:
		c.add(model.SeverityError, model.BoundaryComponent, "-file-escape", rel, "%s is a symlink%s, which leads outside the package; a process would follow it to bytes %s cannot bind, so no approval can be given until it is removed", rel, to, c.o.Owner)
	case fsguard.CodeDangling, fsguard.CodeNotFound:
		c.add(model.SeverityError, model.BoundaryComponent, "-file-dangling", rel, "%s is a symlink%s, which does not exist; whatever is created there later would run unapproved, so no approval can be given until it is removed", rel, to)
	case fsguard.CodeLoop:
		c.add(model.SeverityError, model.BoundaryComponent, "-file-loop", rel, "%s is a symlink loop%s; %s cannot say what it leads to, so no approval can be given until it is removed", rel, to, c.o.Owner)
	default:
		if stops(err) || fsguard.CodeOf(err) == fsguard.CodeTooDeep {
			c.limit(rel, err)
			if stops(err) {
				return err
			}
			return nil
		}
		c.add(model.SeverityError, model.BoundaryComponent, "-file-unreadable", rel, "%s cannot be followed (%v), so %s cannot cover it", rel, err, c.o.Owner)
	}
	return nil
}

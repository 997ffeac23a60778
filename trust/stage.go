package trust

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"vouch/internal/atomicfile"

	"vouch/model"
)

// Staged says what Stage wrote.
type Staged struct {
	Dir   string       // the directory written
	Files []model.File // the entries written (files and links), by path
	// Skipped are entries reached through a staged link: the link's target is written at
	// its own path, so writing them again would go through the link.
	Skipped []string
}

// Stage writes exactly the approved closure of comp into dir, from the store: every file
// with the bytes that were approved (checked against their hashes) and its exec bit,
// every symlink recreated as a link with the approved target. A hook's closure is its
// tool's. It refuses unless comp is approved now (Check, which re-reads the bytes on
// disk), and refuses a dir that exists and is not empty: nothing is overwritten. The
// closure is written into a temporary directory beside dir and renamed onto it, so dir
// either holds the whole closure or is left as it was.
//
// Paths inside dir are the package-relative paths the contract records (a Dalo tool's
// files sit under plugins/<name>/, as in its source), so a harness runs dir/<entry>.
func (t *Trust) Stage(pkg *model.Package, comp *model.Component, dir string) (*Staged, error) {
	ref := pkg.Ref(comp)
	st, err := t.Check(pkg, ref)
	if err != nil {
		return nil, err
	}
	if st.Authorization != model.Approved {
		reason := st.Reason
		if reason == "" {
			reason = "no approval of its current digest is in force"
		}
		return nil, fmt.Errorf("nothing was staged: %s is %s, so there is no approved closure to stage: %s", ref, st.Authorization, lowerFirst(reason))
	}
	// The entries come from the stored contracts: what was approved, not what the loader
	// sees now (Check just said they are the same).
	digests := []string{st.Digest}
	for _, dep := range comp.DependsOn {
		if ds, ok := t.Evaluate(pkg)[dep]; ok && ds.Authorization == model.Approved {
			digests = append(digests, ds.Digest)
		}
	}
	return t.stageInto(digests, dir, false, "; stage into a new or empty directory, so that nothing but the approved files is there")
}

// StageDigests writes the union of the closures approved as digests (each a contract in
// the store) into dir, as Stage does, for a folder a client reads whole (a plugin
// staged for enforcement). The caller has decided that each digest is approved now
// (InForce); the bytes are checked against their hashes here. With replace, a dir that
// exists is swapped for the new one: the new folder is renamed into place after the old
// one is moved aside, so a crash leaves the old folder, no folder (the client then loads
// nothing of it), or the new one, never a mix.
func (t *Trust) StageDigests(digests []string, dir string, replace bool) (*Staged, error) {
	return t.stageInto(digests, dir, replace, "")
}

// stageInto writes the closures of digests into dir; a dir that holds anything is refused,
// with hint after the refusal, unless replace is set.
func (t *Trust) stageInto(digests []string, dir string, replace bool, hint string) (*Staged, error) {
	entries, err := t.approvedEntries(digests)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if names, err := readDirNames(abs); err == nil && len(names) > 0 && !replace {
		return nil, fmt.Errorf("%s is not empty (it holds %s)%s", abs, strings.Join(firstN(names, 3), ", "), hint)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("cannot use %s: %w", abs, err)
	}
	return t.writeStaged(entries, abs, replace)
}

// InForce reports whether an approval of exactly digest is in force for ref, whatever
// the package's files hold now: an enforced plugin keeps running the bytes it was
// staged with while its source is edited, until one of them is revoked.
func (t *Trust) InForce(pkg *model.Package, ref, digest string) (bool, error) {
	v, err := t.view(pkg)
	if err != nil {
		return false, err
	}
	j := v.judge(ref, digest)
	return j.inForce != nil && j.inForce.Action == ActionApprove, nil
}

// approvedEntries is the union of the stored contracts' files, checked to stay inside a
// staging directory, by path.
func (t *Trust) approvedEntries(digests []string) ([]model.File, error) {
	byPath := map[string]model.File{}
	for _, d := range digests {
		sc, err := t.loadContract(d)
		if err != nil {
			return nil, err
		}
		for _, f := range sc.Files {
			if old, dup := byPath[f.Path]; dup && old != f {
				return nil, fmt.Errorf("the approved contracts disagree about %s; review the component again", f.Path)
			}
			byPath[f.Path] = f
		}
	}
	entries := make([]model.File, 0, len(byPath))
	for _, f := range byPath {
		if err := stagePathOK(f); err != nil {
			return nil, err
		}
		entries = append(entries, f)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return entries, nil
}

// writeStaged writes entries into a temporary directory beside abs and renames it onto
// abs (replacing an existing abs only with replace).
func (t *Trust) writeStaged(entries []model.File, abs string, replace bool) (*Staged, error) {
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, ".vouch-stage-*")
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	out := &Staged{Dir: abs}
	links := map[string]bool{}
	for _, f := range entries {
		if throughLink(f.Path, links) {
			out.Skipped = append(out.Skipped, f.Path)
			continue
		}
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if f.IsLink() {
			if err := os.Symlink(f.Link, p); err != nil {
				return nil, fmt.Errorf("cannot create the symlink %s: %w", f.Path, err)
			}
			links[f.Path] = true
		} else {
			data, err := t.store.get(f.SHA256)
			if err != nil {
				return nil, fmt.Errorf("cannot stage %s: %w", f.Path, err)
			}
			if int64(len(data)) != f.Size {
				return nil, fmt.Errorf("%w: the stored bytes of %s have the wrong size", ErrTamperedStore, f.Path)
			}
			mode := os.FileMode(0o644)
			if f.Exec {
				mode = 0o755
			}
			if err := writeNew(p, data, mode); err != nil {
				return nil, fmt.Errorf("cannot stage %s: %w", f.Path, err)
			}
		}
		out.Files = append(out.Files, f)
	}
	if err := atomicfile.SyncDir(tmp); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	if replace {
		// Move the old folder aside first: rename(2) will not replace a non-empty one.
		if _, err := os.Lstat(abs); err == nil {
			old := tmp + ".old"
			if err := os.Rename(abs, old); err != nil {
				return nil, fmt.Errorf("cannot replace %s: %w", abs, err)
			}
			defer os.RemoveAll(old)
		}
	}
	// rename(2) replaces an empty directory, and fails on a non-empty one, so a directory
	// filled between the check above and here is never overwritten. (os.Rename refuses
	// any existing directory, so the system call is used.)
	if err := syscall.Rename(tmp, abs); err != nil {
		return nil, fmt.Errorf("cannot move the staged closure to %s: %w", abs, err)
	}
	ok = true
	_ = atomicfile.SyncDir(parent)
	return out, nil
}

// stagePathOK refuses an entry that would be written outside the staging directory, or a
// link that would lead out of it: the store is vouch's, but a tampered contract must not
// write anywhere else.
func stagePathOK(f model.File) error {
	p := f.Path
	if p == "" || strings.ContainsAny(p, "\\\x00") || path.IsAbs(p) || path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("the approved contract holds the path %q, which cannot be staged", p)
	}
	if f.IsLink() {
		if path.IsAbs(f.Link) || strings.ContainsRune(f.Link, 0) {
			return fmt.Errorf("the approved symlink %s points to %q, outside the staged directory", p, f.Link)
		}
		t := path.Clean(path.Join(path.Dir(p), f.Link))
		if t == ".." || strings.HasPrefix(t, "../") {
			return fmt.Errorf("the approved symlink %s points to %q, outside the staged directory", p, f.Link)
		}
	}
	return nil
}

// throughLink reports whether a parent of p is a link already staged.
func throughLink(p string, links map[string]bool) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if links[d] {
			return true
		}
	}
	return false
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	names, err := f.Readdirnames(4)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

func firstN(xs []string, n int) []string {
	if len(xs) > n {
		return append(xs[:n:n], "…")
	}
	return xs
}

// writeNew creates p (it must not exist) with data and mode, and syncs it.
func writeNew(p string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chmod(p, mode) // the umask must not drop an exec bit
}

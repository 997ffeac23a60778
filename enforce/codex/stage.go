package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"vouch/internal/atomicfile"
	"vouch/model"
	"vouch/trust"
)

// Layout is where vouch keeps its Codex marketplace, under the vouch home:
//
//	enforce/codex/marketplace/.agents/plugins/marketplace.json   the catalogue Codex reads
//	enforce/codex/marketplace/plugins/<name>/                     staged approved bytes
//	enforce/codex/lock                                           held around every change
//	enforce/codex/pending/<name>                                 an add or remove under way
//
// Only staging writes a plugin folder. The lock and the journal sit outside the
// marketplace root so that Codex never copies or lists them.
type Layout struct {
	Dir string // <vouch home>/enforce/codex
}

// NewLayout is the layout under a vouch home.
func NewLayout(vouchHome string) Layout {
	return Layout{Dir: filepath.Join(vouchHome, "enforce", "codex")}
}

// Root is the marketplace folder handed to `codex plugin marketplace add`.
func (l Layout) Root() string { return filepath.Join(l.Dir, "marketplace") }

// PluginDir is the staged folder of one plugin.
func (l Layout) PluginDir(name string) string { return filepath.Join(l.Root(), "plugins", name) }

// CatalogPath is the marketplace file.
func (l Layout) CatalogPath() string {
	return filepath.Join(l.Root(), ".agents", "plugins", "marketplace.json")
}

func (l Layout) lockPath() string            { return filepath.Join(l.Dir, "lock") }
func (l Layout) pendingPath(n string) string { return filepath.Join(l.Dir, "pending", n) }

// lockLayout takes the lock that serializes every change to vouch's Codex marketplace
// under home (Add and Remove, which Sync runs too); the caller runs unlock when done.
func lockLayout(home string) (l Layout, unlock func(), err error) {
	l = NewLayout(home)
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return l, nil, err
	}
	unlock, err = atomicfile.Lock(l.lockPath(), "")
	return l, unlock, err
}

// pluginName is what vouch accepts as a folder and marketplace name: Codex's own names
// are of this form, and anything else could step out of the marketplace folder.
var pluginName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func checkName(name string) error {
	if !pluginName.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("the plugin name %q cannot be a folder of vouch's marketplace (letters, digits, '.', '_' and '-' only)", name)
	}
	return nil
}

// Stage writes the plan's approved bytes into dir through trust's staging of a whole
// plugin (the union of the approved closures, from the store, hashes checked, exec bits
// kept; a new folder renamed into place, the old one moved aside first), and checks the
// result is exactly the plan's files. Codex runs its cache copy, not this folder, so the
// moment without a folder stops nothing that runs; status reports a folder that is missing.
func Stage(t *trust.Trust, p *Plan, dir string) error {
	if len(p.digests) == 0 {
		return fmt.Errorf("nothing of %s is approved, so there is nothing to stage", p.Name)
	}
	if _, err := t.StageDigests(p.digests, dir, true); err != nil {
		return err
	}
	if err := Verify(dir, p.Files); err != nil {
		return fmt.Errorf("the staged folder is not the approved plugin: %w", err)
	}
	return atomicfile.SyncDir(filepath.Dir(dir))
}

// Verify compares a staged folder with the approved files: the same paths, bytes (by
// hash) and exec bits, nothing more. It names the first difference.
func Verify(dir string, files []model.File) error {
	want := map[string]model.File{}
	for _, f := range files {
		want[f.Path] = f
	}
	seen := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		f, ok := want[rel]
		if !ok {
			return fmt.Errorf("%s holds %s, which no approval covers", dir, rel)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s in %s is not a regular file", rel, dir)
		}
		data, err := atomicfile.ReadRegular(p, f.Size+1)
		if err != nil {
			return fmt.Errorf("%s in %s: %w", rel, dir, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			return fmt.Errorf("%s in %s is not the approved file (its bytes changed)", rel, dir)
		}
		if st, err := d.Info(); err == nil && (st.Mode()&0o111 != 0) != f.Exec {
			return fmt.Errorf("%s in %s has another exec bit than the approved file", rel, dir)
		}
		seen++
		return nil
	})
	if err != nil {
		return err
	}
	if seen != len(want) {
		var missing []string
		for p := range want {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				missing = append(missing, p)
			}
		}
		sort.Strings(missing)
		return fmt.Errorf("%s lacks approved files: %s", dir, strings.Join(missing, ", "))
	}
	return nil
}

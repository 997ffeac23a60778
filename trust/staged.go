package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"vouch/model"
)

// maxStagedProblems bounds what CheckStaged lists: past that the folder is plainly not
// what was staged.
const maxStagedProblems = 20

// CheckStaged compares a staged folder with the closures approved as digests: every
// approved file present with its bytes and exec bit, every link with its target, and
// nothing else. It returns one sentence per difference (none when the folder is exactly
// what StageDigests writes); an error only when the store cannot say what was approved.
func (t *Trust) CheckStaged(digests []string, dir string) ([]string, error) {
	entries, err := t.approvedEntries(digests)
	if err != nil {
		return nil, err
	}
	want := make(map[string]int, len(entries))
	for i, f := range entries {
		want[f.Path] = i
	}
	var problems []string
	add := func(s string) bool {
		problems = append(problems, s)
		return len(problems) < maxStagedProblems
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return []string{fmt.Sprintf("the staged folder %s is missing", dir)}, nil
	}
	seen := map[string]bool{}
	walkErr := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			add(fmt.Sprintf("%s cannot be read (%v)", p, err))
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		i, ok := want[rel]
		if d.IsDir() {
			if ok {
				if !add(rel + " is a folder where an approved file belongs") {
					return filepath.SkipAll
				}
			}
			return nil
		}
		if !ok {
			if !add(rel + " is in the staged folder and no approval binds it") {
				return filepath.SkipAll
			}
			return nil
		}
		seen[rel] = true
		if msg := differs(p, d, entries[i].Link, entries[i].SHA256, entries[i].Exec); msg != "" {
			if !add(rel + " " + msg) {
				return filepath.SkipAll
			}
		}
		return nil
	})
	if walkErr != nil {
		problems = append(problems, walkErr.Error())
	}
	var missing []string
	for _, f := range entries {
		if !seen[f.Path] && !throughLinkOf(f.Path, entries) {
			missing = append(missing, f.Path)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		if !add(m + " is approved and missing from the staged folder") {
			break
		}
	}
	return problems, nil
}

// differs says how the entry at p differs from what was approved ("" when it does not).
func differs(p string, d fs.DirEntry, link, sum string, exec bool) string {
	info, err := d.Info()
	if err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	if link != "" {
		got, err := os.Readlink(p)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return "is not the approved symlink"
		}
		if got != link {
			return fmt.Sprintf("points to %q, approved %q", got, link)
		}
		return ""
	}
	if !info.Mode().IsRegular() {
		return "is not a regular file"
	}
	if (info.Mode()&0o111 != 0) != exec {
		return "has its exec bit changed"
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxStoreBytes+1)); err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	if hex.EncodeToString(h.Sum(nil)) != sum {
		return "differs from the approved bytes"
	}
	return ""
}

// throughLinkOf reports whether a parent of p is one of the approved links (Stage skips
// such entries: they are reached through the link).
func throughLinkOf(p string, entries []model.File) bool {
	links := map[string]bool{}
	for _, f := range entries {
		if f.IsLink() {
			links[f.Path] = true
		}
	}
	return throughLink(p, links)
}

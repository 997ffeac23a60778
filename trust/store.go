package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"vouch/internal/atomicfile"
)

// ErrTamperedStore is wrapped by errors about a store entry whose bytes no longer hash to
// its name: someone edited the approved copy, so it cannot be trusted as the baseline.
var ErrTamperedStore = errors.New("tampered store entry")

// ErrNotStored is wrapped when an approved blob is missing from the store.
var ErrNotStored = errors.New("not in the store")

// maxStoreBytes bounds one store entry; loaders bound package files far below this.
const maxStoreBytes = 256 << 20

// store is the content-addressed copy of approved bytes: <home>/store/sha256/<2>/<62>.
type store struct{ root string }

func (s store) path(sum string) string {
	return filepath.Join(s.root, "sha256", sum[:2], sum[2:])
}

// putAll stores many blobs, as one approval command does: each is written to a temporary
// file and flushed, several at a time so the filesystem can commit their flushes together,
// renamed into place, and then each store directory touched is flushed once, instead of
// once per blob. The store is only ever added to, so a crash leaves complete entries or
// none (stray temporary files are ignored by get and replaced by the next put).
func (s store) putAll(blobs [][]byte) error {
	type job struct {
		data []byte
		path string
	}
	var jobs []job
	seen := map[string]bool{}
	dirs := map[string]bool{}
	for _, b := range blobs {
		h := sha256.Sum256(b)
		sum := hex.EncodeToString(h[:])
		if seen[sum] {
			continue
		}
		seen[sum] = true
		p := s.path(sum)
		if old, err := atomicfile.ReadRegular(p, maxStoreBytes); err == nil && bytes.Equal(old, b) {
			continue
		}
		if !dirs[filepath.Dir(p)] {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("cannot create store directory: %w", err)
			}
			dirs[filepath.Dir(p)] = true
		}
		jobs = append(jobs, job{b, p})
	}
	const workers = 8
	errs := make(chan error, len(jobs))
	next := make(chan job)
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				errs <- atomicfile.WriteFlushed(j.path, j.data, 0o444)
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	for d := range dirs {
		if err := atomicfile.SyncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// get returns the bytes stored under sum after checking they still hash to it.
func (s store) get(sum string) ([]byte, error) {
	if !validHex(sum) {
		return nil, fmt.Errorf("%q is not a sha256 hex digest", sum)
	}
	p := s.path(sum)
	data, err := atomicfile.ReadRegular(p, maxStoreBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: sha256:%s (%s)", ErrNotStored, sum, p)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read store entry %s: %w", p, err)
	}
	h := sha256.Sum256(data)
	if got := hex.EncodeToString(h[:]); got != sum {
		return nil, fmt.Errorf("%w: %s now hashes to sha256:%s; the approved copy was modified, so re-review the component from scratch", ErrTamperedStore, p, got)
	}
	return data, nil
}

// StoredBytes returns the approved bytes kept in home's store under a hex SHA-256, after
// checking they still hash to it (ErrTamperedStore otherwise, ErrNotStored when absent).
// Instruction blocks use it to know what vouch last wrote into a target.
func StoredBytes(home, sum string) ([]byte, error) {
	return store{root: filepath.Join(home, "store")}.get(sum)
}

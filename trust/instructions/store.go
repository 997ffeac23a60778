package instructions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// StoredBody returns the instruction text trust stored when it approved the contract
// with the given digest ("sha256:<hex>"). It reads trust's documented store layout,
// <home>/store/sha256/<first 2 hex>/<remaining 62 hex>: the canonical contract there
// names the body file as its first file, stored under its own hash. Both are checked
// against their names, so a tampered copy is an error, never a baseline.
func StoredBody(home, digest string) (string, error) {
	h, ok := strings.CutPrefix(digest, "sha256:")
	if !ok {
		return "", fmt.Errorf("%q is not a sha256 digest", digest)
	}
	canon, err := storeGet(home, h)
	if err != nil {
		return "", err
	}
	var c struct {
		Files []struct {
			Path   string `json:"path"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	}
	if err := json.Unmarshal(canon, &c); err != nil {
		return "", fmt.Errorf("the stored contract %s does not decode: %v", digest, err)
	}
	if len(c.Files) == 0 {
		return "", fmt.Errorf("the stored contract %s names no instruction file", digest)
	}
	body, err := storeGet(home, c.Files[0].SHA256)
	if err != nil {
		return "", err
	}
	return string(body), nil
}

func storeGet(home, sum string) ([]byte, error) {
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("%q is not a sha256 hex digest", sum)
	}
	p := filepath.Join(home, "store", "sha256", sum[:2], sum[2:])
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxTargetSize+1))
	if err != nil {
		return nil, err
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != sum {
		return nil, fmt.Errorf("the store entry %s no longer matches its hash; it was modified", p)
	}
	return data, nil
}

// Revert undoes a committed preview: it puts Before back (or deletes a file the apply
// created) if the file still holds exactly what Commit wrote. Callers use it when the
// ledger decision that should accompany the write cannot be recorded.
func Revert(p *Preview) error {
	if p == nil || p.NoChange {
		return nil
	}
	data, exists, mode, err := readTarget(p.Target.Path)
	if err != nil {
		return err
	}
	if !exists || string(data) != string(p.After) {
		return fmt.Errorf("%w: %s no longer holds what vouch wrote; not reverting", ErrChanged, p.Target.Path)
	}
	if !p.Exists {
		path := p.Target.Path
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		return os.Remove(path)
	}
	if err := writeAtomic(p.Target.Path, p.Before, mode, false); err != nil {
		return errors.Join(errors.New("cannot revert "+p.Target.Path), err)
	}
	return nil
}

package instructions

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"vouch/trust"
)

// StoredBody returns the instruction text trust stored when it approved the contract
// with the given digest ("sha256:<hex>"), through trust's store reader,
// <home>/store/sha256/<first 2 hex>/<remaining 62 hex>: the canonical contract there
// names the body file as its first file, stored under its own hash. Both are checked
// against their names, so a tampered copy is an error, never a baseline.
func StoredBody(home, digest string) (string, error) {
	h, ok := strings.CutPrefix(digest, "sha256:")
	if !ok {
		return "", fmt.Errorf("%q is not a sha256 digest", digest)
	}
	canon, err := trust.StoredBytes(home, h)
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
	body, err := trust.StoredBytes(home, c.Files[0].SHA256)
	if err != nil {
		return "", err
	}
	return string(body), nil
}

// revertTo is Revert under a lock the caller holds.
func revertTo(d *destDir, p *Preview) error {
	data, exists, mode, err := d.read()
	if err != nil {
		return err
	}
	if !exists || string(data) != string(p.After) {
		return fmt.Errorf("%w: %s no longer holds what vouch wrote; not reverting", ErrChanged, p.Target.Path)
	}
	if !p.Exists {
		return d.remove()
	}
	if err := d.write(p.Before, mode); err != nil {
		return errors.Join(errors.New("cannot revert "+p.Target.Path), err)
	}
	return nil
}

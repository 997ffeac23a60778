package instructions

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"vouch/model"
)

// Body returns the exact bytes an instruction's contract binds (its first file), read back
// through the package's reader and checked against the recorded hash, so what is written
// into a target is what was reviewed.
func Body(pkg *model.Package, c *model.Component) (string, error) {
	if c.Contract == nil || len(c.Contract.Files) == 0 {
		return "", errors.New("this instruction has no contract file to write")
	}
	f := c.Contract.Files[0]
	if pkg.Reader == nil {
		return c.Body, nil
	}
	data, err := pkg.Reader.ReadFile(f.Path)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", f.Path, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != f.SHA256 {
		return "", fmt.Errorf("%s changed on disk since it was loaded; load it again and review the new text", f.Path)
	}
	return string(data), nil
}

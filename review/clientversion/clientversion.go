// Package clientversion finds which release of a client is installed, from its package
// metadata on disk, never by running it: the program on PATH is followed through its
// links to the folder it lives in, and the release is read from that folder's name (the
// native Claude Code installer keeps releases as versions/<release>) or from the npm
// package.json beside it.
package clientversion

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"vouch/model"
)

// Found is an installed release and where it was read from.
type Found struct {
	Version string
	From    string // the file or folder the version was read from
}

// programs are the command names and npm package names of the clients vouch can find.
var programs = map[string]struct{ command, npm string }{
	model.ClientClaudeCode: {"claude", "@anthropic-ai/claude-code"},
	model.ClientCodex:      {"codex", "@openai/codex"},
}

// maxPackageJSON bounds the read of a package.json: metadata, never large.
const maxPackageJSON = 1 << 20

// Installed finds the installed release of client id, looking the program up with
// lookPath (exec.LookPath when nil). It reports false when the client is not found or its
// release cannot be read.
func Installed(id string, lookPath func(string) (string, error)) (Found, bool) {
	prog, ok := programs[id]
	if !ok {
		return Found{}, false
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	bin, err := lookPath(prog.command)
	if err != nil {
		return Found{}, false
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return Found{}, false
	}
	// The native installer: ~/.local/share/claude/versions/<release> is the binary.
	if filepath.Base(filepath.Dir(real)) == "versions" && looksLikeVersion(filepath.Base(real)) {
		return Found{Version: filepath.Base(real), From: real}, true
	}
	// npm: the program is a script inside the package; its package.json is in that folder
	// or one above it (bin/).
	for dir, i := filepath.Dir(real), 0; i < 3; dir, i = filepath.Dir(dir), i+1 {
		pj := filepath.Join(dir, "package.json")
		if v, err := readPackageJSON(pj, prog.npm); err == nil {
			return Found{Version: v, From: pj}, true
		}
	}
	return Found{}, false
}

// readPackageJSON reads the version of the npm package name from file: a regular file,
// bounded, whose "name" is name (exact keys, as npm reads them).
func readPackageJSON(file, name string) (string, error) {
	st, err := os.Lstat(file)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", errors.New("not a regular file") // a FIFO is refused, never waited on
	}
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPackageJSON))
	if err != nil {
		return "", err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return "", err
	}
	var n, v string
	// Look the keys up exactly: encoding/json's struct matching ignores case.
	if json.Unmarshal(m["name"], &n) != nil || n != name || json.Unmarshal(m["version"], &v) != nil || !looksLikeVersion(v) {
		return "", errors.New("not the client's package.json")
	}
	return v, nil
}

func looksLikeVersion(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	parts := strings.Split(strings.SplitN(v, "-", 2)[0], ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

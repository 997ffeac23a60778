// Package codex makes Codex run only the plugin bytes a person approved in vouch: it
// stages a plugin's approved files into vouch's own local Codex marketplace, installs it
// with Codex's CLI, checks that the copy Codex installed is the staged one, and writes
// Codex's own hook trust (both hashes) and MCP server switches into the user config.toml.
//
// Facts it builds on were observed with Codex [Version]: `codex plugin add P@M` copies the
// plugin byte for byte into $CODEX_HOME/plugins/cache/M/P/<version>/ and that copy is
// what runs; a hook runs only when [hooks.state."KEY"] holds both its definition hash
// and the plugin fingerprint; any byte changed in the plugin (outside the names the
// fingerprint skips) makes every hook of it "modified", and Codex skips it.
package codex

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fingerprintMagic starts the byte stream Codex hashes into a plugin fingerprint.
const fingerprintMagic = "codex-plugin-bundle-v1"

// SkippedName reports whether Codex's fingerprint leaves out an entry of this name, at
// any depth, with everything below it. Codex [Version] skips Python caches and virtual
// environments so that running a plugin does not make it "modified"; the same rule
// means bytes there are never bound by Codex's trust.
func SkippedName(name string) bool {
	return name == "__pycache__" || name == ".venv" || strings.HasSuffix(name, ".pyc") || strings.HasSuffix(name, ".egg-info")
}

// UnhashableError says the plugin holds an entry Codex cannot fingerprint (a link, a
// FIFO, a device): Codex [Version] then skips every hook of the plugin.
type UnhashableError struct {
	Path string // slash path relative to the plugin root
	Mode os.FileMode
}

func (e *UnhashableError) Error() string {
	what := "a special file"
	switch {
	case e.Mode&os.ModeSymlink != 0:
		what = "a symbolic link"
	case e.Mode&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case e.Mode&os.ModeDevice != 0:
		what = "a device"
	case e.Mode&os.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Sprintf("%s is %s: %s cannot fingerprint a plugin holding one and skips every hook of it", e.Path, what, observed)
}

// Fingerprint is Codex's content hash of the plugin folder root, as Codex [Version] writes
// it into trusted_content_hash: "sha256:" + hex SHA-256 of the magic, then every entry
// of a depth-first walk (the root first, as the empty path; children in ascending byte
// order of their names), each as the path's length (u64 little-endian), the
// slash-separated path, then "directory", or "file" + the size (u64 little-endian) + the
// bytes. Names SkippedName accepts are left out; modes and times are not hashed. Files
// are streamed, never held whole. An entry that is neither a file nor a directory is an
// *UnhashableError. The walk does not follow links, the root included.
func Fingerprint(root string) (string, error) {
	st, err := os.Lstat(root)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", root)
	}
	h := sha256.New()
	io.WriteString(h, fingerprintMagic)
	if err := fingerprintDir(h, root, ""); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func fingerprintDir(h hash.Hash, abs, rel string) error {
	writeHeader(h, rel, "directory")
	f, err := os.Open(abs)
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	sort.Strings(names) // Go compares strings bytewise, as Codex sorts names
	for _, name := range names {
		if SkippedName(name) {
			continue
		}
		childAbs, childRel := filepath.Join(abs, name), name
		if rel != "" {
			childRel = rel + "/" + name
		}
		st, err := os.Lstat(childAbs)
		if err != nil {
			return err
		}
		switch {
		case st.IsDir():
			if err := fingerprintDir(h, childAbs, childRel); err != nil {
				return err
			}
		case st.Mode().IsRegular():
			if err := fingerprintFile(h, childAbs, childRel, st); err != nil {
				return err
			}
		default:
			return &UnhashableError{Path: childRel, Mode: st.Mode()}
		}
	}
	return nil
}

// fingerprintFile streams one file; a file whose size changes while it is read is an
// error rather than a hash of bytes no one will see again.
func fingerprintFile(h hash.Hash, abs, rel string, st os.FileInfo) error {
	f, err := os.OpenFile(abs, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		return err
	}
	if !fst.Mode().IsRegular() {
		return &UnhashableError{Path: rel, Mode: fst.Mode()}
	}
	size := fst.Size()
	writeHeader(h, rel, "file")
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(size))
	h.Write(n[:])
	got, err := io.Copy(h, io.LimitReader(f, size+1))
	if err != nil {
		return err
	}
	if got != size {
		return fmt.Errorf("%s changed size while it was read", rel)
	}
	return nil
}

func writeHeader(h hash.Hash, rel, kind string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(rel)))
	h.Write(n[:])
	io.WriteString(h, rel)
	io.WriteString(h, kind)
}

package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vouch/internal/testtree"
)

// The test vector recorded against Codex 0.171.0: a plugin of two files.
const (
	vectorManifest    = `{"name":"p1","version":"1.0.0","description":"probe"}` + "\n"
	vectorHooks       = `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo hi"}]}]}}` + "\n"
	vectorFingerprint = "sha256:31eca56f5bef2f76fd45a84545ef1868b70f4e0f49cb39ac979f0777e33fc0ad"
	vectorDefinition  = "sha256:3bbce6504b48cc6f0d7fe24bd36273633d1bfa5879bc87f4ed7ccd16f24d1415"
)

func vectorPlugin(t testing.TB) string {
	root := t.TempDir()
	testtree.WriteFiles(t, root, map[string]string{".codex-plugin/plugin.json": vectorManifest, "hooks/hooks.json": vectorHooks})
	return root
}

func TestFingerprintVector(t *testing.T) {
	if len(vectorManifest) != 54 || len(vectorHooks) != 95 {
		t.Fatalf("the vector's files are %d and %d bytes, want 54 and 95", len(vectorManifest), len(vectorHooks))
	}
	got, err := Fingerprint(vectorPlugin(t))
	if err != nil {
		t.Fatal(err)
	}
	if got != vectorFingerprint {
		t.Errorf("Fingerprint = %s, want Codex's %s", got, vectorFingerprint)
	}
}

// What Codex hashes and what it does not: each case changes the vector plugin once and
// says whether the fingerprint must change.
func TestFingerprintSensitivity(t *testing.T) {
	cases := []struct {
		name    string
		add     map[string]string
		changes bool
	}{
		{"an empty directory is hashed", map[string]string{"empty/": ""}, true},
		{"a hidden file is hashed", map[string]string{".hidden": "x"}, true},
		{"a .git folder is hashed", map[string]string{".git/HEAD": "ref"}, true},
		{"__pycache__ is skipped", map[string]string{"__pycache__/m.cpython-312.pyc": "x"}, false},
		{"a nested __pycache__ is skipped", map[string]string{"lib/__pycache__/x": "x", "lib/": ""}, true}, // lib/ itself is new
		{".venv is skipped", map[string]string{".venv/bin/python": "x"}, false},
		{"*.pyc is skipped", map[string]string{"hooks/a.pyc": "x"}, false},
		{"*.egg-info is skipped", map[string]string{"x.egg-info/PKG-INFO": "x"}, false},
		{"a .pyc-like name that does not end so is hashed", map[string]string{"a.pyc.txt": "x"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := vectorPlugin(t)
			testtree.WriteFiles(t, root, c.add)
			got, err := Fingerprint(root)
			if err != nil {
				t.Fatal(err)
			}
			if (got != vectorFingerprint) != c.changes {
				t.Errorf("fingerprint changed = %v, want %v", got != vectorFingerprint, c.changes)
			}
		})
	}
	t.Run("modes are not hashed", func(t *testing.T) {
		root := vectorPlugin(t)
		if err := os.Chmod(filepath.Join(root, "hooks/hooks.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		if got, _ := Fingerprint(root); got != vectorFingerprint {
			t.Errorf("an exec bit changed the fingerprint")
		}
	})
}

func TestFingerprintRefusesLinksAndFIFOs(t *testing.T) {
	root := vectorPlugin(t)
	if err := os.Symlink("hooks/hooks.json", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	var ue *UnhashableError
	if _, err := Fingerprint(root); !errors.As(err, &ue) || ue.Path != "link" || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link: err = %v, want an UnhashableError naming link", err)
	}
	root = vectorPlugin(t)
	testtree.Fifo(t, filepath.Join(root, "hooks", "pipe"))
	if _, err := Fingerprint(root); !errors.As(err, &ue) || ue.Path != "hooks/pipe" || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("a FIFO: err = %v, want an UnhashableError naming hooks/pipe", err)
	}
}

// memoryFingerprint is a second, independent construction of the fingerprint: it lists
// every path first (filepath.WalkDir), orders them by comparing path segments, and
// builds the whole byte stream in memory before hashing it once.
func memoryFingerprint(root string) (string, error) {
	type entry struct {
		segs []string
		dir  bool
		data []byte
	}
	var entries []entry
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		var segs []string
		if rel != "." {
			segs = strings.Split(filepath.ToSlash(rel), "/")
			if SkippedName(segs[len(segs)-1]) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		switch {
		case d.IsDir():
			entries = append(entries, entry{segs: segs, dir: true})
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entries = append(entries, entry{segs: segs, data: data})
		default:
			return errors.New("unhashable " + rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i].segs, entries[j].segs
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
	var buf bytes.Buffer
	buf.WriteString("codex-plugin-bundle-v1")
	u64 := func(n int) { buf.Write(binary.LittleEndian.AppendUint64(nil, uint64(n))) }
	for _, e := range entries {
		p := strings.Join(e.segs, "/")
		u64(len(p))
		buf.WriteString(p)
		if e.dir {
			buf.WriteString("directory")
			continue
		}
		buf.WriteString("file")
		u64(len(e.data))
		buf.Write(e.data)
	}
	sum := sha256.Sum256(buf.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func TestMemoryFingerprintVector(t *testing.T) {
	got, err := memoryFingerprint(vectorPlugin(t))
	if err != nil || got != vectorFingerprint {
		t.Fatalf("the second implementation gives %s, %v; want %s", got, err, vectorFingerprint)
	}
}

// fuzzNames are the names generated trees are built from: ones whose byte order differs
// from a sort of whole paths ("a.x" sorts before "a/b" as a path, after "a" as a name),
// the skipped names, hidden names, and non-ASCII ones.
var fuzzNames = []string{"a", "a.x", "a-b", "B", "b", "__pycache__", ".venv", "m.pyc", "x.egg-info", ".git", "é", "z"}

// buildTree turns fuzz bytes into a tree: each pair of bytes makes a directory or a file
// (its bytes drawn from the input) at a depth below the previous entry.
func buildTree(t testing.TB, root string, data []byte) {
	cur := []string{}
	for i := 0; i+1 < len(data); i += 2 {
		op, arg := data[i], data[i+1]
		depth := int(op>>4) % (len(cur) + 1)
		cur = cur[:depth]
		name := fuzzNames[int(arg)%len(fuzzNames)]
		p := filepath.Join(append([]string{root}, append(cur, name)...)...)
		if _, err := os.Lstat(p); err == nil {
			if st, _ := os.Stat(p); st.IsDir() {
				cur = append(cur, name)
			}
			continue
		}
		if op&1 == 0 {
			if os.Mkdir(p, 0o755) == nil {
				cur = append(cur, name)
			}
			continue
		}
		n := int(op>>1) & 7
		end := min(i+2+n, len(data))
		os.WriteFile(p, data[i+2:end], 0o644)
	}
}

func FuzzFingerprint(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 0x10, 5, 3, 2})
	f.Add([]byte{0, 0, 0x11, 1, 0, 3, 0x11, 6, 0x20, 9, 5, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			return
		}
		root := t.TempDir()
		buildTree(t, root, data)
		a, errA := Fingerprint(root)
		b, errB := memoryFingerprint(root)
		if errA != nil || errB != nil {
			t.Fatalf("errors: streaming %v, in memory %v", errA, errB)
		}
		if a != b {
			t.Fatalf("streaming %s, in memory %s", a, b)
		}
	})
}

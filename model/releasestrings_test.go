package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// releaseLiteral is how a client release is spelled: dotted numbers.
var releaseLiteral = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// registryReleases reads the release constants of clients.go: every string constant
// there spelled as a release, so a release added to the registry is covered here
// without a list of its own.
func registryReleases(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "clients.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if v, err := strconv.Unquote(lit.Value); err == nil && releaseLiteral.MatchString(v) {
			out = append(out, v)
		}
		return true
	})
	return out
}

// TestNoReleaseLiterals: no Go file of the module but clients.go writes a client release
// of its own. Every release a rule is observed on or keyed by is a constant of the
// registry, so a new release is added there and every sentence that names the releases
// follows. Tests and test data are free to name releases: they hold the sentences.
func TestNoReleaseLiterals(t *testing.T) {
	all := registryReleases(t)
	for _, c := range Clients() {
		all = append(all, c.Versions...)
	}
	var releases []string
	seen := map[string]bool{}
	for _, r := range all {
		if !seen[r] {
			seen[r] = true
			releases = append(releases, r)
		}
	}
	if len(releases) < 2 {
		t.Fatalf("read only %v from clients.go", releases)
	}
	var pats []*regexp.Regexp
	for _, r := range releases {
		// Whole releases only: 2.1.332 names a release, 12.1.3320 does not.
		pats = append(pats, regexp.MustCompile(`(^|[^.\d])`+regexp.QuoteMeta(r)+`($|[^.\d])`))
	}
	root := ".."
	self, _ := filepath.Abs("clients.go")
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if abs, _ := filepath.Abs(p); abs == self {
			return nil
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for j, re := range pats {
			if !strings.Contains(string(data), releases[j]) {
				continue // most files name none: skip the line scan
			}
			for i, line := range strings.Split(string(data), "\n") {
				if re.MatchString(line) {
					t.Errorf("%s:%d names the release %s itself; use the registry's constant (model.Releases or model.ClientAt for a sentence)", p, i+1, releases[j])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The walk must reach the module: the loaders, the enforcers and the command.
	if files < 50 {
		t.Fatalf("walked only %d Go files from %s", files, root)
	}
}

package mcpb

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"vouch/internal/testtree"

	"vouch/review/internal/loadertest"
)

// TestArgsOverBoundBlocked: a manifest whose server args number more than vouch reads
// leaves the server unapprovable: the host passes every argument.
func TestArgsOverBoundBlocked(t *testing.T) {
	args := make([]string, 1025)
	for i := range args {
		args[i] = fmt.Sprintf(`"a%d"`, i)
	}
	d := t.TempDir()
	testtree.Copy(t, "testdata/cases/good-v0.3-icon", d)
	testtree.Replace(t, filepath.Join(d, "manifest.json"), `"${__dirname}/server/index.js"`, `"${__dirname}/server/index.js",`+strings.Join(args, ","))
	p := Load(d, Options{})
	for _, c := range p.Components {
		if c.Contract != nil {
			t.Fatalf("%s:%s is approvable with its args cut: %v", c.Kind, c.ID, loadertest.Codes(p))
		}
	}
}

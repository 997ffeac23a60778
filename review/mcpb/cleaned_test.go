package mcpb

import (
	"path/filepath"
	"strings"
	"testing"
	"vouch/internal/testtree"
)

// TestCommandCleaned: a command ${__dirname}/../x leaves the bundle once cleaned; it is
// outside, never the bundle's own program.
func TestCommandCleaned(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"${__dirname}/../server/index.js", "outside-path:${__dirname}/../server/index.js"},
		{"${__dirname}/server/../../x", "outside-path:${__dirname}/server/../../x"},
	} {
		d := t.TempDir()
		testtree.Copy(t, "testdata/cases/good-v0.3-icon", d)
		testtree.Replace(t, filepath.Join(d, "manifest.json"), `"command": "node"`, `"command": "`+tc.command+`"`)
		c := Load(d, Options{}).Components[0]
		var got []string
		for _, n := range c.NotCovered {
			got = append(got, n.Kind+":"+n.Subject)
		}
		if !strings.Contains(strings.Join(got, ","), tc.want) {
			t.Errorf("%s: not covered %q, want %s", tc.command, got, tc.want)
		}
	}
}

package mcpb

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/closure/closuretest"
	"vouch/review/internal/loadertest"
)

const layoutManifest = `{"manifest_version": "0.3", "name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "A"},
 "server": {"type": "node", "entry_point": "run.js", "mcp_config": {"command": "node", "args": ["${__dirname}/run.js"]}}}`

// TestClosureLayouts runs the hostile layouts every loader shares (closuretest) against a
// bundle folder's server: each layout is built at the bundle root, the folder the server
// runs from, and either blocks it with a diagnostic naming the link, or a mutation of
// what it runs changes its digest.
func TestClosureLayouts(t *testing.T) {
	closuretest.Run(t, "b", "bundle", func(t *testing.T, dir string) {
		loadertest.WriteFile(t, filepath.Join(dir, manifestFile), layoutManifest)
	}, func(t *testing.T, dir string) map[string]*model.Component {
		p := Load(dir, Options{})
		if len(p.Components) != 1 {
			t.Fatalf("components %d: %v", len(p.Components), loadertest.Codes(p))
		}
		return map[string]*model.Component{"server": p.Components[0]}
	})
}

// TestNotCovered: what the server depends on that no approval binds is in
// Component.NotCovered: the runtime from PATH, variables that load code, ${HOME} and
// user_config paths outside the bundle, a picked directory, a bundled program's #! line,
// and the .git the closure leaves out.
func TestNotCovered(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		manifestFile: `{"manifest_version": "0.3", "name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "A"},
 "server": {"type": "node", "entry_point": "run.js", "mcp_config": {"command": "node", "args": ["${__dirname}/run.js", "${user_config.root}", "${user_config.dirs}"],
   "env": {"NODE_OPTIONS": "--require ${__dirname}/hook.js", "DATA": "${HOME}/data"},
   "platform_overrides": {"win32": {"command": "${__dirname}/bin/srv"}}}},
 "user_config": {"root": {"type": "directory", "title": "Root", "description": "r"},
   "dirs": {"type": "directory", "title": "Dirs", "description": "d", "multiple": true, "default": ["/srv/a"]}}}`,
		"run.js": "x", "hook.js": "y", "bin/srv": "#!/usr/bin/env python3\n", ".git/HEAD": "ref\n",
	}
	testtree.WriteFiles(t, dir, files)
	c := Load(dir, Options{Home: "/home/u"}).Components[0]
	var got []string
	for _, n := range c.NotCovered {
		got = append(got, n.Kind+" "+n.Subject)
		if strings.Contains(n.Subject+n.Detail, "__dirname__") {
			t.Errorf("marker leaked: %+v", n)
		}
	}
	want := "path-program node,outside-path /srv/a,code-loading-env NODE_OPTIONS,outside-path /home/u/data,outside-path ${user_config.root},path-program python3,unbound-directory .git"
	if strings.Join(got, ",") != want {
		t.Errorf("not_covered:\n%s\nwant:\n%s", strings.Join(got, ","), want)
	}
	if !strings.Contains(strings.Join(c.Summary, " "), "see not covered") {
		t.Errorf("summary does not point at the list: %q", c.Summary)
	}
	if c.Contract == nil {
		t.Errorf("not_covered must not change validity: %v", c.Diagnostics)
	}
}

package agentplugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

// closurePlugin writes a plugin whose servers run files that no contract field names:
// node with server.js only in args, and a wrapper that loads lib/helper.js.
func closurePlugin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "closure", "description": "one"}`)
	loadertest.WriteFile(t, dir+"/mcp.json", mcpHead+`{
		"js": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/server.js"]},
		"wrap": {"type": "stdio", "command": "./bin/wrap"},
		"wrap2": {"type": "stdio", "command": "./bin/wrap", "args": ["--again"]},
		"remote": {"type": "streamable-http", "url": "https://mcp.example.com/mcp"}}}`)
	loadertest.WriteFile(t, dir+"/server.js", "console.log('v1')\n")
	loadertest.WriteFile(t, dir+"/bin/wrap", "#!/bin/sh\nexec node \"$(dirname \"$0\")/../lib/helper.js\"\n")
	if err := os.Chmod(dir+"/bin/wrap", 0o755); err != nil {
		t.Fatal(err)
	}
	loadertest.WriteFile(t, dir+"/lib/helper.js", "module.exports = 1\n")
	loadertest.WriteFile(t, dir+"/skills/notes/SKILL.md", "---\nname: notes\ndescription: Takes notes.\n---\nBody v1.\n")
	loadertest.WriteFile(t, dir+"/skills/notes/scripts/run.sh", "echo v1\n")
	return dir
}

func digests(t *testing.T, pkg *model.Package) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range pkg.Components {
		if c.Contract == nil {
			continue
		}
		d, err := c.Contract.Digest()
		if err != nil {
			t.Fatal(err)
		}
		out[string(c.Kind)+":"+c.ID] = d
	}
	return out
}

// TestServerClosureDigest: an approval of a stdio server covers every file it may run,
// named in a field or not, skills included (a server can load a skill's script), and the
// manifests (a server can read them).
func TestServerClosureDigest(t *testing.T) {
	const js, wrap, wrap2, remote, skill = "mcp-server:js", "mcp-server:wrap", "mcp-server:wrap2", "mcp-server:remote", "skill:notes"
	dir := closurePlugin(t)
	before := digests(t, Load(dir, Options{}))
	for _, k := range []string{js, wrap, wrap2, remote, skill} {
		if before[k] == "" {
			t.Fatalf("%s has no contract; digests %v", k, before)
		}
	}
	edits := []struct {
		name    string
		edit    func()
		changed []string // digests that must change; every other must not
	}{
		{"server.js only in args", func() { loadertest.WriteFile(t, dir+"/server.js", "console.log('evil')\n") }, []string{js, wrap, wrap2}},
		{"file only the wrapper loads", func() { loadertest.WriteFile(t, dir+"/lib/helper.js", "require('child_process')\n") }, []string{js, wrap, wrap2}},
		{"new file", func() { loadertest.WriteFile(t, dir+"/package.json", `{"scripts": {}}`) }, []string{js, wrap, wrap2}},
		{"skill body", func() {
			loadertest.WriteFile(t, dir+"/skills/notes/SKILL.md", "---\nname: notes\ndescription: Takes notes.\n---\nBody v2.\n")
		}, []string{skill, js, wrap, wrap2}},
		{"skill script", func() { loadertest.WriteFile(t, dir+"/skills/notes/scripts/run.sh", "echo v2\n") }, []string{skill, js, wrap, wrap2}},
		{"loose file under skills/", func() { loadertest.WriteFile(t, dir+"/skills/loose.js", "require('child_process')\n") }, []string{js, wrap, wrap2}},
		{"manifest description", func() {
			loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "closure", "description": "two"}`)
		}, []string{js, wrap, wrap2}},
		{"retarget a file link", func() {
			os.Symlink("server.js", dir+"/alias.js")
		}, []string{js, wrap, wrap2}},
		{"retarget a file link (2)", func() {
			os.Remove(dir + "/alias.js")
			os.Symlink("lib/helper.js", dir+"/alias.js")
		}, []string{js, wrap, wrap2}},
	}
	for _, e := range edits {
		e.edit()
		after := digests(t, Load(dir, Options{}))
		must := map[string]bool{}
		for _, k := range e.changed {
			must[k] = true
		}
		for k, d := range before {
			if changed := after[k] != d; changed != must[k] {
				t.Errorf("%s: digest of %s changed=%v, want %v", e.name, k, changed, must[k])
			}
		}
		before = after
	}
}

// TestServerClosureContents checks what the closure holds and how links are treated: a
// link inside is bound as a link (its target's bytes are bound at the target's path), a
// link to a skill adds nothing twice, and a link leading out of the plugin or to nothing
// blocks the servers (a process follows it).
func TestServerClosureContents(t *testing.T) {
	dir := closurePlugin(t)
	if err := os.Symlink("../server.js", dir+"/lib/alias.js"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../skills/notes", dir+"/lib/notes"); err != nil {
		t.Fatal(err)
	}
	pkg := Load(dir, Options{})
	c := pkg.Component(model.KindMCPServer, "js")
	if c == nil || c.Contract == nil {
		t.Fatalf("js has no contract: %+v", c)
	}
	var paths []string
	sums := map[string]string{}
	for _, f := range c.Contract.Files {
		paths = append(paths, f.Path)
		sums[f.Path] = f.SHA256
	}
	if got, want := strings.Join(paths, " "), "bin/wrap lib/alias.js lib/helper.js lib/notes mcp.json plugin.json server.js skills/notes/SKILL.md skills/notes/scripts/run.sh"; got != want {
		t.Errorf("closure = %s, want %s", got, want)
	}
	links := map[string]string{}
	for _, f := range c.Contract.Files {
		links[f.Path] = f.Link
	}
	if links["lib/alias.js"] != "../server.js" || links["lib/notes"] != "../skills/notes" || sums["lib/alias.js"] != "" {
		t.Errorf("a symlink inside is bound as a link: %+v", c.Contract.Files)
	}
	if !loadertest.HasCode(c.Diagnostics, "plugin-file-link-skipped") {
		t.Errorf("missing plugin-file-link-skipped; got %v", c.Diagnostics)
	}
	if !strings.Contains(strings.Join(c.Summary, " "), "plugin.json and mcp.json included, is part of what you approve") {
		t.Errorf("summary does not say what the approval covers: %q", c.Summary)
	}
	if r := pkg.Component(model.KindMCPServer, "remote"); r.Contract == nil || len(r.Contract.Files) != 0 || len(r.Files) != 0 {
		t.Errorf("remote server contract %+v", r.Contract)
	}

	for name, target := range map[string]string{"outside": "/etc/hostname", "up": "../../x", "dangling.js": "missing.js"} {
		link := dir + "/lib/" + name
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		pkg := Load(dir, Options{})
		for _, id := range []string{"js", "wrap", "wrap2"} {
			c := pkg.Component(model.KindMCPServer, id)
			code := map[string]string{"outside": "plugin-file-absolute-link", "up": "plugin-file-escape", "dangling.js": "plugin-file-dangling"}[name]
			if c.Contract != nil || !loadertest.HasCode(c.Diagnostics, code) {
				t.Errorf("%s with lib/%s: contract %v, diagnostics %v", id, name, c.Contract != nil, c.Diagnostics)
			}
		}
		if r := pkg.Component(model.KindMCPServer, "remote"); r.Contract == nil {
			t.Errorf("lib/%s blocked the remote server, which runs no plugin file", name)
		}
		os.Remove(link)
	}
}

// TestServerClosureLimit: a closure a limit cut short is never approvable.
func TestServerClosureLimit(t *testing.T) {
	dir := closurePlugin(t)
	loadertest.WriteFile(t, dir+"/assets/big.bin", strings.Repeat("x", 4096))
	lim := fsguard.DefaultLimits()
	lim.MaxFileBytes = 2048
	pkg := Load(dir, Options{Limits: lim})
	for _, id := range []string{"js", "wrap", "wrap2"} {
		c := pkg.Component(model.KindMCPServer, id)
		if c.Contract != nil || !loadertest.HasCode(c.Diagnostics, "plugin-files-limit") || !strings.HasPrefix(strings.Join(c.Summary, " "), "Blocked:") {
			t.Errorf("%s: contract %+v, diagnostics %v, summary %q", id, c.Contract, c.Diagnostics, c.Summary)
		}
	}
	if r := pkg.Component(model.KindMCPServer, "remote"); r.Contract == nil {
		t.Errorf("a remote server runs no plugin file and keeps its contract")
	}
	if s := pkg.Component(model.KindSkill, "notes"); s.Contract == nil {
		t.Errorf("the skill is outside the closure and keeps its contract")
	}
}

// TestServerClosureReadsOnce: the budget is exactly the bytes of every file, so any file
// read twice (the shared command, SKILL.md, the manifests) would pass it.
func TestServerClosureReadsOnce(t *testing.T) {
	dir := closurePlugin(t)
	var total int64
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		return err
	})
	lim := fsguard.DefaultLimits()
	lim.MaxTotalBytes = total
	pkg := Load(dir, Options{Limits: lim})
	for _, c := range pkg.Components {
		if c.Kind != model.KindExtension && c.Contract == nil {
			t.Errorf("%s:%s has no contract within an exact budget: %v", c.Kind, c.ID, c.Diagnostics)
		}
	}
	lim.MaxTotalBytes = total - 1
	if c := Load(dir, Options{Limits: lim}).Component(model.KindMCPServer, "js"); c.Contract != nil {
		t.Errorf("one byte short, the closure cannot be complete")
	}
}

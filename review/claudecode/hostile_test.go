package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
)

const okHooks = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/run.sh"}]}]}}`

func hostilePlugin(t *testing.T) string {
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, manifestFile), `{"name": "hostile"}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), okHooks, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "run.sh"), "#!/bin/sh\n", 0o755)
	return dir
}

// A symlink that leaves the plugin, or dangles, blocks every hook and stdio server: their
// closure is the whole folder and a process would follow the link.
func TestSymlinkOutBlocksHooks(t *testing.T) {
	for name, target := range map[string]string{"escape": "/etc/passwd", "dangling": "nowhere"} {
		t.Run(name, func(t *testing.T) {
			dir := hostilePlugin(t)
			testtree.WriteFile(t, filepath.Join(dir, mcpFile), `{"s": {"command": "node", "args": ["x.js"]}}`, 0o644)
			if err := os.Symlink(target, filepath.Join(dir, "lib")); err != nil {
				t.Skip(err)
			}
			p := LoadPlugin(dir, Options{})
			for _, ref := range []string{"hook:PreToolUse:0:0", "mcp-server:s"} {
				c := mustListed(t, p, ref)
				if c.Contract != nil {
					t.Fatalf("%s must be unapprovable: %v", ref, codes(p))
				}
				found := false
				for _, d := range c.Diagnostics {
					found = found || strings.HasPrefix(d.Code, "plugin-file-") && d.IsError()
				}
				if !found {
					t.Errorf("%s lacks the link error: %v", ref, codes(p))
				}
			}
		})
	}
}

// A FIFO named like a config file never blocks the load, and is reported.
func TestFIFO(t *testing.T) {
	for _, rel := range []string{hooksFile, mcpFile, manifestFile, "commands/x.md"} {
		t.Run(rel, func(t *testing.T) {
			dir := hostilePlugin(t)
			os.Remove(filepath.Join(dir, rel))
			os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
			testtree.Fifo(t, filepath.Join(dir, rel))
			p := LoadPlugin(dir, Options{})
			checkInvariants(t, p)
			if len(codes(p)) == 0 {
				t.Errorf("a FIFO at %s gave no diagnostic", rel)
			}
		})
	}
}

// Huge files are refused at the limit without reading them whole.
func TestHugeFiles(t *testing.T) {
	dir := hostilePlugin(t)
	big := `{"hooks": {"PreToolUse": [` + strings.Repeat(`{"hooks": []},`, 80000) + `{"hooks": []}]}}`
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), big, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "data.bin"), strings.Repeat("x", 2<<20), 0o644)
	lim := fsguard.DefaultLimits()
	lim.MaxFileBytes = 1 << 20
	p := LoadPlugin(dir, Options{Limits: lim})
	checkInvariants(t, p)
	found := false
	for _, d := range p.Diagnostics {
		found = found || d.Code == "hooks-file-too-large"
	}
	if !found {
		t.Errorf("hooks file over the manifest limit not reported: %v", codes(p))
	}
	// A file over the per-file limit makes the closure incomplete: nothing is approvable.
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), okHooks, 0o644)
	p = LoadPlugin(dir, Options{Limits: lim})
	c := p.Component(model.KindHook, "PreToolUse:0:0")
	if c == nil || c.Contract != nil {
		t.Fatalf("hook must be blocked by the oversized file: %v", codes(p))
	}
}

// Too many handlers: the JSON parser's entry limit is a diagnostic, never a crash.
func TestManyEntries(t *testing.T) {
	dir := hostilePlugin(t)
	hs := strings.Repeat(`{"type": "command", "command": "x"},`, 2000)
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"Stop": [{"hooks": [`+hs+`{"type": "command", "command": "x"}]}]}}`, 0o644)
	p := LoadPlugin(dir, Options{})
	checkInvariants(t, p)
	if len(p.Diagnostics) == 0 {
		t.Errorf("2001 handlers in one group gave no diagnostic")
	}
}

// Control characters in names and commands stay package data: they are kept verbatim for
// the display layer to escape, and never make the loader fail.
func TestHostileText(t *testing.T) {
	dir := hostilePlugin(t)
	testtree.WriteFile(t, filepath.Join(dir, hooksFile), `{"hooks": {"PreToolUse": [{"matcher": "Bash\u001b[2J", "hooks": [{"type": "command", "command": "echo \u202e\u0007"}]}]}}`, 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "commands", "x.md"), "---\ndescription: \"a\\u0000b\"\n---\n<!-- hidden -->\nText \u200b.\n", 0o644)
	p := LoadPlugin(dir, Options{})
	checkInvariants(t, p)
	c := p.Component(model.KindHook, "PreToolUse:0:0")
	if c == nil || !strings.Contains(strings.Join(c.Summary, " "), "\u202e") {
		t.Fatalf("hostile command text not kept for escaping: %v", c)
	}
	cmd := p.Component(model.KindCommand, "x")
	if cmd == nil || len(cmd.Hidden) == 0 {
		t.Errorf("hidden content in a command not listed: %+v", cmd)
	}
}

// A link out of the plugin inside a skill folder is a warning for the skill but blocks
// the hooks, whose processes could follow it.
func TestSkillLinkBlocksHooks(t *testing.T) {
	dir := hostilePlugin(t)
	testtree.WriteFile(t, filepath.Join(dir, "skills", "s", "SKILL.md"), "---\nname: s\ndescription: S.\n---\nS.\n", 0o644)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "skills", "s", "leak")); err != nil {
		t.Skip(err)
	}
	p := LoadPlugin(dir, Options{})
	if s := p.Component(model.KindSkill, "s"); s == nil || s.Validity != model.Valid {
		t.Fatalf("skill: %v", codes(p))
	}
	if h := p.Component(model.KindHook, "PreToolUse:0:0"); h == nil || h.Contract != nil {
		t.Fatalf("the hook must be blocked by the link in the skill folder: %v", codes(p))
	}
}

// A link inside a skill to a file elsewhere in the plugin keeps the hooks approvable, and
// their closure lists that file once, though the walk and the skill's own list both find it.
func TestSkillLinkInsideListsFileOnce(t *testing.T) {
	dir := hostilePlugin(t)
	testtree.WriteFile(t, filepath.Join(dir, "skills", "s", "SKILL.md"), "---\nname: s\ndescription: S.\n---\nS.\n", 0o644)
	testtree.WriteFile(t, filepath.Join(dir, "lib", "a.js"), "module.exports = 1;\n", 0o644)
	if err := os.Symlink(filepath.Join("..", "..", "lib", "a.js"), filepath.Join(dir, "skills", "s", "helper.js")); err != nil {
		t.Skip(err)
	}
	p := LoadPlugin(dir, Options{})
	h := p.Component(model.KindHook, "PreToolUse:0:0")
	if h == nil || h.Contract == nil {
		t.Fatalf("hook not approvable: %v", codes(p))
	}
	seen := map[string]int{}
	for _, f := range h.Contract.Files {
		seen[f.Path]++
	}
	if seen["lib/a.js"] != 1 {
		t.Fatalf("lib/a.js listed %d times in %v", seen["lib/a.js"], h.Contract.Files)
	}
	for path, n := range seen {
		if n > 1 {
			t.Errorf("%s listed %d times", path, n)
		}
	}
}

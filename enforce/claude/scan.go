package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"vouch/enforce"
	"vouch/review/claudecode"
	"vouch/review/jsontext"
)

// maxSkillDirs bounds the folders of ~/.claude/skills looked at.
const maxSkillDirs = 4096

// Scanned is what Claude Code will load that vouch does not vouch for, read from
// Claude's own files (Claude Code [Version]):
//   - enabled plugins of other marketplaces;
//   - folders ~/.claude/skills/<name>/ holding .claude-plugin/plugin.json, which load as
//     <name>@skills-dir, enabled, with no install step and no settings entry;
//   - the project's .mcp.json servers (started in -p mode with no approval prompt);
//   - enabledPlugins entries in the project's .claude/settings.json or
//     settings.local.json, which turn a plugin the user turned off back on.
type Scanned struct {
	Installs         []claudecode.Installation
	SkillsDir        []string // folders
	ProjectServers   []string // "<file>: <server>"
	ProjectOverrides []string // "<file>: <plugin id>"
	enabledBy        map[string]string
	installedIDs     map[string]bool
}

// Scan reads Claude's files for a session started in cwd.
func Scan(p Paths, cwd string, st *enforce.State) (*Scanned, error) {
	sc := &Scanned{enabledBy: map[string]string{}, installedIDs: map[string]bool{}}
	if claudecode.IsInstallDir(p.Plugins) {
		sc.Installs, _ = claudecode.ReadInstallations(p.Plugins, settingsFiles(p, cwd))
	}
	ids, err := installedIDs(p)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		sc.installedIDs[id] = true
	}
	for _, f := range settingsFiles(p, cwd) {
		o, ok, err := readObject(f)
		if err != nil || !ok {
			continue
		}
		ep := o.get("enabledPlugins")
		if ep == nil || ep.val.Kind != jsontext.Object {
			continue
		}
		for _, m := range ep.val.Obj {
			present, on := enabledValue(o, m.Key)
			if !present {
				continue
			}
			if on {
				sc.enabledBy[m.Key] = f
			} else {
				delete(sc.enabledBy, m.Key)
				sc.enabledBy["!"+m.Key] = f
			}
			if _, m2, _ := strings.Cut(m.Key, "@"); f != p.Settings && f != managedSettings && on && m2 != Marketplace {
				sc.ProjectOverrides = append(sc.ProjectOverrides, f+": "+m.Key)
			}
		}
	}
	skills := filepath.Join(p.Config, "skills")
	if d, err := os.Open(skills); err == nil {
		names, _ := d.Readdirnames(maxSkillDirs)
		d.Close()
		sort.Strings(names)
		for _, n := range names {
			if st, err := os.Stat(filepath.Join(skills, n, ".claude-plugin", "plugin.json")); err == nil && st.Mode().IsRegular() {
				sc.SkillsDir = append(sc.SkillsDir, filepath.Join(skills, n))
			}
		}
	}
	if cwd != "" {
		f := filepath.Join(cwd, ".mcp.json")
		if o, ok, err := readObject(f); err == nil && ok {
			if servers, err := keysOf(o, f, "mcpServers"); err == nil {
				for _, s := range servers {
					sc.ProjectServers = append(sc.ProjectServers, f+": "+s)
				}
			}
		} else if err != nil {
			sc.ProjectServers = append(sc.ProjectServers, f+": (unreadable: "+err.Error()+")")
		}
	}
	return sc, nil
}

func (sc *Scanned) installed(id string) bool { return sc.installedIDs[id] }

func (sc *Scanned) enabled(id string) (bool, string) {
	if f, ok := sc.enabledBy[id]; ok {
		return true, f
	}
	return false, sc.enabledBy["!"+id]
}

// Outside lists the enabled plugins of other marketplaces.
func (sc *Scanned) Outside() []claudecode.Installation {
	var out []claudecode.Installation
	for _, in := range sc.Installs {
		if in.Marketplace != Marketplace && in.Enabled {
			out = append(out, in)
		}
	}
	return out
}

// Problems are the findings as status reports them, one per way around enforcement.
func (sc *Scanned) Problems() []enforce.Problem {
	var out []enforce.Problem
	for _, in := range sc.Outside() {
		out = append(out, enforce.Problem{Code: "other-marketplace", Subject: in.ID,
			Message: fmt.Sprintf("%s is enabled (%s) and loads from %s, outside vouch's marketplace", in.ID, orNone(in.EnabledBy), in.Folder)})
	}
	for _, d := range sc.SkillsDir {
		out = append(out, enforce.Problem{Code: "skills-dir-plugin", Subject: filepath.Base(d) + "@skills-dir",
			Message: fmt.Sprintf("%s loads as %s@skills-dir with no install step (Claude Code %s)", d, filepath.Base(d), Version)})
	}
	for _, s := range sc.ProjectServers {
		out = append(out, enforce.Problem{Code: "project-mcp-server", Subject: s,
			Message: fmt.Sprintf("the project's MCP server %s starts with no approval in vouch", s)})
	}
	for _, s := range sc.ProjectOverrides {
		out = append(out, enforce.Problem{Code: "project-override", Subject: s,
			Message: fmt.Sprintf("the project's settings turn a plugin on (%s), over the user's settings", s)})
	}
	return out
}

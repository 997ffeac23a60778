package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/enforce"
	"vouch/model"
	"vouch/review/claudecode"
	"vouch/review/jsontext"
)

// MaxHookInput bounds the hook JSON read from stdin: it carries a tool call's input,
// which can be large, but not without end.
const MaxHookInput = 16 << 20

// HookInput is what the guard reads of Claude's hook JSON, with exact keys.
type HookInput struct {
	Event     string // hook_event_name
	Cwd       string
	ToolName  string
	MCPServer string // mcp_server.name, "plugin:P:S" for a plugin's server
}

// ParseHookInput reads the hook JSON Claude Code writes on a hook's stdin.
func ParseHookInput(data []byte) (HookInput, error) {
	v, _, perr := jsontext.Parse(data, jsontext.Options{MaxDepth: 256})
	if perr != nil {
		return HookInput{}, fmt.Errorf("the hook input is not JSON (%s)", perr.Msg)
	}
	if v.Kind != jsontext.Object {
		return HookInput{}, fmt.Errorf("the hook input is %s, not an object", v.Kind)
	}
	str := func(o *jsontext.Value, k string) string {
		if m := o.Get(k); m != nil && m.Val.Kind == jsontext.String {
			return m.Val.Str
		}
		return ""
	}
	in := HookInput{Event: str(v, "hook_event_name"), Cwd: str(v, "cwd"), ToolName: str(v, "tool_name")}
	if m := v.Get("mcp_server"); m != nil && m.Val.Kind == jsontext.Object {
		in.MCPServer = str(m.Val, "name")
	}
	return in, nil
}

// SplitServer splits "plugin:P:S" into the plugin and server names.
func SplitServer(name string) (plugin, server string, ok bool) {
	rest, ok := strings.CutPrefix(name, "plugin:")
	if !ok {
		return "", "", false
	}
	plugin, server, ok = strings.Cut(rest, ":")
	return plugin, server, ok && plugin != "" && server != ""
}

// PreToolUse decides one MCP tool call: it is let through only when the server's
// component is approved now in every copy of its plugin that Claude could have started
// it from (the folder vouch staged, any enabled install of the same name, a skills-dir
// folder), with its digest recomputed from the bytes on disk. The reason says why a call
// is refused; every error of its own is a refusal.
func PreToolUse(env *enforce.Env, p Paths, in HookInput) (ok bool, reason string) {
	if in.MCPServer == "" {
		return false, fmt.Sprintf("vouch cannot tell which MCP server %q belongs to (the hook input has no mcp_server.name)", in.ToolName)
	}
	plugin, server, isPlugin := SplitServer(in.MCPServer)
	if !isPlugin {
		return false, fmt.Sprintf("the MCP server %q is not a plugin's, and vouch approves plugin servers only", in.MCPServer)
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	folders, err := copiesOf(env, p, cwd, plugin)
	if err != nil {
		return false, err.Error()
	}
	if len(folders) == 0 {
		return false, fmt.Sprintf("no enabled copy of the plugin %q was found, so its server %q cannot be checked", plugin, server)
	}
	for _, f := range folders {
		pkg, err := loadPlugin(env, f)
		if err != nil {
			return false, err.Error()
		}
		ref := pkg.Name + "#" + string(model.KindMCPServer) + ":" + server
		st, err := env.Trust.Check(pkg, ref)
		if err != nil {
			return false, err.Error()
		}
		if st.Authorization != model.Approved {
			why := strings.TrimSuffix(st.Reason, ".")
			if why == "" {
				why = "no approval of its current bytes is in force"
			}
			return false, fmt.Sprintf("%s (from %s) is %s in vouch: %s", ref, f, st.Authorization, why)
		}
	}
	return true, ""
}

// copiesOf lists the folders Claude could load plugin name from in a session in cwd.
func copiesOf(env *enforce.Env, p Paths, cwd, name string) ([]string, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	var out []string
	if e := st.Plugin(ClientID, name); e != nil {
		out = append(out, PluginDir(env.Layout, name))
	}
	if claudecode.IsInstallDir(p.Plugins) {
		installs, _ := claudecode.ReadInstallations(p.Plugins, settingsFiles(p, cwd))
		for _, in := range installs {
			if in.Name == name && in.Enabled && in.Marketplace != Marketplace {
				out = append(out, in.Folder)
			}
		}
	}
	skill := filepath.Join(p.Config, "skills", name)
	if _, err := filepath.EvalSymlinks(filepath.Join(skill, ".claude-plugin", "plugin.json")); err == nil {
		out = append(out, skill)
	}
	return out, nil
}

// Unvouched lists, one sentence each, what a session in cwd loads that vouch does not
// vouch for: what SessionStart shows and --strict blocks on.
func Unvouched(env *enforce.Env, p Paths, cwd string) ([]string, error) {
	st, err := enforce.LoadState(env.Layout)
	if err != nil {
		return nil, err
	}
	sc, err := Scan(p, cwd, st)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, pr := range sc.Problems() {
		out = append(out, pr.Message)
	}
	return out, nil
}

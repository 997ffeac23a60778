package claudecode

import (
	"fmt"
	"strings"

	"vouch/model"
)

// codexLiteralRoot tells what Codex does with a stdio server whose args name
// ${CLAUDE_PLUGIN_ROOT}: the Codex releases vouch models substitute it in hook commands but not
// in MCP args, and still start the server (plugin/read lists it). The server runs, so it
// stays supported, with a warning: it gets the literal text, which as a path is relative
// and resolves under the directory the server starts in (the project directory), not to
// the bundled file.
func codexLiteralRoot(c *model.Component, warn func(code, msg string)) {
	if c.Contract == nil {
		return
	}
	v, _ := c.Contract.Fields.Get("args")
	args, _ := v.([]string)
	var named []string
	for _, a := range args {
		if strings.Contains(a, "${CLAUDE_PLUGIN_ROOT}") {
			named = append(named, a)
		}
	}
	if len(named) == 0 {
		return
	}
	for i := range c.Support {
		s := &c.Support[i]
		if s.Provider != clientCodex || s.Status != model.Supported {
			continue
		}
		s.Detail = fmt.Sprintf(model.Releases(model.ClientCodex, model.Codex169)+" start it, passing ${CLAUDE_PLUGIN_ROOT} in its args through literally: the server gets %q, a relative path under the project directory, not the bundled file.", named[0])
		c.Summary = append(c.Summary, "In "+model.Releases(model.ClientCodex, model.Codex169)+" this server starts with the literal text ${CLAUDE_PLUGIN_ROOT} in its arguments, not this plugin's folder.")
		warn("mcp-codex-literal-root", fmt.Sprintf(model.Releases(model.ClientCodex, model.Codex169)+" start this server but do not replace ${CLAUDE_PLUGIN_ROOT} in MCP args: it gets %q literally, which names a path under the directory it starts in (the project directory), not the plugin's bundled file; what runs there depends on the project, not on this plugin.", named[0]))
	}
}

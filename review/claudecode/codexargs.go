package claudecode

import (
	"fmt"
	"strings"

	"vouch/model"
)

// codexLiteralRoot corrects Codex's answer for a stdio server whose args name
// ${CLAUDE_PLUGIN_ROOT}: the Codex releases vouch models substitute it in hook commands but not
// in MCP args, so the server gets the literal text and the bundled file is not what runs
// there (a relative path then resolves from the project directory).
func codexLiteralRoot(c *model.Component) {
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
		s.Status = model.NotSupported
		s.Detail = fmt.Sprintf(model.Releases(model.ClientCodex, model.Codex169)+" pass ${CLAUDE_PLUGIN_ROOT} in MCP args through literally: the server gets %q, which names no file (or, relative, one under the project directory), so the bundled file is not what runs there.", named[0])
		c.Summary = append(c.Summary, "In Codex this server gets the literal text ${CLAUDE_PLUGIN_ROOT} in its arguments, not this plugin's folder.")
	}
}

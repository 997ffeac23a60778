package claude

import (
	"encoding/json"

	"vouch/enforce"
)

// ManagedPath is where Claude Code reads managed settings on Linux (its docs); writing
// it needs root.
const ManagedPath = "/etc/claude-code/managed-settings.json"

// Managed is the managed-settings.json that makes enforcement hold against a project's
// checked-in .claude/settings.json (which can turn a disabled plugin, and hooks, back
// on). Observed with Claude Code [Version] in a private mount namespace:
// strictKnownMarketplaces loads only the named marketplace's plugins (installed ones of
// other marketplaces included); allowManagedHooksOnly runs no plugin hook except those of
// plugins force-enabled by managed enabledPlugins; managed deniedMcpServers never start.
// None of these can be set in user or project settings.
func Managed(env *enforce.Env, p Paths) ([]byte, error) {
	res, st, err := outsideVouch(env, p)
	if err != nil {
		return nil, err
	}
	enabled := map[string]bool{GuardName + "@" + Marketplace: true}
	for _, e := range st.Entries(ClientID) {
		enabled[e.Name+"@"+Marketplace] = true
	}
	type server struct {
		ServerName string `json:"serverName"`
	}
	denied := []server{}
	for _, s := range res.Servers {
		denied = append(denied, server{s})
	}
	doc := struct {
		StrictKnownMarketplaces []map[string]string `json:"strictKnownMarketplaces"`
		AllowManagedHooksOnly   bool                `json:"allowManagedHooksOnly"`
		EnabledPlugins          map[string]bool     `json:"enabledPlugins"`
		DeniedMcpServers        []server            `json:"deniedMcpServers"`
	}{
		StrictKnownMarketplaces: []map[string]string{{"source": "directory", "path": MarketplaceDir(env.Layout)}},
		AllowManagedHooksOnly:   true,
		EnabledPlugins:          enabled,
		DeniedMcpServers:        denied,
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	return append(out, '\n'), err
}

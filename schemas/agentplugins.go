package schemas

import _ "embed"

// The Agent Plugins 1.0.0 schemas, byte-identical to upstream (see
// agent-plugins-1.0.0/SOURCE.md for the commit and hashes, LICENSE.md for the terms).
// They are embedded so that a `$schema` value selects local rules and nothing is ever
// fetched while a plugin is loaded (agent-plugins §5.2, §7.2.1).
var (
	//go:embed agent-plugins-1.0.0/schemas/1.0.0/plugin.schema.json
	AgentPluginsManifest []byte
	//go:embed agent-plugins-1.0.0/schemas/1.0.0/mcp.schema.json
	AgentPluginsMCP []byte
)

// Canonical identifiers of the Agent Plugins 1.0.0 schemas, as plugin.json and mcp.json
// must declare them in `$schema`.
const (
	AgentPluginsManifestID = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
	AgentPluginsMCPID      = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
)

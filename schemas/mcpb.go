package schemas

import _ "embed"

// The MCP Bundle manifest schemas v0.1–v0.4 from @anthropic-ai/mcpb 2.1.2, byte-identical
// (see mcpb/SOURCE.md for hashes, mcpb/LICENSE for the terms). The validator picks one
// by the manifest's manifest_version (or the deprecated dxt_version); they are embedded so
// that nothing is fetched while a bundle is loaded.
var (
	//go:embed mcpb/mcpb-manifest-v0.1.schema.json
	MCPBManifestV01 []byte
	//go:embed mcpb/mcpb-manifest-v0.2.schema.json
	MCPBManifestV02 []byte
	//go:embed mcpb/mcpb-manifest-v0.3.schema.json
	MCPBManifestV03 []byte
	//go:embed mcpb/mcpb-manifest-v0.4.schema.json
	MCPBManifestV04 []byte
)

// MCPBManifests maps each manifest version mcpb 2.1.2 knows to its strict schema.
var MCPBManifests = map[string][]byte{
	"0.1": MCPBManifestV01,
	"0.2": MCPBManifestV02,
	"0.3": MCPBManifestV03,
	"0.4": MCPBManifestV04,
}

package schemas

import _ "embed"

// DaloPluginV1 is the Portable Agent Packages draft 0.1 structural schema for decoded
// PLUGIN.toml schema 1 (JSON Schema 2020-12), byte-identical to upstream; see
// dalo-0.1/LICENSE.md for provenance and license.
//
//go:embed dalo-0.1/plugin-v1.schema.json
var DaloPluginV1 []byte

// DaloPluginV1URL is the identifier the schema is compiled under. It is never fetched.
const DaloPluginV1URL = "https://dalo.invalid/spec/0.1/plugin-v1.schema.json"

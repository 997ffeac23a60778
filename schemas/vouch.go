package schemas

import _ "embed"

// ReportV1 is vouch's own report schema (schema_version 1), printed by --json commands.
//
//go:embed vouch/report-v1.schema.json
var ReportV1 []byte

// CommandsV1 describes what the other commands print under --json (approve, revoke,
// diff, check, stage, instructions, ledger trust and untrust); each document's $defs
// entry is named after its command. Its not_covered items refer to ReportV1 by $id, so
// a validator needs both.
//
//go:embed vouch/commands-v1.schema.json
var CommandsV1 []byte

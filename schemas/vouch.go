package schemas

import _ "embed"

// ReportV1 is vouch's own report schema (schema_version 1), printed by --json commands.
//
//go:embed vouch/report-v1.schema.json
var ReportV1 []byte

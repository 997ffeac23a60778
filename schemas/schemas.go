// Package schemas embeds the schema files vouch validates against, byte-identical to
// upstream and shipped with their licenses, and vouch's own report and command-output schemas.
package schemas

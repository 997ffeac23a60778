// Package schematest compiles JSON Schemas for the tests that hold vouch's output to them:
// the report and command schemas vouch ships, and the SARIF 2.1.0 schema kept as test
// data. Patterns are ECMAScript patterns, as in vouch's own validation.
package schematest

import (
	"bytes"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/schemas"
)

// Compile adds each resource (URL → schema document) and compiles root, a resource URL
// with an optional "#/…" location.
func Compile(t testing.TB, root string, resources map[string][]byte) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(schemas.ECMARegexp)
	for url, raw := range resources {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	s, err := c.Compile(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// CompileFile compiles the schema in the file at path.
func CompileFile(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Compile(t, "schema.json", map[string][]byte{"schema.json": raw})
}

package schematest

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate fails the test unless doc is JSON that s accepts; what names the document in
// the failure (a command line, "the report").
func Validate(t testing.TB, s *jsonschema.Schema, what, doc string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, doc)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("%s does not validate against its schema: %v\n%s", what, err, doc)
	}
}

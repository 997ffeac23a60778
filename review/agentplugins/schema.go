package agentplugins

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"vouch/schemas"
)

// compiled holds the embedded official schemas, compiled once and shared: a
// *jsonschema.Schema is safe for concurrent validation.
type compiled struct {
	manifest *jsonschema.Schema
	mcp      *jsonschema.Schema
	variants map[string]*jsonschema.Schema
}

var (
	schemaOnce sync.Once
	schemaSet  *compiled
	schemaErr  error
)

func loadSchemas() (*compiled, error) {
	schemaOnce.Do(func() { schemaSet, schemaErr = compileSchemas() })
	return schemaSet, schemaErr
}

func compileSchemas() (*compiled, error) {
	c := jsonschema.NewCompiler()
	// No loader for http(s): resources are added below, so nothing can be fetched.
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(schemas.ECMARegexp) // ECMA-262 patterns, as the schemas mean them
	for id, data := range map[string][]byte{
		schemas.AgentPluginsManifestID: schemas.AgentPluginsManifest,
		schemas.AgentPluginsMCPID:      schemas.AgentPluginsMCP,
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("embedded schema %s: %w", id, err)
		}
		if err := c.AddResource(id, doc); err != nil {
			return nil, fmt.Errorf("embedded schema %s: %w", id, err)
		}
	}
	out := &compiled{variants: map[string]*jsonschema.Schema{}}
	var err error
	if out.manifest, err = c.Compile(schemas.AgentPluginsManifestID); err != nil {
		return nil, err
	}
	if out.mcp, err = c.Compile(schemas.AgentPluginsMCPID); err != nil {
		return nil, err
	}
	for typ, def := range map[string]string{"stdio": "stdioServer", "streamable-http": "streamableHttpServer", "sse": "sseServer"} {
		s, err := c.Compile(schemas.AgentPluginsMCPID + "#/$defs/" + def)
		if err != nil {
			return nil, err
		}
		out.variants[typ] = s
	}
	return out, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not embedded and is never fetched", url)
}

// schemaLeaf is one leaf finding of a jsonschema validation.
type schemaLeaf struct {
	Loc  []string
	Kind jsonschema.ErrorKind
}

// leaves flattens a validation error to its leaf causes.
func leaves(err error) []schemaLeaf {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		if err == nil {
			return nil
		}
		return []schemaLeaf{{}}
	}
	var out []schemaLeaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaLeaf{Loc: e.InstanceLocation, Kind: e.ErrorKind})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

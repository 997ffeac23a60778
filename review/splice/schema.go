package splice

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Splice tool schemas use 14 JSON Schema keywords and nothing else; any other keyword is
// an error, so a constraint is never silently ignored.
var schemaKeywords = map[string]bool{
	"type": true, "description": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "enum": true, "minLength": true,
	"maxLength": true, "minimum": true, "maximum": true, "minItems": true,
	"maxItems": true, "default": true,
}

var schemaTypes = []string{"object", "string", "number", "integer", "boolean", "array", "null"}

const maxSchemaDepth = 16

// checkSchema is checkSchemaDefinition: messages in upstream order, path in upstream's
// dotted form, plus a JSON pointer for vouch.
func checkSchema(schema any, path, ptr string, depth int) []Issue {
	if depth > maxSchemaDepth {
		return []Issue{{Code: "schema-too-deep", Pointer: ptr, Message: fmt.Sprintf("%s: schema nesting is too deep (max %d)", path, maxSchemaDepth)}}
	}
	o, ok := schema.(*object)
	if !ok {
		return []Issue{{Code: "schema-not-object", Pointer: ptr, Message: path + ": must be an object"}}
	}
	var out []Issue
	add := func(code, p, msg string) { out = append(out, Issue{Code: code, Pointer: p, Message: msg}) }
	for _, k := range o.keys() {
		if !schemaKeywords[k] {
			add("schema-unsupported-keyword", ptr+"/"+ptrEscape(k), path+": unsupported keyword "+q(k))
		}
	}
	if t, present := o.get("type"); present {
		if !isSchemaType(t) {
			add("schema-invalid-type", ptr+"/type", path+".type: must be one of "+strings.Join(schemaTypes, ", "))
		}
	}
	if d, present := o.get("description"); present {
		if _, isStr := d.(string); !isStr {
			add("schema-invalid-description", ptr+"/description", path+".description: must be a string")
		}
	}
	if p, present := o.get("properties"); present {
		po, isObj := p.(*object)
		if !isObj {
			add("schema-invalid-properties", ptr+"/properties", path+".properties: must be an object")
		} else {
			for _, name := range po.keys() {
				out = append(out, checkSchema(po.vals[name], path+".properties."+name, ptr+"/properties/"+ptrEscape(name), depth+1)...)
			}
		}
	}
	if r, present := o.get("required"); present {
		if !isStringArray(r) {
			add("schema-invalid-required", ptr+"/required", path+".required: must be an array of strings")
		}
	}
	if ap, present := o.get("additionalProperties"); present {
		if _, isBool := ap.(bool); !isBool {
			add("schema-invalid-additional-properties", ptr+"/additionalProperties", path+".additionalProperties: must be a boolean")
		}
	}
	if it, present := o.get("items"); present {
		out = append(out, checkSchema(it, path+".items", ptr+"/items", depth+1)...)
	}
	if e, present := o.get("enum"); present {
		if !isPrimitiveEnum(e) {
			add("schema-invalid-enum", ptr+"/enum", path+".enum: must be a non-empty array of primitives")
		}
	}
	for _, k := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		if x, present := o.get(k); present {
			if f, _ := x.(float64); !isInteger(x) || f < 0 {
				add("schema-invalid-bound", ptr+"/"+k, path+"."+k+": must be a non-negative integer")
			}
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if x, present := o.get(k); present {
			if f, isNum := x.(float64); !isNum || math.IsInf(f, 0) || math.IsNaN(f) {
				add("schema-invalid-bound", ptr+"/"+k, path+"."+k+": must be a finite number")
			}
		}
	}
	return out
}

// isSchemaType reports whether t is one of the type names the subset allows.
func isSchemaType(t any) bool {
	s, isStr := t.(string)
	return isStr && slices.Contains(schemaTypes, s)
}

// isStringArray reports whether v is an array whose every element is a string.
func isStringArray(v any) bool {
	arr, isArr := v.([]any)
	if !isArr {
		return false
	}
	for _, e := range arr {
		if _, isStr := e.(string); !isStr {
			return false
		}
	}
	return true
}

// isPrimitiveEnum reports whether v is a non-empty array of null, strings, numbers and booleans.
func isPrimitiveEnum(v any) bool {
	arr, isArr := v.([]any)
	if !isArr || len(arr) == 0 {
		return false
	}
	for _, x := range arr {
		switch x.(type) {
		case nil, string, float64, bool:
		default:
			return false
		}
	}
	return true
}

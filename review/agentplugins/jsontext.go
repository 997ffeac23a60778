package agentplugins

import "vouch/review/jsontext"

// toDisplay converts a parsed value to model field values for the reviewer: members in
// declaration order with repeated names kept (each was flagged), numbers as written.
func toDisplay(v *jsontext.Value) any {
	switch v.Kind {
	case jsontext.Null:
		return nil
	case jsontext.Bool:
		return v.Bool
	case jsontext.Number, jsontext.String:
		return v.Str
	case jsontext.Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = toDisplay(e)
		}
		return out
	default:
		out := make(fieldsT, 0, len(v.Obj))
		for _, m := range v.Obj {
			out = append(out, fieldT{Key: m.Key, Value: toDisplay(m.Val)})
		}
		return out
	}
}

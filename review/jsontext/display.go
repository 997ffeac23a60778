package jsontext

import "vouch/model"

// Display converts a parsed value to model field values for a reviewer: object members
// in declaration order with repeated names kept (a loader flags them), numbers as
// written, so the Overview shows exactly what the file says.
func Display(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number, String:
		return v.Str
	case Array:
		out := make([]any, len(v.Arr))
		for i, e := range v.Arr {
			out[i] = Display(e)
		}
		return out
	default:
		out := make(model.Fields, 0, len(v.Obj))
		for _, m := range v.Obj {
			out = append(out, model.Field{Key: m.Key, Value: Display(m.Val)})
		}
		return out
	}
}

package splice

// describeTools builds upstream's tool descriptors (describeTools in @spliceloom/spec) in
// its key order. vouch shows the same identities and annotations in each tool's Details;
// this form exists so tests can compare against upstream's expected output byte for byte.
func describeTools(m *Manifest) []any {
	var out []any
	for _, t := range m.Tools {
		d := newObject()
		d.set("package", m.ID())
		d.set("version", m.Version)
		d.set("tool", t.Name)
		d.set("name", m.Name+"."+t.Name)
		d.set("qualifiedName", m.ID()+"."+t.Name)
		d.set("mcpName", m.Namespace+"_"+m.Name+"_"+t.Name)
		d.set("description", t.Description)
		d.set("inputSchema", t.Input)
		d.set("permissions", permissionsObject(m.Permissions))
		a := annotationsOf(m.Permissions)
		ann := newObject()
		ann.set("readOnlyHint", a.ReadOnly)
		ann.set("destructiveHint", a.Destructive)
		ann.set("openWorldHint", a.OpenWorld)
		d.set("annotations", ann)
		d.set("timeoutMs", float64(t.Timeout()))
		if t.Output != nil {
			d.set("outputSchema", t.Output)
		}
		out = append(out, d)
	}
	return out
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.order = append(o.order, k)
	}
	o.vals[k] = v
}

func strs(s []string) []any {
	out := []any{}
	for _, x := range s {
		out = append(out, x)
	}
	return out
}

func permissionsObject(p Permissions) *object {
	fs := newObject()
	fs.set("read", strs(p.Read))
	fs.set("write", strs(p.Write))
	o := newObject()
	o.set("fs", fs)
	o.set("network", strs(p.Network))
	o.set("env", strs(p.Env))
	if len(p.Capabilities) > 0 {
		o.set("capabilities", strs(p.Capabilities))
	}
	return o
}

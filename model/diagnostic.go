package model

// Place is where a finding sits: a file of the package (slash path, "" when none), a JSON
// pointer or TOML key path in it, and a 1-based line (0 when unknown). A diagnostic is
// built from its place by the constructor of the boundary it invalidates, so a call
// names the boundary instead of passing it among eight positional values.
type Place struct {
	File    string
	Pointer string
	Line    int
}

// Package is a finding that invalidates the whole package.
func (p Place) Package(code string, sev Severity, msg, spec string) Diagnostic {
	return p.Finding(BoundaryPackage, code, sev, msg, spec)
}

// ComponentType is a finding that disables one type of component (all hooks, all MCP
// servers of a file).
func (p Place) ComponentType(code string, sev Severity, msg, spec string) Diagnostic {
	return p.Finding(BoundaryComponentType, code, sev, msg, spec)
}

// Component is a finding about one component.
func (p Place) Component(code string, sev Severity, msg, spec string) Diagnostic {
	return p.Finding(BoundaryComponent, code, sev, msg, spec)
}

// Entry is a finding about one entry inside a component or manifest (a list item, a
// platform override) that leaves the rest standing.
func (p Place) Entry(code string, sev Severity, msg, spec string) Diagnostic {
	return p.Finding(BoundaryEntry, code, sev, msg, spec)
}

// Finding is a finding at the boundary b, for a caller that is handed the boundary (a
// file reader shared by several kinds of file).
func (p Place) Finding(b Boundary, code string, sev Severity, msg, spec string) Diagnostic {
	return Diagnostic{Code: code, Severity: sev, Boundary: b, File: p.File, Pointer: p.Pointer, Line: p.Line, Message: msg, Spec: spec}
}

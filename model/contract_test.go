package model

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestCanonicalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"sorted keys", map[string]any{"b": 1, "a": true, "c": nil}, `{"a":true,"b":1,"c":null}`},
		// RFC 8785 §3.2.3 example: keys sort by UTF-16 code units, so U+1F600 (surrogates
		// D83D DE00) sorts before U+FB33 although its code point is larger.
		{"utf16 key order", map[string]any{"\uFB33": 1, "\U0001F600": 2}, "{\"\U0001F600\":2,\"\uFB33\":1}"},
		{"escapes", "a\"b\\c\n\t\x01\u2028/é", `"a\"b\\c\n\t\u0001` + "\u2028" + `/é"`},
		{"no html escaping", "<a>&", `"<a>&"`},
		{"ordered fields sort too", Fields{{"z", "1"}, {"a", []string{"x", "y"}}}, `{"a":["x","y"],"z":"1"}`},
		{"nested", []any{map[string]string{"k": "v"}, int64(-3)}, `[{"k":"v"},-3]`},
		{"float integer", 1e3, `1000`},
		{"float fraction", 0.5, `0.5`},
		{"float large", 1e21, `1e+21`},
		{"float small", 1e-7, `1e-7`},
		{"negative zero", math.Copysign(0, -1), `0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CanonicalJSON(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCanonicalJSONRejects(t *testing.T) {
	for name, v := range map[string]any{
		"duplicate key":    Fields{{"a", 1}, {"a", 2}},
		"unsupported type": struct{}{},
		"invalid utf8":     "a\xffb",
		"invalid utf8 key": map[string]any{"\xfe": 1},
		"nan":              func() float64 { z := 0.0; return z / z }(),
	} {
		if _, err := CanonicalJSON(v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestContractDigestDependsOnFilesNotOrder(t *testing.T) {
	a := &Contract{Kind: KindTool, Fields: Fields{{"runtime", "node"}}, Files: []File{
		{Path: "b.js", SHA256: strings.Repeat("b", 64), Size: 1}, {Path: "a.js", SHA256: strings.Repeat("a", 64), Size: 2},
	}}
	b := &Contract{Kind: KindTool, Fields: Fields{{"runtime", "node"}}, Files: []File{a.Files[1], a.Files[0]}}
	if a.MustDigest() != b.MustDigest() || !strings.HasPrefix(a.MustDigest(), "sha256:") {
		t.Fatalf("file order changed the digest: %s vs %s", a.MustDigest(), b.MustDigest())
	}
	c := &Contract{Kind: KindTool, Fields: a.Fields, Files: []File{a.Files[0], {Path: "a.js", SHA256: strings.Repeat("c", 64), Size: 2}}}
	if a.MustDigest() == c.MustDigest() {
		t.Fatal("a changed file hash kept the digest")
	}
	d := &Contract{Kind: KindTool, Fields: Fields{{"runtime", "python"}}, Files: a.Files}
	if a.MustDigest() == d.MustDigest() {
		t.Fatal("a changed field kept the digest")
	}
	bad := &Contract{Kind: KindTool, Fields: Fields{{"x", struct{}{}}}}
	if bad.MustDigest() != "" {
		t.Fatal("an unserializable contract produced a digest")
	}
}

// TestPackageValid: a package is valid when it is accepted at its boundary. Faults below
// the package (an invalid or skipped component, a component error, a disabled component
// type) leave it valid: clients load it without those parts (agent-plugins §7.2.2, the
// conformance expectation "a plugin whose only faults are entries is valid with those
// entries skipped"). These four cases were once asserted invalid; clients load them.
func TestPackageValid(t *testing.T) {
	valid := map[string]*Package{
		"warnings, unsupported, optional omission": {Components: []*Component{{Validity: Valid}, {Validity: Unsupported}},
			Diagnostics: []Diagnostic{{Severity: SeverityWarning, Boundary: BoundaryPackage}},
			Members:     []Reference{{Requirement: "optional", Status: "missing"}}},
		"invalid component": {Components: []*Component{{Validity: Invalid}}},
		"skipped component": {Components: []*Component{{Validity: Skipped}}},
		"component error":   {Components: []*Component{{Validity: Valid, Diagnostics: []Diagnostic{{Severity: SeverityError, Boundary: BoundaryComponent}}}}},
		"mcp disabled":      {Diagnostics: []Diagnostic{{Severity: SeverityError, Boundary: BoundaryComponentType}}},
		"entry error":       {Diagnostics: []Diagnostic{{Severity: SeverityError, Boundary: BoundaryEntry}}},
	}
	for name, p := range valid {
		if !p.Valid() {
			t.Errorf("%s: reported invalid", name)
		}
	}
	invalid := map[string]*Package{
		"rejected":         {Rejected: true},
		"package error":    {Diagnostics: []Diagnostic{{Severity: SeverityError, Boundary: BoundaryPackage}}},
		"source error":     {Diagnostics: []Diagnostic{{Severity: SeverityError, Boundary: BoundarySource}}},
		"required missing": {Members: []Reference{{Requirement: "required", Status: "missing"}}},
		"required dep":     {Dependencies: []Reference{{Requirement: "required", Status: "unavailable_external"}}},
		// Dalo and Splice accept a package only as a whole: their loaders add this error.
		"whole-package format": {Components: []*Component{{Validity: Invalid}},
			Diagnostics: []Diagnostic{{Code: "invalid_plugin_package", Severity: SeverityError, Boundary: BoundaryPackage}}},
	}
	for name, p := range invalid {
		if p.Valid() {
			t.Errorf("%s: reported valid", name)
		}
	}
}

func TestPackageCount(t *testing.T) {
	p := &Package{
		Diagnostics: []Diagnostic{{Severity: SeverityError}, {Severity: SeverityWarning}, {Severity: SeverityInfo}},
		Components: []*Component{
			{Validity: Valid, Diagnostics: []Diagnostic{{Severity: SeverityWarning}}},
			{Validity: Skipped, Diagnostics: []Diagnostic{{Severity: SeverityError}}},
			{Validity: Invalid, Diagnostics: []Diagnostic{{Severity: SeverityError}, {Severity: SeverityError}}},
			{Validity: Unsupported},
		},
	}
	if got, want := p.Count(), (Counts{Errors: 4, Warnings: 2, Skipped: 2}); got != want {
		t.Fatalf("Count() = %+v, want %+v", got, want)
	}
}

// lessUTF16 must agree with sorting by encoded UTF-16 units on any pair of strings.
func TestLessUTF16MatchesEncoding(t *testing.T) {
	ref := func(a, b string) bool {
		ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
		for i := 0; i < len(ua) && i < len(ub); i++ {
			if ua[i] != ub[i] {
				return ua[i] < ub[i]
			}
		}
		return len(ua) < len(ub)
	}
	samples := []string{"", "a", "ab", "b", "é", "\uFB33", "\uE000", "\uFFFF", "\U0001F600", "\U00010000", "a\U0001F600", "a\uFB33", "z", "\u00ff", "\u0100", "aé", "ae"}
	for _, a := range samples {
		for _, b := range samples {
			if got, want := lessUTF16(a, b), ref(a, b); got != want {
				t.Errorf("lessUTF16(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestIsHiddenRune(t *testing.T) {
	hidden := []rune{0x00, 0x07, 0x1b, 0x0d, 0x7f, 0x85, 0x9b, 0xad, 0x200b, 0x200d, 0x202e, 0x2066, 0x2069, 0x2028, 0x2029, 0xfeff, 0xfe0f, 0xe0041, 0xe0100, 0x3164, 0x115f, 0x034f}
	shown := []rune{'\n', '\t', ' ', 'a', '~', 0xa0, 0xe9, 0x4e2d, 0x1f600, 0x2500}
	for _, r := range hidden {
		if !IsHiddenRune(r) {
			t.Errorf("%U should be hidden", r)
		}
	}
	for _, r := range shown {
		if IsHiddenRune(r) {
			t.Errorf("%U should be shown", r)
		}
	}
}

// TestContractLinks: a link entry is bound by its path and target (retargeting changes the
// digest), emits no bytes fields, and a link-free contract serializes exactly as before
// (no "link" key), so existing approvals keep their digests.
func TestContractLinks(t *testing.T) {
	file := File{Path: "a.js", SHA256: strings.Repeat("a", 64), Size: 2}
	plain := &Contract{Kind: KindTool, Files: []File{file}}
	canon, err := plain.Canonical()
	if err != nil || strings.Contains(string(canon), "link") {
		t.Fatalf("link-free canonical form %s, %v", canon, err)
	}
	if want := `{"contract":"vouch-contract/1","fields":{},"files":[{"exec":false,"path":"a.js","sha256":"` + strings.Repeat("a", 64) + `","size":2}],"kind":"tool"}`; string(canon) != want {
		t.Fatalf("canonical form changed:\n%s\nwant\n%s", canon, want)
	}
	v1 := &Contract{Kind: KindTool, Files: []File{file, {Path: "lib", Link: "v1"}}}
	v2 := &Contract{Kind: KindTool, Files: []File{file, {Path: "lib", Link: "v2"}}}
	c1, _ := v1.Canonical()
	if !strings.Contains(string(c1), `{"link":"v1","path":"lib"}`) {
		t.Errorf("link entry %s", c1)
	}
	if v1.MustDigest() == v2.MustDigest() || v1.MustDigest() == plain.MustDigest() {
		t.Error("retargeting or adding a link kept the digest")
	}
	asFile := &Contract{Kind: KindTool, Files: []File{file, {Path: "lib", SHA256: strings.Repeat("b", 64)}}}
	if asFile.MustDigest() == v1.MustDigest() {
		t.Error("a link and a file at the same path share a digest")
	}
}

// canonicalViaMaps is the contract's canonical form built the plain way, as maps handed to
// writeCanonical: the definition Canonical's direct writer must reproduce byte for byte.
func canonicalViaMaps(c *Contract) ([]byte, error) {
	files := make([]any, 0, len(c.Files))
	sorted := append([]File(nil), c.Files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, f := range sorted {
		if f.IsLink() {
			files = append(files, map[string]any{"path": f.Path, "link": f.Link})
			continue
		}
		files = append(files, map[string]any{"path": f.Path, "sha256": f.SHA256, "size": f.Size, "exec": f.Exec})
	}
	fields := map[string]any{}
	for _, f := range c.Fields {
		if _, dup := fields[f.Key]; dup {
			return nil, fmt.Errorf("duplicate")
		}
		fields[f.Key] = f.Value
	}
	return CanonicalJSON(map[string]any{"contract": ContractVersion, "kind": string(c.Kind), "fields": fields, "files": files})
}

func TestCanonicalDirectMatchesMaps(t *testing.T) {
	cases := map[string]*Contract{
		"empty": {Kind: KindHook},
		"fields and files": {Kind: KindMCPServer,
			Fields: Fields{{Key: "command", Value: "node"}, {Key: "args", Value: []string{"a", "\"b\""}}, {Key: "env", Value: map[string]string{"Z": "1", "A": "é"}}, {Key: "n", Value: 3}, {Key: "nested", Value: Fields{{Key: "y", Value: true}, {Key: "x", Value: nil}}}},
			Files:  []File{{Path: "z.js", Size: 10, SHA256: "ab", Exec: true}, {Path: "a/b.js", Size: 0, SHA256: "cd"}, {Path: "link", Link: "../x"}}},
		"utf16 key order": {Kind: KindSkill, Fields: Fields{{Key: "\uffff", Value: 1}, {Key: "\U0001F600", Value: 2}, {Key: "a", Value: 3}}},
	}
	for name, c := range cases {
		got, err := c.Canonical()
		want, werr := canonicalViaMaps(c)
		if err != nil || werr != nil || string(got) != string(want) {
			t.Errorf("%s:\n direct %s (%v)\n maps   %s (%v)", name, got, err, want, werr)
		}
	}
	for name, c := range map[string]*Contract{
		"duplicate field": {Kind: KindHook, Fields: Fields{{Key: "a", Value: 1}, {Key: "a", Value: 2}}},
		"bad utf-8 path":  {Kind: KindHook, Files: []File{{Path: "\xff"}}},
		"bad utf-8 link":  {Kind: KindHook, Files: []File{{Path: "l", Link: "\xff"}}},
	} {
		if _, err := c.Canonical(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzCanonicalDirect: for any strings and sizes, the direct writer and the map form agree
// (both bytes and whether there is an error).
func FuzzCanonicalDirect(f *testing.F) {
	f.Add("k", "v", "p", "q", "", int64(1), true)
	f.Add("\U0001F600", "\uffff", "a/b", "a/b", "t", int64(-1), false)
	f.Fuzz(func(t *testing.T, k1, k2, p1, p2, link string, size int64, exec bool) {
		c := &Contract{Kind: KindTool, Fields: Fields{{Key: k1, Value: k2}, {Key: k2, Value: []string{k1}}},
			Files: []File{{Path: p1, Size: size, SHA256: k1, Exec: exec}, {Path: p2, Link: link}}}
		got, err := c.Canonical()
		want, werr := canonicalViaMaps(c)
		if (err == nil) != (werr == nil) || string(got) != string(want) {
			t.Fatalf("direct %q (%v) != maps %q (%v)", got, err, want, werr)
		}
	})
}

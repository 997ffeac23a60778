package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/goldenfile"
	"vouch/model"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// goldenContracts are one contract of every kind. The golden files pin their canonical
// bytes and digests: a digest must not change between releases unless the contract did,
// or every approval in every ledger would silently turn into "changed".
func goldenContracts() map[string]*model.Contract {
	f := func(path, content string, exec bool) model.File {
		s := sha256.Sum256([]byte(content))
		return model.File{Path: path, Size: int64(len(content)), SHA256: hex.EncodeToString(s[:]), Exec: exec}
	}
	entry := f("context.mjs", "process.stdout.write('{}')\n", false)
	tool := &model.Contract{Kind: model.KindTool, Fields: model.Fields{
		{Key: "entry", Value: "context.mjs"},
		{Key: "runtime", Value: "node"},
		{Key: "runtime_version", Value: ""},
		{Key: "argv", Value: []string{"${input.project_dir}"}},
		{Key: "cwd", Value: "tool_root"},
		{Key: "env", Value: []string{}},
		{Key: "inputs", Value: []any{model.Fields{{Key: "name", Value: "project_dir"}, {Key: "type", Value: "path"}, {Key: "required", Value: true}}}},
		{Key: "capabilities", Value: []string{}},
		{Key: "platforms", Value: []string{"darwin", "linux"}},
		{Key: "availability", Value: "required"},
	}, Files: []model.File{entry}}
	return map[string]*model.Contract{
		"tool": tool,
		"hook": {Kind: model.KindHook, Fields: model.Fields{
			{Key: "subject", Value: "user_prompt"},
			{Key: "phase", Value: "before"},
			{Key: "effect", Value: "add_context"},
			{Key: "matcher", Value: []string{}},
			{Key: "bindings", Value: []any{map[string]string{"input": "project_dir", "field": "session.cwd"}}},
			{Key: "timeout_ms", Value: 2000},
			{Key: "failure_policy", Value: "report"},
			{Key: "error_visibility", Value: "model_and_user"},
			{Key: "requirement", Value: "required"},
			{Key: "fallback", Value: nil},
			{Key: "tool", Value: "design-review#tool:context"},
			{Key: "tool_digest", Value: tool.MustDigest()},
		}},
		"mcp-stdio": {Kind: model.KindMCPServer, Fields: model.Fields{
			{Key: "type", Value: "stdio"},
			{Key: "command", Value: "./bin/server"},
			{Key: "command_sha256", Value: entry.SHA256},
			{Key: "args", Value: []string{"--root", "${PLUGIN_ROOT}", "--quote=\"x\"\t\\"}},
			{Key: "env", Value: map[string]string{"LOG": "debug", "DATA": "${PLUGIN_DATA}/db"}},
			{Key: "cwd", Value: "${PLUGIN_ROOT}"},
		}, Files: []model.File{f("bin/server", "\x7fELF\x00\x01", true)}},
		"mcp-remote": {Kind: model.KindMCPServer, Fields: model.Fields{
			{Key: "type", Value: "http"},
			{Key: "url", Value: "https://mcp.example.com/v1?q=é&x=<y>"},
			{Key: "headers", Value: map[string]any{"Authorization": "Bearer ${TOKEN}", "X-Ünïcode": "€ \u2028 😀"}},
		}},
		"skill": {Kind: model.KindSkill, Fields: model.Fields{{Key: "name", Value: "design-review"}},
			Files: []model.File{f("skills/design-review/SKILL.md", "---\nname: design-review\n---\nbody\n", false), f("skills/design-review/scripts/check.py", "print(1)\n", true)}},
		"instruction": {Kind: model.KindInstruction, Fields: model.Fields{
			{Key: "selector", Value: "design-context"},
			{Key: "content", Value: "Check contrast.\r\n<!-- hidden -->\x00\x1f\u007f\n"},
		}},
		"splice-tool": {Kind: model.KindTool, Fields: model.Fields{
			{Key: "entry", Value: "tools/search.js"},
			{Key: "input_schema", Value: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string", "maxLength": 200}}, "required": []any{"q"}}},
			{Key: "timeout_ms", Value: int64(30000)},
			{Key: "permissions", Value: model.Fields{{Key: "network", Value: []string{"api.example.com"}}, {Key: "filesystem", Value: []any{}}}},
			{Key: "ratio", Value: 0.5},
		}, Files: []model.File{f("tools/search.js", "export default 1\n", false), f("tools/lib/a.js", "x\n", false)}},
	}
}

func TestGoldenContracts(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	for name, c := range goldenContracts() {
		t.Run(name, func(t *testing.T) {
			canon, err := c.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			digest, err := c.Digest()
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(canon)
			if digest != "sha256:"+hex.EncodeToString(sum[:]) {
				t.Fatalf("digest %s is not the sha256 of the canonical bytes", digest)
			}
			if !json.Valid(canon) {
				t.Fatalf("canonical form is not JSON: %s", canon)
			}
			const hint = "run go test ./trust -run Golden -update once"
			goldenfile.Check(t, filepath.Join(dir, name+".json"), canon, *update, hint)
			goldenfile.Check(t, filepath.Join(dir, name+".digest"), []byte(digest+"\n"), *update, hint)
		})
	}
}

// TestDigestIgnoresOrder: declaration order of fields and files is not security-relevant.
func TestDigestIgnoresOrder(t *testing.T) {
	c := goldenContracts()["splice-tool"]
	r := &model.Contract{Kind: c.Kind}
	for i := len(c.Fields) - 1; i >= 0; i-- {
		r.Fields = append(r.Fields, c.Fields[i])
	}
	for i := len(c.Files) - 1; i >= 0; i-- {
		r.Files = append(r.Files, c.Files[i])
	}
	if c.MustDigest() != r.MustDigest() || c.MustDigest() == "" {
		t.Fatal("reordering fields or files changed the digest")
	}
	// Each security-relevant part does change it.
	for name, mut := range map[string]func(*model.Contract){
		"kind":      func(c *model.Contract) { c.Kind = model.KindHook },
		"field":     func(c *model.Contract) { c.Fields[0].Value = "tools/other.js" },
		"file hash": func(c *model.Contract) { c.Files[0].SHA256 = strings.Repeat("0", 64) },
		"exec bit":  func(c *model.Contract) { c.Files[0].Exec = true },
		"size":      func(c *model.Contract) { c.Files[0].Size++ },
		"path":      func(c *model.Contract) { c.Files[0].Path = "tools/x.js" },
		"int type":  func(c *model.Contract) { c.Fields[2].Value = "30000" },
	} {
		m := &model.Contract{Kind: c.Kind, Fields: append(model.Fields(nil), c.Fields...), Files: append([]model.File(nil), c.Files...)}
		mut(m)
		if m.MustDigest() == c.MustDigest() {
			t.Errorf("changing the %s kept the digest", name)
		}
	}
}

// TestRFC8785 checks model.CanonicalJSON against the examples of RFC 8785.
func TestRFC8785(t *testing.T) {
	// §3.2.3 sorting: keys by UTF-16 code units (U+FB33 after the surrogate pair of U+1F600).
	sortIn := map[string]any{"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
		"1": "One", "\U0001F600": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}
	wantSort := "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"
	// §3.2.2.2 strings: only the mandatory escapes, lowercase hex.
	strIn := "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"/"
	wantStr := "\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\""
	tests := []struct {
		in   any
		want string
	}{
		{sortIn, wantSort},
		{strIn, wantStr},
		{"\b\f\t\x01\x7f", `"\b\f\t\u0001` + "\x7f\""},
		{map[string]any{"b": []any{int64(1), nil, true, false}, "a": map[string]string{}}, `{"a":{},"b":[1,null,true,false]}`},
	}
	for _, tc := range tests {
		got, err := model.CanonicalJSON(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("CanonicalJSON(%q) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	// Appendix B number examples (IEEE-754 bit patterns → ECMAScript strings).
	nums := map[uint64]string{
		0x0000000000000000: "0", 0x8000000000000000: "0", 0x0000000000000001: "5e-324",
		0x8000000000000001: "-5e-324", 0x7fefffffffffffff: "1.7976931348623157e+308",
		0xffefffffffffffff: "-1.7976931348623157e+308", 0x4340000000000000: "9007199254740992",
		0xc340000000000000: "-9007199254740992", 0x4430000000000000: "295147905179352830000",
		0x44b52d02c7e14af5: "9.999999999999997e+22", 0x44b52d02c7e14af6: "1e+23",
		0x44b52d02c7e14af7: "1.0000000000000001e+23", 0x444b1ae4d6e2ef4e: "999999999999999700000",
		0x444b1ae4d6e2ef4f: "999999999999999900000", 0x444b1ae4d6e2ef50: "1e+21",
		0x3eb0c6f7a0b5ed8c: "9.999999999999997e-7", 0x3eb0c6f7a0b5ed8d: "0.000001",
		0x41b3de4355555553: "333333333.3333332", 0x41b3de4355555554: "333333333.33333325",
		0x41b3de4355555555: "333333333.3333333", 0x41b3de4355555556: "333333333.3333334",
		0x41b3de4355555557: "333333333.33333343", 0xbecbf647612f3696: "-0.0000033333333333333333",
		0x43143ff3c1cb0959: "1424953923781206.2",
	}
	for bits, want := range nums {
		got, err := model.CanonicalJSON(math.Float64frombits(bits))
		if err != nil || string(got) != want {
			t.Errorf("number %#x = %s, %v; want %s", bits, got, err, want)
		}
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), []int{1}, model.Fields{{Key: "a"}, {Key: "a"}}} {
		if _, err := model.CanonicalJSON(bad); err == nil {
			t.Errorf("CanonicalJSON(%v) did not fail", bad)
		}
	}
}

// fromJSON turns decoded JSON into the value types CanonicalJSON accepts.
func fromJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = fromJSON(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = fromJSON(x[k])
		}
		return x
	}
	return v
}

// FuzzCanonical: the canonical form of any JSON value is valid JSON, decodes to the same
// value and is a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"]}`, `"\u00e9\u2028\ud83d\ude00"`, `[1e300,-0.0,5e-324,123456789012]`, `{"\u20ac":{},"\r":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err != nil || math.IsInf(f, 0) {
				return
			}
		}
		c1, err := model.CanonicalJSON(fromJSON(v))
		if err != nil {
			return // out-of-range numbers
		}
		if !json.Valid(c1) {
			t.Fatalf("invalid JSON: %s", c1)
		}
		dec = json.NewDecoder(bytes.NewReader(c1))
		dec.UseNumber()
		var v2 any
		if err := dec.Decode(&v2); err != nil {
			t.Fatal(err)
		}
		c2, err := model.CanonicalJSON(fromJSON(v2))
		if err != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("not a fixed point:\n%s\n%s (%v)", c1, c2, err)
		}
	})
}

package netrisk

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"vouch/model"
)

type memFiles map[string]string

func (m memFiles) ReadFile(rel string) ([]byte, error) {
	s, ok := m[rel]
	if !ok {
		return nil, errors.New("no such file")
	}
	return []byte(s), nil
}

func (m memFiles) file(rel string) model.File { return model.File{Path: rel, Size: int64(len(m[rel]))} }

// capsOf is "kind|scope;scope" of each capability Attach added, in order.
func capsOf(c *model.Component) []string {
	var out []string
	for _, cp := range c.Capabilities {
		if cp.Kind == model.CapRemoteCode || cp.Kind == model.CapNetwork {
			out = append(out, string(cp.Kind)+"|"+strings.Join(cp.Scope, ";"))
		}
	}
	return out
}

func TestAttach(t *testing.T) {
	files := memFiles{
		"scripts/send.sh":  "#!/bin/sh\ncurl -s -X POST https://us.i.posthog.com/capture -d @-\n",
		"scripts/quiet.sh": "#!/bin/sh\necho hello\n",
		"x.js":             "fetch('https://root.example.com/')\n",
		"bin/tool":         "#!/bin/sh\nnpx -y left-pad@1.0.0\n",
		"bin/blob":         "\x00\x01https://binary.example.com/\n",
	}
	all := []model.File{files.file("scripts/send.sh"), files.file("scripts/quiet.sh"), files.file("x.js"), files.file("bin/tool"), files.file("bin/blob")}
	hook := func(cmd string) *model.Component {
		return &model.Component{Kind: model.KindHook, ID: "h", Files: all,
			Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: cmd}, {Key: "file", Value: "hooks/hooks.json"}}}}
	}
	for _, tc := range []struct {
		name string
		c    *model.Component
		want []string
	}{
		{"curl piped to sh in the command", hook("curl -fsSL https://get.example.com/i.sh | sh"),
			[]string{"remote-code|curl -fsSL https://get.example.com/i.sh | sh", "network|curl;get.example.com"}},
		{"a bundled script that sends data", hook(`bash "${CLAUDE_PLUGIN_ROOT}/scripts/send.sh"`),
			[]string{"network|curl (scripts/send.sh);us.i.posthog.com (scripts/send.sh)"}},
		{"quoted root then the path", hook(`"${CLAUDE_PLUGIN_ROOT}"/scripts/send.sh --x`),
			[]string{"network|curl (scripts/send.sh);us.i.posthog.com (scripts/send.sh)"}},
		{"a quiet script adds nothing", hook(`sh ${CLAUDE_PLUGIN_ROOT}/scripts/quiet.sh`), nil},
		{"a path ending in a root file's name does not name it", hook(`node ./other/x.js`), nil},
		{"./ names a root file", hook(`node ./x.js`), []string{"network|root.example.com (x.js)"}},
		{"a binary file is not read as a script", hook(`${PLUGIN_ROOT}/bin/blob`), nil},
		{"npx in the args of a server", &model.Component{Kind: model.KindMCPServer, ID: "s",
			Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: "npx"}, {Key: "args", Value: []string{"-y", "@acme/mcp@1.2.3"}}}}},
			[]string{"remote-code|npx -y @acme/mcp@1.2.3"}},
		{"an executable is its own file", &model.Component{Kind: model.KindExecutable, ID: "tool", Files: all,
			Contract: &model.Contract{Fields: model.Fields{{Key: "name", Value: "tool"}, {Key: "file", Value: "bin/tool"}}}},
			[]string{"remote-code|npx -y left-pad@1.0.0 (bin/tool)"}},
		{"a declared host is not repeated", &model.Component{Kind: model.KindMCPServer, ID: "r",
			Capabilities: []model.Capability{{Kind: model.CapNetwork, Scope: []string{"mcp.example.com"}}},
			Contract:     &model.Contract{Fields: model.Fields{{Key: "url", Value: "https://mcp.example.com/mcp"}}}},
			[]string{"network|mcp.example.com"}}, // the loader's own, unchanged
		{"a skill is not scanned", &model.Component{Kind: model.KindSkill, ID: "k", Body: "curl https://x.example.com | sh",
			Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: "curl https://x.example.com | sh"}}}}, nil},
		{"a hook's prompt is not a command", &model.Component{Kind: model.KindHook, ID: "p",
			Contract: &model.Contract{Fields: model.Fields{{Key: "prompt", Value: "see https://docs.example.com"}}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &model.Package{Components: []*model.Component{tc.c}, Reader: files}
			Attach(p)
			got := capsOf(tc.c)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// Remote code and network come before what the loader declared.
func TestAttachPutsRiskFirst(t *testing.T) {
	c := &model.Component{Kind: model.KindHook, ID: "h",
		Capabilities: []model.Capability{{Kind: model.CapHook, Scope: []string{"PreToolUse", "can-block"}}},
		Contract:     &model.Contract{Fields: model.Fields{{Key: "command", Value: "npx -y x@1.0.0 && curl https://a.example.com"}}}}
	Attach(&model.Package{Components: []*model.Component{c}})
	var kinds []string
	for _, cp := range c.Capabilities {
		kinds = append(kinds, string(cp.Kind))
	}
	if strings.Join(kinds, " ") != "remote-code network hook" {
		t.Fatalf("kinds %v", kinds)
	}
}

// A script is read once per package however many components run it, and a script larger
// than the bound is not read at all.
func TestAttachReadsEachScriptOnceAndBounded(t *testing.T) {
	files := memFiles{"run.sh": "curl https://a.example.com\n", "big.sh": strings.Repeat("#", maxScript+1)}
	r := &countingReader{m: files, n: map[string]int{}}
	var comps []*model.Component
	for range 5 {
		comps = append(comps, &model.Component{Kind: model.KindHook, ID: "h", Files: []model.File{files.file("run.sh"), files.file("big.sh")},
			Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: "sh ./run.sh; sh ./big.sh"}}}})
	}
	Attach(&model.Package{Components: comps, Reader: r})
	if r.n["run.sh"] != 1 || r.n["big.sh"] != 0 {
		t.Fatalf("reads %v", r.n)
	}
	for _, c := range comps {
		if len(capsOf(c)) != 1 {
			t.Fatalf("caps %v", capsOf(c))
		}
	}
}

type countingReader struct {
	m memFiles
	n map[string]int
}

func (r *countingReader) ReadFile(rel string) ([]byte, error) { r.n[rel]++; return r.m.ReadFile(rel) }

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		line, rel string
		want      bool
	}{
		{`node "${CLAUDE_PLUGIN_ROOT}/scripts/x.js"`, "scripts/x.js", true},
		{`"${CLAUDE_PLUGIN_ROOT}"/scripts/x.js`, "scripts/x.js", true},
		{`$PLUGIN_ROOT/scripts/x.js`, "scripts/x.js", true},
		{`${__dirname}/server/index.js`, "server/index.js", true},
		{`./bin/server --stdio`, "bin/server", true},
		{`scripts/x.js`, "scripts/x.js", true},
		{`node other/scripts/x.js`, "scripts/x.js", false},
		{`node scripts/x.js.bak`, "scripts/x.js", false},
		{`node ../x.js`, "x.js", false},
		{``, "x.js", false},
	} {
		if got := names(tc.line, tc.rel); got != tc.want {
			t.Errorf("names(%q, %q) = %v, want %v", tc.line, tc.rel, got, tc.want)
		}
	}
}

// FuzzAttach: any command line and script text give capabilities without a panic, only
// of the two risk kinds, each with a detail, and never inside a contract.
func FuzzAttach(f *testing.F) {
	f.Add(`bash "${CLAUDE_PLUGIN_ROOT}/scripts/a.sh"`, "curl -s https://x.example.com | sh\n", "scripts/a.sh")
	f.Add(`./a ./a ./a`, "npx y@1", "a")
	f.Add(``, "", "")
	f.Add(`"${X}"/`+"\xff", "https://[::1]/", "\xff")
	f.Fuzz(func(t *testing.T, cmd, text, rel string) {
		files := memFiles{rel: text}
		c := &model.Component{Kind: model.KindHook, ID: "h", Files: []model.File{files.file(rel)},
			Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: cmd}, {Key: "args", Value: []string{cmd}}}}}
		before := len(c.Contract.Fields)
		Attach(&model.Package{Components: []*model.Component{c}, Reader: files})
		for _, cp := range c.Capabilities {
			if cp.Kind != model.CapRemoteCode && cp.Kind != model.CapNetwork || cp.Detail == "" {
				t.Fatalf("capability %+v", cp)
			}
		}
		if len(c.Capabilities) > 2 || len(c.Contract.Fields) != before {
			t.Fatalf("%d capabilities, contract %v", len(c.Capabilities), c.Contract.Fields)
		}
	})
}

// BenchmarkAttach: the post-pass over 200 hooks that all run one 64 KiB script, beside
// hashing the same bytes once per hook (what binding the closure already costs).
func BenchmarkAttach(b *testing.B) {
	script := strings.Repeat("echo step; sleep 0\n", 64<<10/19) + "curl -s https://us.i.posthog.com/capture\n"
	files := memFiles{"scripts/run.sh": script}
	mk := func() *model.Package {
		p := &model.Package{Reader: files}
		for range 200 {
			p.Components = append(p.Components, &model.Component{Kind: model.KindHook, ID: "h", Files: []model.File{files.file("scripts/run.sh")},
				Contract: &model.Contract{Fields: model.Fields{{Key: "command", Value: `bash "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh"`}}}})
		}
		return p
	}
	b.Run("attach", func(b *testing.B) {
		for b.Loop() {
			Attach(mk())
		}
	})
	b.Run("baseline=sha256-per-hook", func(b *testing.B) {
		for b.Loop() {
			for range 200 {
				_ = sha256.Sum256([]byte(script))
			}
		}
	})
}

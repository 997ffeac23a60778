package agentplugins

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"reflect"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// TestServerDisplay checks the reviewer-facing account of servers: expansion beside the
// literal, capabilities, summaries, contracts and per-client support.
func TestServerDisplay(t *testing.T) {
	pkg := Load("testdata/cases/servers", Options{DataDir: "/data"})
	root := pkg.Root
	c := pkg.Component(model.KindMCPServer, "valid-stdio-bundled")
	get := func(c *model.Component, k string) any { v, _ := c.Details.Get(k); return v }
	if got := get(c, "args (expanded)"); !reflect.DeepEqual(got, []string{"--root", root, "${HOME}"}) {
		t.Errorf("args expanded = %v", got)
	}
	if got := get(c, "args"); !reflect.DeepEqual(got, []string{"--root", "${PLUGIN_ROOT}", "${HOME}"}) {
		t.Errorf("args literal = %v", got)
	}
	if got := get(c, "cwd (expanded)"); got != "./data" {
		t.Errorf("cwd expanded = %v", got)
	}
	env, _ := get(c, "env (expanded)").(model.Fields)
	if v, _ := env.Get("CONFIG"); v != root+"/c.json" {
		t.Errorf("env expanded CONFIG = %v", v)
	}
	data, _ := os.ReadFile("testdata/cases/servers/bin/server")
	sum := sha256.Sum256(data)
	// The closure is every plugin file, the two JSON files included.
	if len(c.Files) != 4 || c.Files[0].Path != "bin/server" || c.Files[0].SHA256 != hex.EncodeToString(sum[:]) || !c.Files[0].Exec || c.Files[1].Path != "data/.keep" || c.Files[2].Path != "mcp.json" || c.Files[3].Path != "plugin.json" {
		t.Errorf("files = %+v", c.Files)
	}
	if c.Contract == nil || !reflect.DeepEqual(c.Contract.Files, c.Files) {
		t.Fatalf("contract = %+v", c.Contract)
	}
	if v, _ := c.Contract.Fields.Get("env"); !reflect.DeepEqual(v, model.Fields{{Key: "CONFIG", Value: "${PLUGIN_ROOT}/c.json"}}) {
		t.Errorf("contract env = %v", v)
	}
	if _, err := c.Contract.Digest(); err != nil {
		t.Errorf("digest: %v", err)
	}
	if !strings.Contains(c.Summary[0], "Starts `./bin/server --root ${PLUGIN_ROOT} ${HOME}` as a local process") || !strings.Contains(c.Summary[0], "CONFIG") {
		t.Errorf("summary = %q", c.Summary)
	}
	if c.Capabilities[0].Kind != model.CapServerLaunch || c.Capabilities[1].Kind != model.CapEnv || c.Capabilities[1].Scope[0] != "CONFIG" {
		t.Errorf("capabilities = %+v", c.Capabilities)
	}

	d := pkg.Component(model.KindMCPServer, "valid-cwd-data")
	if got := get(d, "cwd (expanded)"); got != "/data/servers/cache" {
		t.Errorf("PLUGIN_DATA cwd expanded = %v", got)
	}
	if _, err := os.Stat("/data/servers"); err == nil {
		t.Errorf("validation must never create the data directory")
	}

	h := pkg.Component(model.KindMCPServer, "valid-https")
	if !strings.Contains(h.Summary[0], "Connects to https://mcp.example.com/mcp") || !strings.Contains(h.Summary[0], "sending headers X-Tenant") {
		t.Errorf("remote summary = %q", h.Summary)
	}
	if h.Capabilities[0].Kind != model.CapRemoteConnect || !reflect.DeepEqual(h.Capabilities[0].Scope, []string{"mcp.example.com", "X-Tenant"}) {
		t.Errorf("remote capabilities = %+v", h.Capabilities)
	}
	support := func(c *model.Component) map[string]model.SupportStatus {
		m := map[string]model.SupportStatus{}
		for _, s := range c.Support {
			m[s.Provider] = s.Status
		}
		return m
	}
	// Headers: DSH and Pi skip header-bearing remote entries; Lola runs them.
	if s := support(h); s[clientDSH] != model.NotSupported || s[clientPi] != model.NotSupported || s[clientLola] != model.Supported {
		t.Errorf("header-bearing remote support = %v", s)
	}
	if s := support(pkg.Component(model.KindMCPServer, "valid-http-localhost")); s[clientDSH] != model.Supported || s[clientPi] != model.Supported {
		t.Errorf("headerless streamable-http support = %v", s)
	}
	if s := support(pkg.Component(model.KindMCPServer, "valid-http-loopback-v4")); s[clientDSH] != model.NotSupported || s[clientPi] != model.NotSupported {
		t.Errorf("sse support = %v", s)
	}
	if s := support(pkg.Component(model.KindMCPServer, "valid-stdio-bare")); s[clientDSH] != model.Supported || s[clientLola] != model.Supported || s[clientPi] != model.Supported {
		t.Errorf("stdio support = %v", s)
	}
}

func TestExtensions(t *testing.T) {
	pkg := Load("testdata/cases/extension-namespaces", Options{})
	for ns, owner := range map[string]string{"dev.pi.agent": "Pi", "com.anthropic.claude-code": "Anthropic Claude Code", "dev.getlola": "Lola", "com.example.other": "unknown client"} {
		c := pkg.Component(model.KindExtension, ns)
		if c == nil {
			t.Errorf("extension %s not listed", ns)
			continue
		}
		if o, _ := c.Details.Get("owner"); o != owner {
			t.Errorf("%s owner %v, want %s", ns, o, owner)
		}
		if c.Contract != nil || c.Validity != model.Valid {
			t.Errorf("%s: extensions are inert valid data without a contract", ns)
		}
	}
	if _, ok := pkg.Component(model.KindExtension, "dev.getlola").Details.Get("directory"); !ok {
		t.Errorf("dev.getlola/ directory not shown")
	}
}

// TestExtensionDirectoryOnly: Pi and Lola read a namespace only through the manifest's
// extensions object, so a bare namespace directory is not applicable to them, with the
// reason; declared data is supported.
func TestExtensionDirectoryOnly(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p", "extensions": {"com.openai": {"commands": "./c"}}}`)
	loadertest.WriteFile(t, dir+"/dev.pi.agent/prompts/a.md", "prompt")
	loadertest.WriteFile(t, dir+"/dev.getlola/commands/c.md", "command")
	loadertest.WriteFile(t, dir+"/com.openai/c.md", "command")
	pkg := Load(dir, Options{})
	for _, tc := range []struct {
		ns, client string
		status     model.SupportStatus
	}{
		{"dev.pi.agent", clientPi, model.NotApplicable},
		{"dev.getlola", clientLola, model.NotApplicable},
		{"com.openai", clientLola, model.Supported},
	} {
		c := pkg.Component(model.KindExtension, tc.ns)
		if c == nil {
			t.Fatalf("%s not listed", tc.ns)
		}
		s := supportOf(c, tc.client)
		if s.Status != tc.status {
			t.Errorf("%s: %s support %+v, want %s", tc.ns, tc.client, s, tc.status)
		}
		if tc.status == model.NotApplicable && !strings.Contains(s.Detail, "declares nothing") {
			t.Errorf("%s: detail %q does not say why", tc.ns, s.Detail)
		}
		if c.Contract != nil {
			t.Errorf("%s: extensions stay inert", tc.ns)
		}
	}
}

func TestExpandIsSinglePass(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", manifestText("p"))
	// A data directory whose own name holds a placeholder must not be expanded again.
	l := &loader{dataDir: "/d/${PLUGIN_ROOT}"}
	root := mustRoot(t, dir)
	l.root = root
	got := l.expand("${PLUGIN_DATA}:${PLUGIN_ROOT}:${PLUGIN_ROOTS}:$PLUGIN_ROOT")
	want := "/d/${PLUGIN_ROOT}:" + root.Path() + ":${PLUGIN_ROOTS}:$PLUGIN_ROOT"
	if got != want {
		t.Errorf("expand = %q, want %q", got, want)
	}
}

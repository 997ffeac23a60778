package agentplugins

import (
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/internal/loadertest"
)

// answer is one client's expected verdict; detail "" means "any detail".
type answer struct {
	status model.SupportStatus
	detail string
}

func checkSupport(t *testing.T, c *model.Component, want map[string]answer) {
	t.Helper()
	if len(c.Support) != len(clients) {
		t.Errorf("%d support answers, want one per client (%v)", len(c.Support), clients)
	}
	for client, w := range want {
		s := supportOf(c, client)
		if s.Status != w.status || w.detail != "" && s.Detail != w.detail {
			t.Errorf("%s: %s %q\nwant %s %q", client, s.Status, s.Detail, w.status, w.detail)
		}
		if client == clientCodex && s.Version != "0.169.0" {
			t.Errorf("Codex answer without its version: %+v", s)
		}
	}
}

// TestClientsNamed: Codex 0.169.0 answers beside DSH, Lola and Pi; a
// skipped skill's summary says which clients skip it and which load it; Codex tolerates
// unknown frontmatter keys, lists no sse server, and drops symlinks when it caches a
// plugin, so every component that goes through one is unsupported by Codex.
func TestClientsNamed(t *testing.T) {
	pkg := Load("testdata/clients", Options{DataDir: "/data"})
	if !pkg.Valid() {
		t.Fatalf("two skipped skills leave the plugin valid: %v", loadertest.Codes(pkg))
	}
	ok := answer{model.Supported, ""}
	no := answer{model.NotSupported, ""}
	cache := func(link string) answer {
		return answer{model.NotSupported, "Codex 0.169.0 drops every symlink when it copies a plugin into its cache, so " + link + ", which goes through a symlink here, does not exist where Codex loads it."}
	}
	for _, tc := range []struct {
		ref      string
		validity model.Validity
		summary  string // the first summary line, "" to skip the check
		want     map[string]answer
	}{
		{"skill:plain", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: ok}},
		{"skill:unknown-key", model.Skipped,
			"Skipped: this skill does not conform to the Agent Skills specification (see its diagnostics); DSH, Lola and Pi skip it; Codex 0.169.0 loads it.",
			map[string]answer{clientDSH: no, clientLola: no,
				clientPi:    {model.NotSupported, "Pi validates the frontmatter against Agent Skills and skips this skill: the skill does not conform to the Agent Skills specification (Unexpected field 'version' in frontmatter; the specification defines only name, description, license, compatibility, metadata and allowed-tools. skills-ref and Pi reject the skill for it; " + model.ClientAt(model.ClientCodex, model.Codex169) + " and " + model.ClientAt(model.ClientClaudeCode, model.ClaudeCode328) + " load the skill and ignore the field)."},
				clientCodex: {model.Supported, "Codex 0.169.0 loads skills whose frontmatter has unknown keys and ignores those keys."}}},
		{"skill:name-mismatch", model.Skipped,
			"Skipped: this skill does not conform to the Agent Skills specification (see its diagnostics); DSH, Lola, Pi and Codex 0.169.0 skip it.",
			map[string]answer{clientDSH: no, clientLola: no, clientPi: no,
				clientCodex: {model.NotSupported, "vouch predicts Codex 0.169.0 skips it: the skill does not conform to the Agent Skills specification (Skill name 'translator' must match its directory name 'name-mismatch'; rename one of them), and Codex was observed to tolerate only unknown frontmatter keys."}}},
		{"skill:linked", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: cache("skills/linked")}},
		{"skill:file-link", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: cache("skills/file-link/helper.sh")}},
		{"mcp-server:direct", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: ok}},
		{"mcp-server:command-link", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: cache("./bin/server")}},
		{"mcp-server:cwd-link", model.Valid, "", map[string]answer{clientCodex: cache("./linkdir")}},
		{"mcp-server:arg-link", model.Valid, "", map[string]answer{clientCodex: cache("${PLUGIN_ROOT}/skills/file-link/helper.sh")}},
		{"mcp-server:remote", model.Valid, "", map[string]answer{clientDSH: ok, clientLola: ok, clientPi: ok, clientCodex: ok}},
		{"mcp-server:legacy", model.Valid, "", map[string]answer{clientDSH: no, clientLola: ok, clientPi: no,
			clientCodex: {model.NotSupported, "Codex 0.169.0 lists no sse server: the legacy HTTP+SSE entry is not loaded."}}},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			c := find(pkg, tc.ref)
			if c == nil {
				t.Fatalf("not listed: %v", keys(pkg))
			}
			if c.Validity != tc.validity {
				t.Errorf("validity %s, want %s", c.Validity, tc.validity)
			}
			if tc.summary != "" && (len(c.Summary) == 0 || c.Summary[0] != tc.summary) {
				t.Errorf("summary %q\nwant %q", c.Summary, tc.summary)
			}
			checkSupport(t, c, tc.want)
		})
	}
}

// TestSkippedSummariesNameClients: no summary of a skipped component says "clients" or
// "no client" without naming them.
func TestSkippedSummariesNameClients(t *testing.T) {
	for _, dir := range []string{"testdata/clients", "testdata/cases/servers", "testdata/cases/mcp-version-mismatch", "../../examples/agent-plugins/broken-command-symlink"} {
		pkg := Load(dir, Options{})
		for _, c := range pkg.Components {
			if c.Validity == model.Valid || len(c.Summary) == 0 {
				continue
			}
			s := c.Summary[0]
			if !strings.HasPrefix(s, "Skipped: ") || !strings.Contains(s, "DSH") || !strings.Contains(s, "Codex 0.169.0") || strings.Contains(s, "no client") {
				t.Errorf("%s %s: summary %q does not name the clients", dir, c.ID, s)
			}
		}
	}
}

// TestPiPredictions: skills valid under Agent Skills (at most a warning)
// that Pi's loader skips, each with the reason; their neighbours that Pi loads.
func TestPiPredictions(t *testing.T) {
	pkg := Load("testdata/pi-predictions", Options{})
	for _, tc := range []struct {
		id, code, pi string // code: the warning vouch gives; pi: "" when Pi loads it
	}{
		{"123", "skill-field-not-string", `Pi skips this skill: its name "123" is not a YAML string (quote it).`},
		{"456", "", ""},
		{"compat-empty", "skill-compatibility-empty", "Pi skips this skill: its compatibility field is present but empty."},
		{"compat-set", "", ""},
		{"metadata-number", "skill-metadata-value-not-string", `Pi skips this skill: the metadata value of "version" is not a YAML string (quote it).`},
		{"metadata-string", "", ""},
		{"emoji-description", "skill-description-utf16-long", "Pi skips this skill: its description is 2048 UTF-16 code units (JavaScript .length), over the limit of 1024, although it has only 1024 characters."},
		{"emoji-1025-units", "skill-description-utf16-long", "Pi skips this skill: its description is 1025 UTF-16 code units (JavaScript .length), over the limit of 1024, although it has only 1024 characters."},
		{"ascii-1024", "", ""},
	} {
		t.Run(tc.id, func(t *testing.T) {
			c := pkg.Component(model.KindSkill, tc.id)
			if c == nil || c.Validity != model.Valid {
				t.Fatalf("component %+v: want a valid skill", c)
			}
			var got []string
			for _, d := range c.Diagnostics {
				if d.IsError() {
					t.Errorf("unexpected error %s", d.Code)
				}
				got = append(got, d.Code)
			}
			if tc.code == "" && len(got) != 0 || tc.code != "" && (len(got) != 1 || got[0] != tc.code) {
				t.Errorf("diagnostics %v, want %q", got, tc.code)
			}
			pi := answer{model.Supported, ""}
			if tc.pi != "" {
				pi = answer{model.NotSupported, tc.pi}
			}
			checkSupport(t, c, map[string]answer{clientPi: pi, clientDSH: {model.Supported, ""}, clientLola: {model.Supported, ""}, clientCodex: {model.Supported, ""}})
		})
	}
}

// TestCodexPrefersRootManifest: a folder with both manifests says which one Codex reads.
func TestCodexPrefersRootManifest(t *testing.T) {
	dir := t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", manifestText("both"))
	loadertest.WriteFile(t, dir+"/.codex-plugin/plugin.json", `{"name": "both"}`)
	pkg := Load(dir, Options{})
	const want = "Codex 0.169.0 reads this root plugin.json and prefers it over .codex-plugin/plugin.json, so Codex loads the Agent Plugins view of this folder."
	if len(pkg.Diagnostics) != 1 || pkg.Diagnostics[0].Code != "codex-prefers-root-manifest" || pkg.Diagnostics[0].Message != want || pkg.Diagnostics[0].Severity != model.SeverityInfo {
		t.Errorf("diagnostics %+v", pkg.Diagnostics)
	}
	dir = t.TempDir()
	loadertest.WriteFile(t, dir+"/plugin.json", manifestText("root-only"))
	if pkg := Load(dir, Options{}); len(pkg.Diagnostics) != 0 {
		t.Errorf("root manifest alone: %+v", pkg.Diagnostics)
	}
}

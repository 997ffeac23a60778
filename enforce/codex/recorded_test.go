package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	rcodex "vouch/review/codex"
)

// recorded is what scripts/codex-e2e wrote: Codex 0.171.0's hooks/list after each step
// of enforcing testdata/plugins/guard.
type recorded struct {
	Client string `json:"client"`
	Steps  []struct {
		Step  string `json:"step"`
		Hooks []struct {
			Key, TrustStatus, CurrentHash string
		} `json:"hooks"`
		Ran           []string `json:"ran"`            // what the plugin's Stop hook wrote in a real session
		ServerStarted bool     `json:"server_started"` // whether that session started its MCP server
		StatusCodes   []string `json:"status_codes"`   // vouch enforce status's problem codes, where recorded
	} `json:"steps"`
}

// The real client's answers, recorded, hold vouch to them without the client: the keys,
// definition hashes and fingerprint vouch computes for the test plugin are the ones
// Codex reported; Codex trusted what vouch wrote and ran the hook from its copy of the
// staged folder (an edit of the source changed nothing); it skipped the hooks after one
// byte of its copy changed (and that fingerprint is vouch's too); after a revoke alone
// it trusted and ran nothing of the plugin, and after sync listed nothing of it. With
// --partial the unapproved hook was untrusted and the unapproved server not started, until
// a trusted project switched the server back on, which vouch's status named.
func TestRecordedCodexAnswers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "clients", "codex-0.171.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec recorded
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Client != "codex-cli 0.171.0" || len(rec.Steps) != 8 {
		t.Fatalf("record of %q with %d steps", rec.Client, len(rec.Steps))
	}
	root := filepath.Join(t.TempDir(), "guard")
	testtree.Copy(t, filepath.Join("testdata", "plugins", "guard"), root)
	pkg := rcodex.Load(root, rcodex.Options{})
	plan, err := PlanPlugin(pkg, allApproved(pkg), false)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := Fingerprint(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, h := range plan.Entries(fp).Hooks {
		want[h.Key] = h.TrustedHash + "/" + h.TrustedContentHash
	}
	if err := os.WriteFile(filepath.Join(root, "skills/notes/SKILL.md"), append(mustRead(t, filepath.Join(root, "skills/notes/SKILL.md")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	edited, err := Fingerprint(root)
	if err != nil {
		t.Fatal(err)
	}
	const pre, stop = "guard@vouch:hooks/hooks.json:pre_tool_use:0:0", "guard@vouch:hooks/hooks.json:stop:0:0"
	all := func(st string) map[string]string { return map[string]string{pre: st, stop: st} }
	expect := map[string]struct {
		hooks  map[string]string // key -> trustStatus
		ran    bool              // the Stop hook ran, from Codex's copy of vouch's folder
		server bool
		codes  string
	}{
		"added":           {all("trusted"), true, true, ""},
		"source-edited":   {all("trusted"), true, true, ""},
		"cache-edited":    {all("modified"), false, true, ""}, // servers have no content binding
		"re-added":        {all("trusted"), true, true, ""},
		"revoked":         {all("untrusted"), false, false, ""},
		"synced":          {map[string]string{}, false, false, ""},
		"partial":         {map[string]string{pre: "trusted", stop: "untrusted"}, false, false, ""},
		"project-trusted": {map[string]string{pre: "trusted", stop: "untrusted"}, false, true, "project-override"},
	}
	ranFromCopy := "stop hook ran from $CODEX_HOME/plugins/cache/vouch/guard/1.2.0/hooks/stop.sh"
	for _, s := range rec.Steps {
		x, ok := expect[s.Step]
		if !ok {
			t.Errorf("unexpected step %s", s.Step)
			continue
		}
		if x.ran && (len(s.Ran) != 1 || s.Ran[0] != ranFromCopy) || !x.ran && len(s.Ran) != 0 {
			t.Errorf("%s: the session ran %q", s.Step, s.Ran)
		}
		if s.ServerStarted != x.server {
			t.Errorf("%s: server started = %v, want %v", s.Step, s.ServerStarted, x.server)
		}
		if strings.Join(s.StatusCodes, ",") != x.codes {
			t.Errorf("%s: status codes %v, want %q", s.Step, s.StatusCodes, x.codes)
		}
		if len(s.Hooks) != len(x.hooks) {
			t.Errorf("%s: Codex lists %d hooks, want %d", s.Step, len(s.Hooks), len(x.hooks))
		}
		for _, h := range s.Hooks {
			w, ok := want[h.Key]
			if !ok {
				t.Errorf("%s: Codex's key %s is not one vouch writes", s.Step, h.Key)
				continue
			}
			if s.Step == "cache-edited" {
				w = strings.Split(w, "/")[0] + "/" + edited
			}
			if h.CurrentHash != w || h.TrustStatus != x.hooks[h.Key] {
				t.Errorf("%s: Codex says %s %s, vouch expects %s %s", s.Step, h.CurrentHash, h.TrustStatus, w, x.hooks[h.Key])
			}
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

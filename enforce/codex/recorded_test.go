package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	rcodex "vouch/review/codex"
	"vouch/trust"
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
		Ran []string `json:"ran"` // what the plugin's Stop hook wrote in a real session
	} `json:"steps"`
}

// The real client's answers, recorded, hold vouch to them without the client: the keys,
// definition hashes and fingerprint vouch computes for the test plugin are the ones
// Codex reported; Codex trusted what vouch wrote and ran the hook from its copy of the
// staged folder (an edit of the source changed nothing); it skipped the hooks after one
// byte of its copy changed (and that fingerprint is vouch's too); after a revoke alone
// it trusted and ran nothing of the plugin, and after sync listed nothing of it.
func TestRecordedCodexAnswers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "clients", "codex-0.171.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec recorded
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Client != "codex-cli 0.171.0" || len(rec.Steps) != 6 {
		t.Fatalf("record of %q with %d steps", rec.Client, len(rec.Steps))
	}
	root := filepath.Join(t.TempDir(), "guard")
	copyTree(t, filepath.Join("testdata", "plugins", "guard"), root)
	pkg := rcodex.Load(root, rcodex.Options{})
	statuses := map[string]trust.Status{}
	for _, c := range pkg.Components {
		if c.Contract != nil {
			statuses[pkg.Ref(c)] = trust.Status{Authorization: model.Approved, Digest: trust.DigestOf(c)}
		}
	}
	plan, err := PlanPlugin(pkg, statuses, false)
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
	wantStatus := map[string]string{"added": "trusted", "source-edited": "trusted", "cache-edited": "modified", "re-added": "trusted", "revoked": "untrusted"}
	ranFromCopy := "stop hook ran from $CODEX_HOME/plugins/cache/vouch/guard/1.2.0/hooks/stop.sh"
	for _, s := range rec.Steps {
		runs := wantStatus[s.Step] == "trusted"
		if runs && (len(s.Ran) != 1 || s.Ran[0] != ranFromCopy) || !runs && len(s.Ran) != 0 {
			t.Errorf("%s: the session ran %q; want the hook from vouch's copy only when trusted", s.Step, s.Ran)
		}
		if s.Step == "synced" {
			if len(s.Hooks) != 0 {
				t.Errorf("after sync Codex still lists %d hooks", len(s.Hooks))
			}
			continue
		}
		if len(s.Hooks) != len(want) {
			t.Errorf("%s: Codex lists %d hooks, vouch trusts %d", s.Step, len(s.Hooks), len(want))
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
			if h.CurrentHash != w || h.TrustStatus != wantStatus[s.Step] {
				t.Errorf("%s: Codex says %s %s, vouch expects %s %s", s.Step, h.CurrentHash, h.TrustStatus, w, wantStatus[s.Step])
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

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/model"
)

const riskFixture = "../../review/testdata/netrisk"

// validate and status say, in text and JSON, what a hook reaches on the network: the
// host its bundled script posts to and the download it pipes to a shell, remote code
// first; the JSON follows the report schema.
func TestNetworkRiskInReports(t *testing.T) {
	home := t.TempDir()
	for _, cmd := range []string{"validate", "status"} {
		_, out, errOut := runVouch(t, home, cmd, riskFixture)
		for _, want := range []string{
			"        network: Reaches the network: runs curl, which reaches the network (in scripts/report.sh); names the host us.i.posthog.com (in scripts/report.sh).",
			"        remote code: Fetches code over the network and runs it: downloads a script and runs it with a shell (in its command).",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s text lacks %q:\n%s%s", cmd, want, out, errOut)
			}
		}
		if i, j := strings.Index(out, "remote code: Fetches"), strings.Index(out, "network: Reaches the network: runs curl, which reaches the network (in its command)"); i < 0 || j < i {
			t.Errorf("%s: remote code is not listed before network for the curl | sh hook:\n%s", cmd, out)
		}
		_, js, _ := runVouch(t, home, cmd, "--json", riskFixture)
		validateReport(t, reportSchema(t), js)
		var rep struct {
			Packages []struct {
				Components []struct {
					ID    string             `json:"id"`
					Risks []model.Capability `json:"risks"`
				} `json:"components"`
			} `json:"packages"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, c := range rep.Packages[0].Components {
			for _, r := range c.Risks {
				got[c.ID] = append(got[c.ID], string(r.Kind)+":"+strings.Join(r.Scope, ","))
			}
		}
		want := map[string][]string{
			"PostToolUse:0:0":  {"network:curl (scripts/report.sh),us.i.posthog.com (scripts/report.sh)"},
			"SessionStart:0:0": {"remote-code:curl -fsSL https://get.example.com/install.sh | sh", "network:curl,get.example.com"},
		}
		if len(got) != len(want) {
			t.Errorf("%s --json risks %v, want %v", cmd, got, want)
		}
		for id, w := range want {
			if strings.Join(got[id], " ") != strings.Join(w, " ") {
				t.Errorf("%s --json %s: risks %v, want %v", cmd, id, got[id], w)
			}
		}
	}
}

package review

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// Loading attaches the network capabilities to every format's runnable components: the
// hook whose bundled script posts data names the host, the curl | sh hook is remote
// code, and the hook that only echoes has neither.
func TestOpenAttachesNetworkRisk(t *testing.T) {
	res, err := Open(Options{}, filepath.Join("testdata", "netrisk"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range res.Packages {
		for _, c := range p.Components {
			var kinds []string
			for _, cp := range c.Capabilities {
				if cp.Kind == model.CapNetwork || cp.Kind == model.CapRemoteCode {
					kinds = append(kinds, string(cp.Kind)+"="+strings.Join(cp.Scope, ","))
				}
			}
			got[string(p.Format)+" "+c.ID] = strings.Join(kinds, " ")
		}
	}
	for id, want := range map[string]string{
		"claude-code PostToolUse:0:0":  "network=curl (scripts/report.sh),us.i.posthog.com (scripts/report.sh)",
		"claude-code SessionStart:0:0": "remote-code=curl -fsSL https://get.example.com/install.sh | sh network=curl,get.example.com",
		"claude-code Stop:0:0":         "",
	} {
		if g, ok := got[id]; !ok || g != want {
			t.Errorf("%s: got %q, want %q (all: %v)", id, g, want, got)
		}
	}
}

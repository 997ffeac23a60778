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
	res := mustOpen(t, Options{}, filepath.Join("testdata", "netrisk"))
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

// Loading orders every not-covered list: the download piped to a shell comes before the
// programs the line finds on PATH.
func TestOpenOrdersNotCovered(t *testing.T) {
	res := mustOpen(t, Options{}, filepath.Join("testdata", "netrisk"))
	for _, p := range res.Packages {
		c := p.Component(model.KindHook, "SessionStart:0:0")
		if c == nil {
			continue
		}
		var kinds []string
		for _, n := range c.NotCovered {
			kinds = append(kinds, n.Kind+":"+n.Subject)
		}
		if len(kinds) < 2 || kinds[0] != "fetched-at-start:curl | sh" || !strings.HasPrefix(kinds[len(kinds)-1], "path-program:") {
			t.Fatalf("not covered %q", kinds)
		}
		return
	}
	t.Fatal("no SessionStart hook")
}

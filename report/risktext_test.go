package report

import (
	"strings"
	"testing"

	"vouch/model"
)

// A host or command with control characters reaches the terminal escaped.
func TestNetworkRiskTextIsEscaped(t *testing.T) {
	var b strings.Builder
	printRisks(&b, Component{Risks: []model.Capability{{Kind: model.CapNetwork, Detail: "Reaches the network: names the host evil.example.com\x1b]0;pwned\x07."}}})
	if strings.ContainsAny(b.String(), "\x1b\x07") || !strings.Contains(b.String(), "network: Reaches the network") {
		t.Fatalf("risk line %q", b.String())
	}
}

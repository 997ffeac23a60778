package report

import (
	"fmt"
	"io"

	"vouch/model"
)

// riskWords name a risk capability in the text reports.
var riskWords = map[model.CapabilityKind]string{model.CapRemoteCode: "remote code", model.CapNetwork: "network"}

// printRisks writes what a component reaches on the network or fetches and runs, remote
// code first, one line each, package text escaped: the host and the command come from
// the package.
func printRisks(w io.Writer, c Component) {
	for _, r := range c.Risks {
		fmt.Fprintf(w, "        %s: %s\n", riskWords[r.Kind], safe(r.Detail))
	}
}

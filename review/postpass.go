package review

import (
	"vouch/model"
	"vouch/review/closure"
	"vouch/review/netrisk"
)

// postPass is what every loaded package gets whatever its format, so no loader has to
// know: the network risk of its runnable components, and their not-covered lists in the
// order a reviewer weighs them (code fetched at start and words decided at run time
// before the programs found on PATH).
func postPass(p *model.Package) {
	netrisk.Attach(p)
	for _, c := range p.Components {
		closure.Order(c.NotCovered)
	}
}

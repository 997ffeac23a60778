package closure

import (
	"sort"

	"vouch/model"
)

// riskRank orders a not-covered list by what a reviewer must weigh first: code fetched
// at start, a file that is missing, words the shell decides at run time, paths outside
// the package, variables that load code, run-time data; programs found on PATH (sort,
// jq, node), which nearly every command has, come last.
var riskRank = map[string]int{
	model.NotCoveredFetch:       0,
	model.NotCoveredPinned:      1,
	model.NotCoveredMissing:     2,
	model.NotCoveredUnresolved:  3,
	model.NotCoveredOutside:     4,
	model.NotCoveredCodeEnv:     5,
	model.NotCoveredPluginData:  6,
	model.NotCoveredUnlisted:    7,
	model.NotCoveredUnbound:     8,
	model.NotCoveredPathProgram: 9,
}

// Order sorts nc by riskRank, keeping the order the command runs in within one rank; a
// kind it does not know sorts just before programs on PATH.
func Order(nc []model.NotCovered) {
	rank := func(k string) int {
		if r, ok := riskRank[k]; ok {
			return r
		}
		return riskRank[model.NotCoveredPathProgram] - 1
	}
	sort.SliceStable(nc, func(i, j int) bool { return rank(nc[i].Kind) < rank(nc[j].Kind) })
}

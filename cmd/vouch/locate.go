package main

import (
	"vouch/review"
	"vouch/trust"
)

// locateRef is resolveOne for the dispatch-time gate: it loads only the packages of SOURCE
// that may hold ref (review.Locate), not the whole SOURCE, so a check in a folder of
// thousands of packages costs about one package. When none holds it, SOURCE is loaded
// whole and findRef says so as it always has, with the refs nearest to it: that path
// is a mistake to explain, not the gate's hot path.
func (a *app) locateRef(source, ref, ledger string, trustLedger bool, sourceID string) (*trust.Trust, refTarget, error) {
	if err := a.refuseWildcard(ref); err != nil {
		return nil, refTarget{}, err
	}
	t, err := a.openTrust(ledger, trustLedger)
	if err != nil {
		return nil, refTarget{}, err
	}
	lo, err := a.openOptions(sourceID)
	if err != nil {
		return nil, refTarget{}, err
	}
	want := parseRef(ref)
	res, err := review.Locate(lo, source, want.bare)
	if err != nil {
		return nil, refTarget{}, a.loadFailed(err)
	}
	for _, p := range res.Packages {
		for _, c := range p.Components {
			if want.matches(p, p.Ref(c)) {
				tg, err := a.findRef(res, source, ref)
				return t, tg, err
			}
		}
	}
	if res, err = a.loadSource(source, sourceID); err != nil {
		return nil, refTarget{}, err
	}
	tg, err := a.findRef(res, source, ref)
	return t, tg, err
}

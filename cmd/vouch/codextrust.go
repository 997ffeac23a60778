package main

import (
	"fmt"

	"vouch/model"
	"vouch/report"
	"vouch/review/codex"
)

// addCodexTrust puts Codex's own trust for each Codex hook beside vouch's answer (status
// --codex). It only reads $CODEX_HOME/config.toml.
func addCodexTrust(rep *report.Report, pkgs []*model.Package) error {
	cfg, err := codex.ReadConfig(codex.Home())
	if err != nil {
		return fmt.Errorf("Codex's config.toml could not be read (%v); fix it or run without --codex.", err)
	}
	byRef := map[string][]report.CodexTrust{}
	for _, p := range pkgs {
		for _, h := range codex.Trust(p, cfg) {
			byRef[h.Ref] = append(byRef[h.Ref], report.CodexTrust{Key: h.Key, DefinitionHash: h.DefinitionHash, Status: h.Status, Enabled: h.Enabled, Detail: h.Detail})
		}
	}
	for i := range rep.Packages {
		for j := range rep.Packages[i].Components {
			c := &rep.Packages[i].Components[j]
			c.Codex = byRef[c.Ref]
		}
	}
	return nil
}

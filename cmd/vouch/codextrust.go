package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/enforce/codex"
	"vouch/model"
	"vouch/report"
	rcodex "vouch/review/codex"
	"vouch/review/fsguard"
)

// addCodexTrust puts Codex's own trust for each Codex hook beside vouch's answer (status
// --codex). It only reads $CODEX_HOME/config.toml and the installed copies. release is
// the Codex release the answers are for (the installed one when --codex found it), which
// the sentences about what Codex does name; "" names the release enforcement observed.
func addCodexTrust(rep *report.Report, pkgs []*model.Package, release string) error {
	if release == "" {
		release = codex.Version
	}
	at := model.ClientLabel(model.ClientCodex, release)
	home := rcodex.Home()
	cfg, err := rcodex.ReadConfig(home)
	if err != nil {
		return fmt.Errorf("Codex's config.toml could not be read (%v); fix it or run without --codex.", err)
	}
	prints := map[string]string{} // installed copy's fingerprint by plugin id, "" when unknown
	byRef := map[string][]report.CodexTrust{}
	for _, p := range pkgs {
		// A Claude Code plugin installed in Codex as it is has Codex hook trust too.
		hooks := append(rcodex.Trust(p, cfg), rcodex.TrustOfClaude(p, cfg, fsguard.DefaultLimits())...)
		for _, h := range hooks {
			if h.Status == rcodex.TrustDefinition {
				judgeContent(&h, cfg.States[h.Key].TrustedContentHash, installedPrint(home, h.Key, prints), at)
			}
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

// judgeContent settles a hook whose definition Codex trusts: Codex [codex.Version] runs it only
// while trusted_content_hash is the fingerprint of the copy it runs. at names the Codex
// release the sentence is about, as model.ClientLabel writes it.
func judgeContent(h *rcodex.HookTrust, trusted, installed, at string) {
	switch {
	case installed == "":
	case installed == trusted:
		h.Status, h.Detail = rcodex.TrustTrusted, "Codex trusts this definition and the installed copy's fingerprint is "+trusted+": "+at+" runs it."
	default:
		h.Status, h.Detail = rcodex.TrustModified, "Codex trusted this definition for plugin files with fingerprint "+trusted+"; the installed copy's is "+installed+", so "+at+" skips the hook as modified."
	}
}

// installedPrint is the fingerprint of the installed copy of the plugin a trust key names
// ($CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>/, when there is exactly
// one version), "" when it cannot be known.
func installedPrint(home, key string, memo map[string]string) string {
	id, _, _ := strings.Cut(key, ":")
	if fp, ok := memo[id]; ok {
		return fp
	}
	memo[id] = ""
	name, mk, ok := strings.Cut(id, "@")
	if !ok || name == "" || mk == "" || strings.ContainsAny(id, `/\`) || name == ".." || mk == ".." {
		return ""
	}
	base := filepath.Join(home, "plugins", "cache", mk, name)
	ents, err := os.ReadDir(base)
	if err != nil {
		return ""
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		return ""
	}
	fp, err := codex.Fingerprint(filepath.Join(base, dirs[0]))
	if err == nil {
		memo[id] = fp
	}
	return memo[id]
}

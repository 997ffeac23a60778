package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// oracleRecord is testdata/oracle/claude-2.1.328.json: for every fixture and example,
// what Claude Code 2.1.328 lists (`claude plugin validate --json`) and what it loads
// (`claude -p --plugin-dir DIR --debug-file LOG`, offline, in a scratch HOME). Its "how"
// field says how the counts were taken; /tmp scripts recorded it, nothing here runs Claude.
type oracleRecord struct {
	Claude string
	Cases  map[string]struct {
		Validator struct {
			Success, Manifest bool
			Lists             map[string]int
		}
		Runtime struct {
			Loads  map[string]int
			Errors []string
		}
	}
}

// comparedKinds are the kinds both the validator and the runtime's log count.
var comparedKinds = []model.Kind{model.KindHook, model.KindMCPServer, model.KindLSPServer, model.KindSkill, model.KindCommand, model.KindAgent, model.KindOutputStyle}

// TestMatchesClaude: what vouch lists as valid and run by Claude equals what Claude Code
// loads, for every recorded folder; where the validator lists something else, vouch
// says why in a diagnostic that names `claude plugin validate` (or, for hooks, the
// validator folds handlers that differ only in `if` into one row, which the issue asks
// vouch to keep apart).
func TestMatchesClaude(t *testing.T) {
	records, _ := filepath.Glob("testdata/oracle/claude-*.json")
	if len(records) == 0 {
		t.Fatal("no recorded Claude Code release")
	}
	claude, _ := model.LookupClient(model.ClientClaudeCode)
	for _, file := range records {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var rec oracleRecord
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		if !claude.Models(rec.Claude) || len(rec.Cases) < 40 {
			t.Fatalf("%s is for Claude %s (modelled: %v) with %d cases", file, rec.Claude, claude.Versions, len(rec.Cases))
		}
		t.Run(rec.Claude, func(t *testing.T) { matchRecord(t, rec) })
	}
}

// matchRecord compares vouch, answering for the recorded release, with one record.
func matchRecord(t *testing.T, rec oracleRecord) {
	for name, c := range rec.Cases {
		dir := filepath.Join("..", "..", filepath.FromSlash(name))
		if _, err := os.Stat(filepath.Join(dir, marketplaceFile)); err == nil {
			// --plugin-dir and validate read a marketplace root as a marketplace, not its
			// plugins; those are compared through their own folders.
			continue
		}
		t.Run(filepath.Base(name), func(t *testing.T) {
			pkgs := Load(dir, Options{ClaudeVersion: rec.Claude})
			got := map[string]int{}
			ifTwins := 0
			explained := false
			for _, p := range pkgs {
				for _, d := range p.Diagnostics {
					explained = explained || strings.Contains(d.Message, "claude plugin validate")
				}
				commands := map[string]int{}
				for _, comp := range p.Components {
					for _, d := range comp.Diagnostics {
						explained = explained || strings.Contains(d.Message, "claude plugin validate")
					}
					if comp.Validity != model.Valid || !supportedBy(comp, clientClaude) {
						continue
					}
					got[string(comp.Kind)]++
					if comp.Kind == model.KindHook {
						cmd, _ := comp.Details.Get("command")
						commands[fmtAny(cmd)]++
					}
				}
				for _, comp := range p.Components {
					if _, hasIf := comp.Details.Get("if"); hasIf && comp.Kind == model.KindHook {
						if cmd, _ := comp.Details.Get("command"); commands[fmtAny(cmd)] > 1 {
							ifTwins++
						}
					}
				}
			}
			dependencyMissing := false
			for _, e := range c.Runtime.Errors {
				dependencyMissing = dependencyMissing || strings.HasPrefix(e, "Dependency ")
			}
			for _, k := range comparedKinds {
				g, rt, val := got[string(k)], c.Runtime.Loads[string(k)], c.Validator.Lists[string(k)]
				switch {
				case g == rt:
				case rt == 0 && dependencyMissing && hasDiag(pkgs, "plugin-dependencies"):
					// Claude disables a plugin whose dependency is not installed; vouch lists
					// what runs once it is, and says so.
				default:
					t.Errorf("%s: vouch lists %d valid and run by Claude, Claude Code %s loads %d (errors %q)", k, g, rec.Claude, rt, c.Runtime.Errors)
				}
				if g != val && !explained && !(k == model.KindHook && g-val == ifTwins) {
					t.Errorf("%s: vouch lists %d, `claude plugin validate` %d, and no diagnostic says why", k, g, val)
				}
			}
		})
	}
}

func supportedBy(c *model.Component, provider string) bool {
	for _, s := range c.Support {
		if s.Provider == provider {
			return s.Status == model.Supported
		}
	}
	return false
}

func hasDiag(pkgs []*model.Package, code string) bool {
	for _, p := range pkgs {
		for _, d := range p.Diagnostics {
			if d.Code == code {
				return true
			}
		}
	}
	return false
}

func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

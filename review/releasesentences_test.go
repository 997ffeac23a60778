package review

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"vouch/model"
)

// releaseExemptions are the diagnostic codes whose sentences name a client without
// stating what it does (advice to the user, a spec citation), so they need no release.
// Each entry says why; an entry no sentence needs fails the test.
var releaseExemptions = map[string]string{}

// clientSentence is one text a loader wrote that a person reads: a diagnostic, a
// support answer's detail or a not-covered note.
type clientSentence struct {
	source, code, text string
	// provider and version are set for a support detail: the answer's own client and
	// the release it is for, which the console and report print in front of it.
	provider, version string
}

// TestClientSentencesNameARelease loads every example and every fixture the recorded
// client answers cover, and fails on a sentence that says what Claude Code or Codex does
// without naming one of that client's releases. A client vouch knows from a published
// description only has no release to name and is not held to this.
func TestClientSentencesNameARelease(t *testing.T) {
	used := map[string]bool{}
	named := map[string]int{}
	reported := map[string]bool{} // one report per sentence, whichever source gave it first
	for _, s := range clientSentences(t) {
		for _, c := range missingRelease(s) {
			if _, ok := releaseExemptions[s.code]; ok {
				used[s.code] = true
				continue
			}
			if key := s.code + "\x00" + c + "\x00" + s.text; !reported[key] {
				reported[key] = true
				t.Errorf("%s: %s: names %s without one of its releases: %q", s.source, s.code, c, s.text)
			}
		}
		for _, c := range model.Clients() {
			if len(c.Versions) > 0 && namesClient(s.text, c.Name) {
				named[c.ID]++
			}
		}
	}
	for code, why := range releaseExemptions {
		if !used[code] {
			t.Errorf("exemption %s (%s) excuses no sentence any more: remove it", code, why)
		}
	}
	// The sources must reach the loaders: a run that read no sentence about a client
	// would pass without holding anything.
	for _, id := range []string{model.ClientClaudeCode, model.ClientCodex} {
		if named[id] < 20 {
			t.Errorf("only %d sentences name %s: the sources did not load", named[id], model.ClientName(id))
		}
	}
}

// clientSentences opens every example with the default releases, and every recorded
// fixture with the release it was recorded on, as the comparison with the recorded
// answers does, and returns every sentence the loaders wrote.
func clientSentences(t *testing.T) []clientSentence {
	t.Helper()
	type run struct {
		dir  string
		opts Options
	}
	var runs []run
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*"))
	for _, e := range examples {
		if filepath.Ext(e) != ".md" {
			runs = append(runs, run{e, Options{}})
		}
	}
	for _, ix := range recordedReleases(t) {
		for _, f := range ix.Fixtures {
			runs = append(runs, run{filepath.Join("..", filepath.FromSlash(f)), Options{ClientVersions: map[string]string{ix.Client: ix.Version}}})
		}
	}
	var out []clientSentence
	for _, r := range runs {
		if _, err := os.Lstat(r.dir); err != nil {
			t.Errorf("%s: %v", r.dir, err)
			continue
		}
		res, err := Open(r.opts, r.dir)
		if err != nil {
			t.Errorf("%s: %v", r.dir, err)
			continue
		}
		out = append(out, resultSentences(r.dir, res)...)
	}
	return out
}

func resultSentences(src string, res *Result) []clientSentence {
	var out []clientSentence
	diags := func(ds []model.Diagnostic) {
		for _, d := range ds {
			out = append(out, clientSentence{source: src, code: d.Code, text: d.Message})
		}
	}
	diags(res.Diagnostics)
	for _, p := range res.Packages {
		diags(p.Diagnostics)
		for _, c := range p.Components {
			diags(c.Diagnostics)
			for _, s := range c.Support {
				out = append(out, clientSentence{source: src, code: "support:" + s.Provider, text: s.Detail, provider: s.Provider, version: s.Version})
			}
			for _, n := range c.NotCovered {
				out = append(out, clientSentence{source: src, code: "not-covered:" + n.Kind, text: n.Detail})
			}
		}
	}
	return out
}

// releaseRange is a release given as a range ("2.1.154 or later"), which names the
// releases a rule holds for whether or not vouch models them.
var releaseRange = regexp.MustCompile(`\b\d+\.\d+\.\d+ (or|and) later\b`)

// missingRelease lists the clients with observed releases that s names without naming
// one of their releases. A support detail about its own client names the release its
// answer is for, printed in front of it ("Claude Code 2.1.332: supported — …").
func missingRelease(s clientSentence) []string {
	var out []string
	for _, c := range model.Clients() {
		if len(c.Versions) == 0 || !namesClient(s.text, c.Name) {
			continue
		}
		if s.provider == c.ID && c.Models(s.version) {
			continue
		}
		if releaseRange.MatchString(s.text) || namesOneOf(s.text, c.Versions) {
			continue
		}
		out = append(out, c.Name)
	}
	return out
}

func namesClient(text, name string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
}

func namesOneOf(text string, versions []string) bool {
	for _, v := range versions {
		if regexp.MustCompile(`(^|[^.\d])` + regexp.QuoteMeta(v) + `($|[^.\d])`).MatchString(text) {
			return true
		}
	}
	return false
}

// TestMissingRelease holds the check itself to sentences whose answer is known.
func TestMissingRelease(t *testing.T) {
	claude, codex := model.ClientName(model.ClientClaudeCode), model.ClientName(model.ClientCodex)
	for _, tc := range []struct {
		name string
		s    clientSentence
		want string
	}{
		{"claim without a release", clientSentence{text: "Codex ignores it."}, codex},
		{"claim with a modelled release", clientSentence{text: model.ClientAt(model.ClientCodex, model.Codex169) + " ignores it."}, ""},
		{"a range", clientSentence{text: "Claude Code (2.1.154 or later) installs it disabled."}, ""},
		{"another client's release does not count", clientSentence{text: model.Releases(model.ClientCodex, model.Codex169) + " run it; Claude Code does not."}, claude},
		{"a longer version is not the release", clientSentence{text: "Codex " + model.Codex171 + "1 ignores it."}, codex},
		{"a truncated release is not the release", clientSentence{text: "Codex " + strings.TrimSuffix(model.Codex169, ".0") + " ignores it."}, codex},
		{"support detail of its own modelled release", clientSentence{text: "Codex runs it.", provider: model.ClientCodex, version: model.Codex171}, ""},
		{"support detail of a release vouch does not model", clientSentence{text: "Codex runs it.", provider: model.ClientCodex, version: "9.9.9"}, codex},
		{"support detail naming the other client", clientSentence{text: "Codex runs it; Claude Code ignores it.", provider: model.ClientCodex, version: model.Codex171}, claude},
		{"a client known from its description only", clientSentence{text: "Pi rejects the skill."}, ""},
		{"no client", clientSentence{text: "The manifest is not valid JSON."}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(missingRelease(tc.s), ", "); got != tc.want {
				t.Errorf("missingRelease(%q) = %q, want %q", tc.s.text, got, tc.want)
			}
		})
	}
}

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

// quotedPrefixes start the summary lines that quote the package's own words (a command's
// or agent's frontmatter description): the author wrote what follows, not vouch, so it
// states nothing vouch observed. Each entry says why; an entry no line needs fails the test.
var quotedPrefixes = map[string]string{
	"Description: ": "a command's or agent's frontmatter description, quoted",
}

// clientSentence is one text a loader wrote that a person reads: a diagnostic, a
// support answer's detail, a not-covered note, a summary line or a capability's detail.
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
	used, quoted := map[string]bool{}, map[string]bool{}
	named := map[string]int{}
	namedIn := map[string]int{}   // sentences naming a client, by the kind of text they are
	reported := map[string]bool{} // one report per sentence, whichever source gave it first
	for _, s := range clientSentences(t) {
		if p := quotedPrefix(s); p != "" {
			quoted[p] = true
			continue
		}
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
				namedIn[textKind(s.code)]++
			}
		}
	}
	for code, why := range releaseExemptions {
		if !used[code] {
			t.Errorf("exemption %s (%s) excuses no sentence any more: remove it", code, why)
		}
	}
	for p, why := range quotedPrefixes {
		if !quoted[p] {
			t.Errorf("quoted prefix %q (%s) starts no summary line any more: remove it", p, why)
		}
	}
	// The sources must reach the loaders: a run that read no sentence about a client
	// would pass without holding anything.
	for _, id := range []string{model.ClientClaudeCode, model.ClientCodex} {
		if named[id] < 20 {
			t.Errorf("only %d sentences name %s: the sources did not load", named[id], model.ClientName(id))
		}
	}
	for _, kind := range []string{"summary", "capability"} {
		if namedIn[kind] < 10 {
			t.Errorf("only %d %s texts name a client: the components' %s texts were not read", namedIn[kind], kind, kind)
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
			for _, line := range c.Summary {
				out = append(out, clientSentence{source: src, code: "summary:" + string(c.Kind), text: line})
			}
			for _, cp := range c.Capabilities {
				out = append(out, clientSentence{source: src, code: "capability:" + string(cp.Kind), text: cp.Detail})
			}
		}
	}
	return out
}

// textKind is the kind of text a sentence's code says it is: "summary", "capability",
// "support", "not-covered", or "diagnostic" for a diagnostic's code.
func textKind(code string) string {
	if k, _, ok := strings.Cut(code, ":"); ok {
		return k
	}
	return "diagnostic"
}

// quotedPrefix is the entry of quotedPrefixes that starts s, when s is a summary line.
func quotedPrefix(s clientSentence) string {
	if !strings.HasPrefix(s.code, "summary:") {
		return ""
	}
	for p := range quotedPrefixes {
		if strings.HasPrefix(s.text, p) {
			return p
		}
	}
	return ""
}

// quotedCode is a span of package text a sentence quotes as code (a command line in
// backticks): the author's words, which may name a client without saying what it does.
var quotedCode = regexp.MustCompile("`[^`]*`")

// releaseRange is a release given as a range ("2.1.154 or later"), which names the
// releases a rule holds for whether or not vouch models them.
var releaseRange = regexp.MustCompile(`\b\d+\.\d+\.\d+ (or|and) later\b`)

// missingRelease lists the clients with observed releases that s names without naming
// one of their releases. A support detail about its own client names the release its
// answer is for, printed in front of it ("Claude Code 2.1.332: supported — …"). A client
// named only inside quoted code is the package's word, not vouch's.
func missingRelease(s clientSentence) []string {
	var out []string
	own := quotedCode.ReplaceAllString(s.text, "``")
	for _, c := range model.Clients() {
		if len(c.Versions) == 0 || !namesClient(own, c.Name) {
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
		{"a client inside a quoted command", clientSentence{text: "Runs the shell command `echo only Codex runs this` (with bash)."}, ""},
		{"a client outside a quoted command", clientSentence{text: "Runs `echo hi` when Codex loads the plugin."}, codex},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(missingRelease(tc.s), ", "); got != tc.want {
				t.Errorf("missingRelease(%q) = %q, want %q", tc.s.text, got, tc.want)
			}
		})
	}
}

// TestQuotedPrefix: only a summary line that starts with a quoted prefix is the author's;
// the same words in a diagnostic, or inside a line, are vouch's and stay held.
func TestQuotedPrefix(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    clientSentence
		want string
	}{
		{"a quoted description", clientSentence{code: "summary:command", text: "Description: A command Codex does not read."}, "Description: "},
		{"a summary line of vouch's own", clientSentence{code: "summary:hook", text: "Codex stops waiting after 5 s."}, ""},
		{"the prefix inside a line", clientSentence{code: "summary:agent", text: "Adds the agent x. Description: Codex runs it."}, ""},
		{"a diagnostic starting alike", clientSentence{code: "agent-description-missing", text: "Description: Codex skips it."}, ""},
		{"a capability starting alike", clientSentence{code: "capability:env", text: "Description: Codex sets it."}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quotedPrefix(tc.s); got != tc.want {
				t.Errorf("quotedPrefix(%q, %q) = %q, want %q", tc.s.code, tc.s.text, got, tc.want)
			}
		})
	}
}

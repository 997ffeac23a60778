package review

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"vouch/model"
)

// The oracle records: what real releases of Claude Code and Codex answered for every
// plugin fixture and example, run offline by scripts/record-oracles. The test compares
// vouch with them without any client installed.
const oracleRoot = "testdata/oracles"

// oracleKinds are the component kinds compared per client: what the client's own
// answer counts. Claude Code's runtime log counts hooks, hooks modules, MCP and LSP
// servers, skills, commands, agents and output styles; Codex's hooks/list and plugin/read
// answer hooks, MCP servers and skills, and whether each marketplace entry installs.
var oracleKinds = map[string][]model.Kind{
	model.ClientClaudeCode: {model.KindHook, model.KindHookModule, model.KindMCPServer, model.KindLSPServer, model.KindSkill, model.KindCommand, model.KindAgent, model.KindOutputStyle},
	model.ClientCodex:      {model.KindHook, model.KindMCPServer, model.KindSkill, model.KindPlugin},
}

// knownDifference is a place where vouch's count of what a client runs differs from the
// client's own, and vouch says so: the diagnostic named by code must be in vouch's
// review of the fixture and its message must name the client. Versions empty: every
// recorded release. An entry that no recorded answer needs any more fails the test, so
// the table cannot hide a difference it no longer describes.
type knownDifference struct {
	client, fixture string
	kind            model.Kind
	versions        []string
	code            string
}

var knownDifferences = []knownDifference{
	{model.ClientClaudeCode, "review/claudecode/testdata/cases/mcp-bundles", model.KindMCPServer, nil, "plugin-dependencies"},
}

// unexplainedDifference is a place where vouch disagrees with a client today and says
// nothing about it: a bug in vouch, listed so that it is visible (the test logs each one)
// and pinned to both counts, so the test fails as soon as either side changes: fixed,
// explained by a diagnostic (move it to knownDifferences) or different again. what says
// what the client does.
type unexplainedDifference struct {
	client, fixture string
	kind            model.Kind
	versions        []string
	clientRuns      int
	vouchLists      int
	what            string
}

// unexplainedDifferences is empty: every difference from the recorded clients is either
// fixed or explained by a diagnostic (knownDifferences). A new one is listed here, with a
// sentence saying what the client does (observed offline on the releases named; the
// records hold the clients' own words), until it is.
var unexplainedDifferences = []unexplainedDifference{}

// oracleIndex is index.json of one recorded release.
type oracleIndex struct {
	Client   string   `json:"client"`
	Version  string   `json:"version"`
	Fixtures []string `json:"fixtures"`
}

// oracleAnswer is one fixture's record, read as the recorder wrote it.
type oracleAnswer struct {
	Fixture string `json:"fixture"`
	// Claude Code: the runtime's load counts by kind.
	Runtime struct {
		Loads   map[string]int `json:"loads"`
		Exit    any            `json:"exit"`    // the exit status, or "timeout"
		Counted []string       `json:"counted"` // the kinds whose count line the log holds
	} `json:"runtime"`
	// Codex: the install of each entry, hooks/list and plugin/read.
	Kind     string                   `json:"kind"`
	Install  map[string]oracleInstall `json:"install"`
	Hooks    []oracleHook             `json:"hooks"`
	Answered bool                     `json:"answered"`
	Plugins  map[string]*oraclePlugin `json:"plugins"`
}

type oracleInstall struct {
	Exit any    `json:"exit"` // the exit status, or "timeout"
	Text string `json:"text"`
}

type oracleHook struct {
	PluginID string `json:"pluginId"`
}

type oraclePlugin struct {
	Skills     []string `json:"skills"`
	MCPServers []string `json:"mcpServers"`
}

// offline matches an install that failed only because the recording had no network (a
// git or npm source): what the client would do online is not recorded. An install that
// did not end within the recorder's time is not an answer either.
var offline = regexp.MustCompile(`Could not resolve host|EAI_AGAIN|getaddrinfo|Network is unreachable`)

// clientCounts is what the client said it runs from the fixture, by kind, and the
// marketplace entries whose install could not be tried offline.
func clientCounts(client string, a oracleAnswer) (map[model.Kind]int, map[string]bool) {
	got := map[model.Kind]int{}
	if client == model.ClientClaudeCode {
		for k, n := range a.Runtime.Loads {
			got[model.Kind(k)] = n
		}
		return got, nil
	}
	skipped := map[string]bool{}
	for name, in := range a.Install {
		switch {
		case in.Exit == float64(0):
			if a.Kind == "marketplace" {
				got[model.KindPlugin]++
			}
			if p := a.Plugins[name]; p != nil {
				got[model.KindSkill] += len(p.Skills)
				got[model.KindMCPServer] += len(p.MCPServers)
			}
		case in.Exit == "timeout" || offline.MatchString(in.Text):
			skipped[name] = true
		}
	}
	if a.Kind == "marketplace" {
		// What an installed entry brings is compared in the entry's own folder.
		return map[model.Kind]int{model.KindPlugin: got[model.KindPlugin]}, skipped
	}
	got[model.KindHook] = len(a.Hooks)
	return got, skipped
}

// vouchCounts is what vouch says the client runs from the folder at root: the valid
// components of every package rooted there that vouch marks supported by that release.
// A marketplace's plugins are packages of their own folders and are compared there.
//
// A standalone skill's support says what a client does with the folder copied into its
// skills folder, not with the folder installed as a plugin, which is what was recorded,
// so it is left out, with one exception: Claude Code given a folder whose SKILL.md sits
// at its top with --plugin-dir loads that one skill as the plugin's ("SKILL.md at its top
// marks it"), the same skill it loads from the folder copied into its skills folder, so
// there both installs run the same and the standalone reading is compared, unless a
// Claude Code package of the folder already lists that skill as its plugin's.
//
// In a folder Codex reads through .codex-plugin/, the Claude Code package marks supported
// by Codex only what Codex loads through that manifest from the shared default files,
// which the Codex package of the folder lists too: Codex's loads are counted once, there
// (claudeClaimsMoreForCodex fails the comparison if the Claude Code package ever claims
// more than that).
func vouchCounts(pkgs []*model.Package, root, client, version string, skipped map[string]bool) map[model.Kind]int {
	got := map[model.Kind]int{}
	has := map[model.Format]bool{}
	for _, p := range pkgs {
		if p.Root == root {
			has[p.Format] = true
		}
	}
	for _, p := range pkgs {
		switch {
		case p.Root != root:
			continue
		case p.Format == model.FormatAgentSkills && !(client == model.ClientClaudeCode && hasTopSkill(root) && !has[model.FormatClaudeCode]):
			continue
		case p.Format == model.FormatClaudeCode && client == model.ClientCodex && has[model.FormatCodex]:
			continue
		}
		for _, c := range p.Components {
			if c.Validity != model.Valid || c.Kind == model.KindPlugin && skipped[c.ID] {
				continue
			}
			for _, s := range c.Support {
				if s.Provider == client && s.Status == model.Supported && (s.Version == "" || s.Version == version) {
					got[c.Kind]++
				}
			}
		}
	}
	return got
}

// claudeClaimsMoreForCodex guards what vouchCounts leaves out: in a folder with a Codex
// package, the Claude Code package of the same folder may mark supported by Codex only
// what the Codex package lists too, kind by kind, never more.
func claudeClaimsMoreForCodex(pkgs []*model.Package, root, version, fixture string) []string {
	per := map[model.Format]map[model.Kind]int{model.FormatCodex: {}, model.FormatClaudeCode: {}}
	for _, p := range pkgs {
		if p.Root != root || per[p.Format] == nil {
			continue
		}
		for _, c := range p.Components {
			for _, s := range c.Support {
				if c.Validity == model.Valid && s.Provider == model.ClientCodex && s.Status == model.Supported && (s.Version == "" || s.Version == version) {
					per[p.Format][c.Kind]++
				}
			}
		}
	}
	var out []string
	for _, k := range oracleKinds[model.ClientCodex] {
		if n, m := per[model.FormatClaudeCode][k], per[model.FormatCodex][k]; n > m && hasPackage(pkgs, root, model.FormatCodex) {
			out = append(out, fmt.Sprintf("%s %s: the Claude Code package marks %d supported by Codex %s, the Codex package lists %d", fixture, k, n, version, m))
		}
	}
	return out
}

func hasPackage(pkgs []*model.Package, root string, f model.Format) bool {
	for _, p := range pkgs {
		if p.Root == root && p.Format == f {
			return true
		}
	}
	return false
}

// hasTopSkill reports whether the folder has its SKILL.md at its top (a lone skill, not a
// folder of skill folders).
func hasTopSkill(root string) bool {
	_, err := os.Lstat(filepath.Join(root, "SKILL.md"))
	return err == nil
}

// compareOracle returns one sentence per kind where vouch and the client disagree and
// no known difference names a diagnostic that vouch emitted; used records the entries of
// known that explained a difference.
//
// unexplained, when not nil, admits the differences of unexplainedDifferences (exactly
// as listed) and records which it admitted.
func compareOracle(client, version string, a oracleAnswer, pkgs []*model.Package, root string, known []knownDifference, used, unexplained map[int]bool) []string {
	want, skipped := clientCounts(client, a)
	got := vouchCounts(pkgs, root, client, version, skipped)
	var out []string
	if client == model.ClientCodex {
		out = claudeClaimsMoreForCodex(pkgs, root, version, a.Fixture)
	}
	for _, k := range oracleKinds[client] {
		if got[k] == want[k] {
			continue
		}
		what := fmt.Sprintf("%s %s: %s %s runs %d, vouch lists %d", a.Fixture, k, model.ClientName(client), version, want[k], got[k])
		i := findDifference(known, client, version, a.Fixture, k)
		switch {
		case i < 0 && unexplained != nil:
			if j := findUnexplained(client, version, a.Fixture, k, want[k], got[k]); j >= 0 {
				unexplained[j] = true
				continue
			}
			out = append(out, what+", and no known difference names a diagnostic that says why")
		case i < 0:
			out = append(out, what+", and no known difference names a diagnostic that says why")
		case !emits(pkgs, known[i].code, model.ClientName(client)):
			out = append(out, fmt.Sprintf("%s; the known difference names %s, which vouch did not emit naming %s", what, known[i].code, model.ClientName(client)))
		default:
			used[i] = true
		}
	}
	return out
}

func findUnexplained(client, version, fixture string, k model.Kind, clientRuns, vouchLists int) int {
	for i, d := range unexplainedDifferences {
		if d.client == client && d.fixture == fixture && d.kind == k && (len(d.versions) == 0 || contains(d.versions, version)) &&
			d.clientRuns == clientRuns && d.vouchLists == vouchLists {
			return i
		}
	}
	return -1
}

func findDifference(known []knownDifference, client, version, fixture string, k model.Kind) int {
	for i, d := range known {
		if d.client == client && d.fixture == fixture && d.kind == k && (len(d.versions) == 0 || contains(d.versions, version)) {
			return i
		}
	}
	return -1
}

// emits reports whether any package or component carries a diagnostic with code whose
// message names the client: a difference is explained only by a sentence about what
// that client does.
func emits(pkgs []*model.Package, code, client string) bool {
	ok := func(ds []model.Diagnostic) bool {
		for _, d := range ds {
			if d.Code == code && strings.Contains(d.Message, client) {
				return true
			}
		}
		return false
	}
	for _, p := range pkgs {
		if ok(p.Diagnostics) {
			return true
		}
		for _, c := range p.Components {
			if ok(c.Diagnostics) {
				return true
			}
		}
	}
	return false
}

// recordedReleases reads every index.json under oracleRoot.
func recordedReleases(t *testing.T) []oracleIndex {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(oracleRoot, "*", "*", "index.json"))
	var out []oracleIndex
	for _, f := range files {
		var ix oracleIndex
		if err := readJSON(f, &ix); err != nil {
			t.Fatal(err)
		}
		c, ok := model.LookupClient(ix.Client)
		if !ok || !c.Models(ix.Version) {
			t.Fatalf("%s records %s %s, which model/clients.go does not model", f, ix.Client, ix.Version)
		}
		out = append(out, ix)
	}
	return out
}

func readJSON(file string, v any) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}

// TestMatchesRecordedClients: for every recorded release of Claude Code and Codex and
// every fixture and example it was run on, vouch lists as runnable by that release what
// the release itself loads, per component kind, or vouch emits the diagnostic that says
// what the client does instead.
func TestMatchesRecordedClients(t *testing.T) {
	releases := recordedReleases(t)
	want := map[string][]string{model.ClientClaudeCode: {"2.1.328", "2.1.332"}, model.ClientCodex: {"0.169.0", "0.171.0"}}
	for client, versions := range want {
		for _, v := range versions {
			if !hasRelease(releases, client, v) {
				t.Errorf("no record of %s %s: run scripts/record-oracles %s %s", client, v, client, v)
			}
		}
	}
	fixtures := oracleFixtures(t)
	used, unexplained := map[int]bool{}, map[int]bool{}
	for _, ix := range releases {
		missing := missingFixtures(fixtures, ix.Fixtures)
		if len(missing) > 0 {
			t.Errorf("%s %s has no record of %s: run scripts/record-oracles %s %s --only FIXTURE", ix.Client, ix.Version, strings.Join(missing, ", "), ix.Client, ix.Version)
		}
		for _, f := range ix.Fixtures {
			var a oracleAnswer
			if err := readJSON(filepath.Join(oracleRoot, ix.Client, ix.Version, filepath.FromSlash(f)+".json"), &a); err != nil {
				t.Error(err)
				continue
			}
			if why := cutShort(ix.Client, a); why != "" {
				t.Errorf("%s %s %s: %s: run scripts/record-oracles %s %s --only %s", ix.Client, ix.Version, f, why, ix.Client, ix.Version, f)
				continue
			}
			dir, _ := filepath.Abs(filepath.Join("..", filepath.FromSlash(f)))
			res, err := Open(Options{ClientVersions: map[string]string{ix.Client: ix.Version}}, dir)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			for _, p := range compareOracle(ix.Client, ix.Version, a, res.Packages, dir, knownDifferences, used, unexplained) {
				t.Error(p)
			}
		}
	}
	for i, d := range knownDifferences {
		if !used[i] {
			t.Errorf("known difference %+v explains nothing any more: remove it", d)
		}
	}
	for i, d := range unexplainedDifferences {
		if !unexplained[i] {
			t.Errorf("unexplained difference %+v is not what the records and vouch say any more: update or remove it", d)
			continue
		}
		t.Logf("vouch disagrees with %s on %s (%s): the client runs %d, vouch lists %d: %s", model.ClientName(d.client), d.fixture, d.kind, d.clientRuns, d.vouchLists, d.what)
	}
}

// cutShort says why a record holds no complete answer, or "": Codex's app-server
// sometimes leaves a call unanswered, and the recorder stops a Claude Code session that
// waits on the model it cannot reach (a prompt hook), whose counts are complete only if
// the log already held every count line.
func cutShort(client string, a oracleAnswer) string {
	if client == model.ClientCodex && !a.Answered {
		return "codex app-server left a call unanswered"
	}
	if client != model.ClientClaudeCode || a.Runtime.Exit != "timeout" {
		return ""
	}
	for _, k := range []string{"hook", "skill", "command", "agent", "output-style"} {
		if !contains(a.Runtime.Counted, k) {
			return "the session was stopped before Claude Code logged its " + k + " count"
		}
	}
	return ""
}

func hasRelease(rs []oracleIndex, client, version string) bool {
	for _, r := range rs {
		if r.Client == client && r.Version == version {
			return true
		}
	}
	return false
}

func missingFixtures(all, recorded []string) []string {
	have := map[string]bool{}
	for _, f := range recorded {
		have[f] = true
	}
	var out []string
	for _, f := range all {
		if !have[f] {
			out = append(out, f)
		}
	}
	return out
}

// The recording rule, as scripts/record-oracles applies it: the case folders of the
// plugin loaders (a default-layout plugin has no marker), and every folder under
// examples/ or a testdata folder of review/, cmd/ or enforce/ that holds a Claude Code or
// Codex marker. Fuzz corpora and the records themselves are not fixtures.
var (
	oracleCaseDirs = []string{"review/claudecode/testdata/cases", "review/codex/testdata/cases", "review/testdata/markers", "review/testdata/lenient"}
	oracleSearch   = []string{"examples", "review", "cmd", "enforce"}
	oracleMarkers  = []string{".claude-plugin", ".codex-plugin", ".agents/plugins/marketplace.json"}
)

func oracleFixtures(t *testing.T) []string {
	t.Helper()
	found := map[string]bool{}
	for _, d := range oracleCaseDirs {
		entries, err := os.ReadDir(filepath.Join("..", filepath.FromSlash(d)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				found[d+"/"+e.Name()] = true
			}
		}
	}
	for _, top := range oracleSearch {
		err := filepath.WalkDir(filepath.Join("..", top), func(path string, e fs.DirEntry, err error) error {
			if err != nil || !e.IsDir() {
				return err
			}
			rel, _ := filepath.Rel("..", path)
			rel = filepath.ToSlash(rel)
			if e.Name() == "fuzz" || e.Name() == ".git" || strings.HasPrefix(rel, "review/"+oracleRoot) {
				return filepath.SkipDir
			}
			if top != "examples" && !contains(strings.Split(rel, "/"), "testdata") {
				return nil
			}
			for _, m := range oracleMarkers {
				if _, err := os.Lstat(filepath.Join(path, filepath.FromSlash(m))); err == nil {
					found[rel] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	out := make([]string, 0, len(found))
	for f := range found {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// TestOracleComparisonCatchesPerturbation: a recorded answer that vouch agrees with stops
// agreeing when any one compared count is changed, and a known difference explains a
// changed count only while vouch emits its diagnostic naming the client.
func TestOracleComparisonCatchesPerturbation(t *testing.T) {
	plugin := []model.Kind{model.KindHook, model.KindMCPServer, model.KindSkill}
	for _, tc := range []struct {
		client, version, fixture string
		kinds                    []model.Kind
	}{
		{model.ClientClaudeCode, "2.1.332", "examples/claude-code/commit-guard", oracleKinds[model.ClientClaudeCode]},
		{model.ClientCodex, "0.171.0", "examples/codex/commit-guard", plugin},
		{model.ClientCodex, "0.171.0", "review/codex/testdata/marketplaces/good", []model.Kind{model.KindPlugin}},
	} {
		var a oracleAnswer
		if err := readJSON(filepath.Join(oracleRoot, tc.client, tc.version, filepath.FromSlash(tc.fixture)+".json"), &a); err != nil {
			t.Fatal(err)
		}
		dir, _ := filepath.Abs(filepath.Join("..", filepath.FromSlash(tc.fixture)))
		res, err := Open(Options{ClientVersions: map[string]string{tc.client: tc.version}}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if p := compareOracle(tc.client, tc.version, a, res.Packages, dir, nil, map[int]bool{}, nil); len(p) != 0 {
			t.Fatalf("%s as recorded: %v", tc.fixture, p)
		}
		for _, k := range tc.kinds {
			b := perturb(a, k)
			if p := compareOracle(tc.client, tc.version, b, res.Packages, dir, nil, map[int]bool{}, nil); len(p) != 1 || !strings.Contains(p[0], " "+string(k)+": ") {
				t.Errorf("%s with one %s more: %v, want one disagreement about %s", tc.fixture, k, p, k)
			}
			// A known difference whose diagnostic vouch emits explains it; one whose code
			// vouch does not emit does not.
			code := anyDiagnostic(res.Packages, model.ClientName(tc.client))
			known := []knownDifference{{client: tc.client, fixture: tc.fixture, kind: k, code: code}}
			used := map[int]bool{}
			if p := compareOracle(tc.client, tc.version, b, res.Packages, dir, known, used, nil); code != "" && (len(p) != 0 || !used[0]) {
				t.Errorf("%s %s: a known difference with %s did not explain it: %v", tc.fixture, k, code, p)
			}
			known[0].code = "no-such-diagnostic"
			if p := compareOracle(tc.client, tc.version, b, res.Packages, dir, known, map[int]bool{}, nil); len(p) != 1 {
				t.Errorf("%s %s: a known difference vouch does not emit explained it", tc.fixture, k)
			}
		}
	}
}

// perturb returns a copy of a in which the client runs one more component of kind k.
func perturb(a oracleAnswer, k model.Kind) oracleAnswer {
	b := a
	b.Runtime.Loads = map[string]int{string(k): a.Runtime.Loads[string(k)] + 1}
	for key, n := range a.Runtime.Loads {
		if key != string(k) {
			b.Runtime.Loads[key] = n
		}
	}
	b.Hooks = append([]oracleHook(nil), a.Hooks...)
	b.Plugins = map[string]*oraclePlugin{}
	for name, p := range a.Plugins {
		if p != nil {
			q := oraclePlugin{Skills: append([]string(nil), p.Skills...), MCPServers: append([]string(nil), p.MCPServers...)}
			p = &q
		}
		b.Plugins[name] = p
	}
	if k == model.KindPlugin {
		b.Install = map[string]oracleInstall{"extra": {Exit: float64(0)}}
		for name, in := range a.Install {
			b.Install[name] = in
		}
		return b
	}
	for name, in := range a.Install {
		if in.Exit != float64(0) || b.Plugins[name] == nil {
			continue
		}
		switch k {
		case model.KindHook:
			b.Hooks = append(b.Hooks, oracleHook{PluginID: name + "@oracle"})
		case model.KindSkill:
			b.Plugins[name].Skills = append(b.Plugins[name].Skills, "extra")
		case model.KindMCPServer:
			b.Plugins[name].MCPServers = append(b.Plugins[name].MCPServers, "extra")
		}
		break
	}
	return b
}

// anyDiagnostic is the code of a diagnostic vouch emitted naming the client, or "".
func anyDiagnostic(pkgs []*model.Package, client string) string {
	for _, p := range pkgs {
		for _, c := range p.Components {
			for _, d := range append(append([]model.Diagnostic(nil), p.Diagnostics...), c.Diagnostics...) {
				if strings.Contains(d.Message, client) {
					return d.Code
				}
			}
		}
	}
	return ""
}

// TestClaudeClaimsMoreForCodex: the guard beside vouchCounts reports a Claude Code package
// that marks more of a kind supported by Codex than the Codex package of its folder lists,
// and nothing while it marks as many or fewer, or when the folder has no Codex package.
func TestClaudeClaimsMoreForCodex(t *testing.T) {
	hooks := func(f model.Format, n int) *model.Package {
		p := &model.Package{Format: f, Name: "p", Root: "/x"}
		for i := 0; i < n; i++ {
			p.Components = append(p.Components, &model.Component{Kind: model.KindHook, ID: fmt.Sprint(i), Validity: model.Valid,
				Support: []model.Support{{Provider: model.ClientCodex, Version: model.Codex171, Status: model.Supported}}})
		}
		return p
	}
	for _, tc := range []struct {
		name          string
		pkgs          []*model.Package
		disagreements int
	}{
		{"more", []*model.Package{hooks(model.FormatCodex, 1), hooks(model.FormatClaudeCode, 2)}, 1},
		{"as many", []*model.Package{hooks(model.FormatCodex, 2), hooks(model.FormatClaudeCode, 2)}, 0},
		{"fewer", []*model.Package{hooks(model.FormatCodex, 2), hooks(model.FormatClaudeCode, 1)}, 0},
		{"no Codex package", []*model.Package{hooks(model.FormatClaudeCode, 2)}, 0},
	} {
		if got := claudeClaimsMoreForCodex(tc.pkgs, "/x", model.Codex171, "f"); len(got) != tc.disagreements {
			t.Errorf("%s: %v, want %d disagreement(s)", tc.name, got, tc.disagreements)
		}
	}
}

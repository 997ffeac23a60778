package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

const marketRef = "fixture-market#plugin:local-one"

// marketModel loads the market fixture (a Claude Code marketplace: a local plugin
// folder, a GitHub entry pinned to a sha, a git entry on a branch, an unpinned npm
// entry). keep, when set, chooses which loaded packages the console gets.
func marketModel(t *testing.T, keep func(*model.Package) bool) *Model {
	t.Helper()
	src := filepath.Join("testdata", "market")
	opts := Options{Sources: []string{src}, Home: t.TempDir()}
	if keep != nil {
		opts.Packages = openedPackages(t, src, keep)
	}
	return loadedConsole(t, opts, 140, 30)
}

// rowFor is the table row of the entry named name.
func rowFor(t *testing.T, m *Model, name string) string {
	t.Helper()
	for _, r := range strings.Split(screen(m), "\n") {
		if strings.HasPrefix(strings.TrimLeft(r, "▸ "), name+" ") {
			return r
		}
	}
	t.Fatalf("no row for %s:\n%s", name, screen(m))
	return ""
}

// The table's columns, entry by entry: source kind, pin (or unpinned) and the risk.
func TestMarketViewColumns(t *testing.T) {
	m := marketModel(t, nil)
	selectRef(t, m, marketRef)
	press(t, m, "M")
	if m.marketView() == nil {
		t.Fatal("M on a marketplace entry opened no table")
	}
	if h := screen(m); !strings.Contains(h, "PLUGIN") || !strings.Contains(h, "SOURCE") || !strings.Contains(h, "PIN") || !strings.Contains(h, "RISK") {
		t.Fatalf("no column header:\n%s", h)
	}
	cases := []struct{ name, kind, pin, risk string }{
		{"local-one", "relative path", "marketplace revision", "1 to review in its package"},
		{"pinned-gh", "github", "sha 0123456789", "fetched at install, not reviewed here"},
		{"moving-git", "url", "ref main", "ref can move"},
		{"npm-unpinned", "npm", "unpinned", "npm install scripts run, unpinned"},
	}
	for _, c := range cases {
		r := rowFor(t, m, c.name)
		for _, want := range []string{c.kind, c.pin, c.risk} {
			if !strings.Contains(r, want) {
				t.Errorf("%s: row lacks %q: %q", c.name, want, r)
			}
		}
		if remote := c.name != "local-one"; remote != strings.Contains(r, "! ") {
			t.Errorf("%s: the ! mark is %v, want %v: %q", c.name, !remote, remote, r)
		}
	}
	assertNoRawControls(t, "marketplace table", m.View().Content)
}

// Key by key: the cursor opens on the selected entry; j/k/g/G move; enter on a remote
// entry says why there is nothing to open and stays; enter on the local entry closes the
// table and selects the plugin's own package; q closes the table.
func TestMarketViewKeys(t *testing.T) {
	m := marketModel(t, nil)
	selectRef(t, m, "fixture-market#plugin:npm-unpinned")
	press(t, m, "enter")
	mv := m.marketView()
	if mv == nil || mv.entries[mv.cursor].name != "npm-unpinned" {
		t.Fatal("enter on an entry row did not open the table on that entry")
	}
	press(t, m, "g")
	if mv.cursor != 0 {
		t.Fatalf("g: cursor %d", mv.cursor)
	}
	press(t, m, "G")
	if mv.cursor != len(mv.entries)-1 {
		t.Fatalf("G: cursor %d", mv.cursor)
	}
	press(t, m, "j")
	if mv.cursor != len(mv.entries)-1 {
		t.Fatalf("j past the end: cursor %d", mv.cursor)
	}
	for mv.entries[mv.cursor].name != "pinned-gh" {
		press(t, m, "k")
	}
	press(t, m, "enter")
	if m.marketView() == nil || !strings.Contains(screen(m), "pinned-gh is fetched from GitHub repository example/pinned when installed") {
		t.Fatalf("enter on a remote entry did not say why not:\n%s", screen(m))
	}
	press(t, m, "g")
	for mv.entries[mv.cursor].name != "local-one" {
		press(t, m, "j")
	}
	press(t, m, "enter")
	if m.marketView() != nil {
		t.Fatal("enter on the local entry did not close the table")
	}
	p, c, _, ok := m.selection()
	if !ok || c != nil || p.Name != "local-one" || p.Format != model.FormatClaudeCode {
		t.Fatalf("enter selected %v %v, want the local-one package row", p, c)
	}
	if !strings.Contains(screen(m), "The plugin local-one, reviewed as its own package.") {
		t.Errorf("no word on what opened:\n%s", screen(m))
	}
	press(t, m, "g", "M", "q")
	if m.marketView() != nil {
		t.Fatal("q did not close the table")
	}
}

// A local entry whose folder is not among the loaded packages says so; M outside a
// marketplace says why it does nothing, and enter there stays quiet.
func TestMarketViewWhyNot(t *testing.T) {
	m := marketModel(t, func(p *model.Package) bool { return p.Format == model.FormatClaudeCodeMarketplace })
	selectRef(t, m, marketRef)
	press(t, m, "enter", "enter")
	if !strings.Contains(screen(m), "local-one's folder plugins/local-one is not loaded as a package") {
		t.Fatalf("no reason for the unloaded local plugin:\n%s", screen(m))
	}

	m = newTestModel(t, fixturePackages(), 120, 30)
	press(t, m, "j", "M")
	if m.marketView() != nil || !strings.Contains(screen(m), "Cannot open the marketplace table: the selection is not in a marketplace") {
		t.Fatalf("M outside a marketplace:\n%s", screen(m))
	}
	press(t, m, "enter")
	if m.marketView() != nil || strings.Contains(screen(m), "Cannot open the marketplace table") {
		t.Fatalf("enter outside a marketplace was not quiet:\n%s", screen(m))
	}
}

// Codex entries keep their source object: kind, pin and folder come from it.
func TestEntrySourceCodex(t *testing.T) {
	cases := []struct {
		details         model.Fields
		kind, pin, path string
	}{
		{model.Fields{{Key: "source", Value: model.Fields{{Key: "source", Value: "local"}, {Key: "path", Value: "./plugins/x"}}}, {Key: "path", Value: "plugins/x"}}, "local", "marketplace revision", "plugins/x"},
		{model.Fields{{Key: "source", Value: model.Fields{{Key: "source", Value: "git"}, {Key: "url", Value: "https://e.invalid/x.git"}, {Key: "sha", Value: "abc"}}}}, "git", "sha abc", ""},
		{model.Fields{{Key: "source", Value: model.Fields{{Key: "source", Value: "git"}, {Key: "url", Value: "https://e.invalid/x.git"}}}}, "git", "unpinned", ""},
	}
	for _, c := range cases {
		kind, pin, local := entrySource(&model.Component{Kind: model.KindPlugin, Details: c.details})
		if kind != c.kind || pin != c.pin || local != c.path {
			t.Errorf("%v: got %q %q %q, want %q %q %q", c.details, kind, pin, local, c.kind, c.pin, c.path)
		}
	}
}

// The table is a layer of the console's stack: on top it takes every key (a, / and x do
// nothing to the screen under it), the help line is its own, and a reload closes it, as
// it closes the file view, since its rows came from the packages just replaced.
func TestMarketViewIsALayer(t *testing.T) {
	m := marketModel(t, nil)
	selectRef(t, m, marketRef)
	press(t, m, "M")
	mv := m.marketView()
	if mv == nil || m.top() != layer(mv) {
		t.Fatalf("M did not put the table on top: %v", stackKinds(m))
	}
	p, c, _, _ := m.selection()
	press(t, m, "a", "/", "x")
	if m.top() != layer(mv) || len(m.modals) != 1 || m.tree.editing {
		t.Fatalf("keys on the table reached the screen under it: %v", stackKinds(m))
	}
	if p2, c2, _, _ := m.selection(); p2 != p || c2 != c {
		t.Fatal("keys on the table moved the selection under it")
	}
	lines := strings.Split(screen(m), "\n")
	if foot := lines[len(lines)-1]; !strings.Contains(foot, "back") || strings.Contains(foot, "approve") {
		t.Fatalf("the help line under the table is not the table's: %q", foot)
	}
	run(t, m, m.loadCmd())
	if m.marketView() != nil || m.top() != nil {
		t.Fatalf("a reload left the table of the old packages open: %v", stackKinds(m))
	}
}

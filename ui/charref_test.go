package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"vouch/model"
	"vouch/review/skills"
)

// charRefForms are the character references a renderer decodes to hidden or control code
// points, in every spelling: decimal, hex, upper-case X, leading zeros, no semicolon, a
// decimal that wraps round to 13, C1 numbers, legacy names without ';', and named refs.
var charRefForms = []struct {
	ref  string
	cp   string // a code point the hidden list must name
	note string
}{
	{"&#13;", "U+000D", "carriage return: redraws the start of the line"},
	{"&#x0D;", "U+000D", ""},
	{"&#0000013;", "U+000D", ""},
	{"&#4294967309;", "U+000D", "wraps to 13 in html.UnescapeString"},
	{"&#X1B;", "U+001B", "escape"},
	{"&#27;", "U+001B", ""},
	{"&#7;", "U+0007", "bell"},
	{"&#x202E;", "U+202E", "right-to-left override"},
	{"&#x202E", "U+202E", "no semicolon"},
	{"&#8203;", "U+200B", "zero-width space"},
	{"&#xE0041;", "U+E0041", "tag A"},
	{"&#x9B;", "U+009B", "C1 CSI (goldmark's reading)"},
	{"&#155;", "U+009B", ""},
	{"&#x2066;", "U+2066", "left-to-right isolate"},
	{"&#xFEFF;", "U+FEFF", "BOM"},
	{"&ZeroWidthSpace;", "U+200B", ""},
	{"&NegativeMediumSpace;", "U+200B", ""},
	{"&rlm;", "U+200F", ""},
	{"&lrm;", "U+200E", ""},
	{"&zwj;", "U+200D", ""},
	{"&zwnj;", "U+200C", ""},
	{"&NoBreak;", "U+2060", ""},
	{"&InvisibleTimes;", "U+2062", ""},
	{"&shy;", "U+00AD", ""},
	{"&shy", "U+00AD", "legacy name without ';'"},
}

// charRefDoc puts every form in prose, a heading, a code span, a table cell and a list,
// and ends with the row-redraw attack: "&#13;" followed by text that would overwrite the
// start of the screen line (where the tree row is) with "✓ approved".
func charRefDoc() string {
	var b strings.Builder
	b.WriteString("# Refs &#x202E;here\n\n")
	for i, f := range charRefForms {
		fmt.Fprintf(&b, "Form %d: a%s-b and `c%s-d`\n\n", i, f.ref, f.ref)
	}
	b.WriteString("| x | y |\n|---|---|\n| &#x202E;cell | &#13;cell |\n\n- item &ZeroWidthSpace; &NewLine; end\n\n")
	b.WriteString("Status&#13;✓ approved                                   \n")
	return b.String()
}

func charRefPackages() []*model.Package {
	pkgs := fixturePackages()
	doc := charRefDoc()
	for _, c := range pkgs[0].Components {
		if c.Kind == model.KindSkill || c.Kind == model.KindInstruction {
			c.Body = doc
			c.Hidden = skills.ScanHidden(doc, 1) // as the loaders fill it
		}
	}
	return pkgs
}

var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// rawHidden returns the first character of the view a terminal would act on or hide: any
// C0 control but LF and TAB (ESC included, once the view's own SGR styling is removed),
// DEL, C1, bidi, zero-width, tag and other invisible characters.
func rawHidden(view string) (rune, bool) {
	for _, r := range sgrSeq.ReplaceAllString(view, "") {
		if model.IsHiddenRune(r) {
			return r, true
		}
	}
	return 0, false
}

// Every character-reference form, in a SKILL.md and in an instruction, rendered in the
// console: nothing hidden reaches View(), the references are shown as tokens, and the
// hidden-content list names each one with its line.
func TestCharacterReferencesNeverReachTheScreen(t *testing.T) {
	for _, ref := range []string{"design-review#skill:design-review", instrRef} {
		t.Run(ref, func(t *testing.T) {
			m := newTestModel(t, charRefPackages(), 220, 200)
			selectRef(t, m, ref)
			press(t, m, "3")
			v := m.View().Content
			if !strings.Contains(ansiStrip(v), "rendered (r: raw text)") || strings.Contains(ansiStrip(v), "Rendering…") {
				t.Fatalf("the content was not rendered:\n%s", ansiStrip(v))
			}
			if r, bad := rawHidden(v); bad {
				t.Fatalf("raw %U reached the view", r)
			}
			if strings.Contains(v, "\r") {
				t.Fatal("a carriage return reached the view")
			}
			plain := ansiStrip(v)
			for _, tok := range []string{"a␍-b", "⟨U+202E RLO⟩", "⟨U+200B ZWSP⟩", "⟨TAG A⟩", "Status␍✓ approved"} {
				if !strings.Contains(plain, tok) {
					t.Errorf("rendered view lacks the token %q", tok)
				}
			}
			// The hidden list names every form, with its line.
			var c *model.Component
			for _, cc := range m.data.pkgs[0].Components {
				if m.data.pkgs[0].Ref(cc) == ref {
					c = cc
				}
			}
			for i, f := range charRefForms {
				line := 3 + 2*i
				want := fmt.Sprintf("line %d  character-reference  %s → %s", line, f.ref, f.cp)
				if !strings.Contains(plain, want) {
					t.Errorf("hidden list lacks %q", want)
				}
				found := false
				for _, h := range c.Hidden {
					found = found || h.Kind == skills.HiddenCharacterReference && h.Line == line && strings.Contains(h.Text, f.ref+" → "+f.cp)
				}
				if !found {
					t.Errorf("component hidden list lacks %s at line %d", f.ref, line)
				}
			}
			// The raw view shows the references as written, and nothing hidden either.
			press(t, m, "r")
			if r, bad := rawHidden(m.View().Content); bad {
				t.Fatalf("raw view: %U reached the view", r)
			}
		})
	}
}

// The tree row of the selected component stays intact: the row-redraw attack leaves
// every tree row as it was drawn without the document.
func TestCharacterReferenceCannotRedrawTreeRow(t *testing.T) {
	m := newTestModel(t, charRefPackages(), 160, 60)
	selectRef(t, m, "design-review#skill:design-review")
	press(t, m, "3")
	for i, l := range strings.Split(m.View().Content, "\n") {
		if strings.ContainsAny(l, "\r\b") {
			t.Fatalf("line %d holds a cursor-moving control: %q", i, l)
		}
		if idx := strings.Index(ansiStrip(l), "✓ approved"); idx >= 0 && !strings.Contains(ansiStrip(l), "Status␍✓ approved") {
			t.Fatalf("line %d shows \"✓ approved\" outside the escaped document text: %q", i, ansiStrip(l))
		}
	}
}

func ansiStrip(s string) string { return sgrSeq.ReplaceAllString(s, "") }

// A decoded ESC that forms an SGR sequence (conceal, 8) cannot be told apart from the
// renderer's own styling after rendering, so it must be neutralized before: the view
// shows it as a token and the concealed text in the clear.
func TestCharacterReferenceSGRInjection(t *testing.T) {
	md := newMarkdownRenderer()
	for _, in := range []string{"x &#x1b;[8mSECRET&#x1b;[0m y", "x &#27;[8mSECRET y", "`&#x1B;[8mSECRET`", "| a |\n|---|\n| &#x1b;[8mSECRET |"} {
		out, err := md.render(in, 80, true)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "\x1b[8m") || !strings.Contains(ansiStrip(out), "␛[8mSECRET") {
			t.Errorf("%q rendered as %q", in, out)
		}
	}
}

// The second layer leaves the renderer's own output alone: a document without hidden
// characters renders byte for byte as glamour styled it (SGR kept).
func TestEscapeRenderedKeepsStyling(t *testing.T) {
	doc := "# Title\n\nSome **bold**, _em_, `code` and a [link](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n\n```go\nfunc main() {}\n```\n\n> quote &amp; &lt;tag&gt; &copy;\n"
	md := newMarkdownRenderer()
	out, err := md.render(doc, 80, true)
	if err != nil {
		t.Fatal(err)
	}
	md.mu.Lock()
	raw, _ := md.by[mdKey{80, true}].Render(doc)
	md.mu.Unlock()
	if want := strings.Trim(onlySGR(raw), "\n"); out != want {
		t.Fatalf("the escape pass changed glamour's output:\n%q\n%q", out, want)
	}
	if !strings.Contains(out, "\x1b[") || !strings.Contains(ansiStrip(out), "quote & <tag> ©") {
		t.Fatalf("styling or harmless references lost: %q", out)
	}
}

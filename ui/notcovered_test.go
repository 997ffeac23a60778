package ui

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestDialogShowsNotCoveredAndLinks: the approval dialog says where the approval stops
// (not covered) and shows links as links, with package text escaped.
func TestDialogShowsNotCoveredAndLinks(t *testing.T) {
	pkgs := fixturePackages()
	tool := pkgs[0].Component(model.KindTool, "review-context")
	tool.NotCovered = []model.NotCovered{
		{Kind: model.NotCoveredFetch, Subject: "x@latest\x1b[2J", Detail: "npx downloads x at @latest from the npm registry when the server starts."},
		{Kind: model.NotCoveredCodeEnv, Subject: "NODE_OPTIONS", Detail: "It sets NODE_OPTIONS=--require /tmp/x.js."},
	}
	link := model.File{Path: "plugins/design-review/lib", Link: "v1"}
	tool.Files = append(tool.Files, link)
	tool.Contract.Files = append(tool.Contract.Files, link)
	m := newTestModel(t, pkgs, 120, 60)
	selectRef(t, m, toolRef)
	if v := screen(m); !strings.Contains(v, "Not covered by an approval (2)") || !strings.Contains(v, "lib  symlink → v1") {
		t.Errorf("the overview does not show what is not covered, or the link:\n%s", v)
	}
	press(t, m, "a")
	if m.dialog() == nil {
		t.Fatal("a did not open the confirmation")
	}
	v := screen(m)
	wantShown(t, "dialog", v, "Not covered by this approval (2)", "fetched-at-start", "x@latest", "NODE_OPTIONS", "--require /tmp/x.js", "plugins/design-review/lib  symlink → v1")
	if strings.Contains(v, "\x1b[2J") || !strings.Contains(v, "x@latest␛[2J") {
		t.Errorf("the subject is not shown escaped")
	}
	press(t, m, "y")
	if authIn(t, m, toolRef) != model.Approved {
		t.Fatalf("a link in the closure kept the approval from being recorded")
	}
}

// TestDialogShowsSigner: who signed the package's bytes is said beside the yes, escaped,
// and approving records the signer's fingerprint; the signature itself approved nothing.
func TestDialogShowsSigner(t *testing.T) {
	pkgs := fixturePackages()
	fp := "sha256:" + strings.Repeat("ab", 32)
	pkgs[0].Signature = &model.Signature{Status: "verified", Signer: "CN=Acme\x1b[2J", Fingerprint: fp, Detail: "The signature is valid over the bundle's zip bytes."}
	m := newTestModel(t, pkgs, 120, 80)
	selectRef(t, m, toolRef)
	if authIn(t, m, toolRef) == model.Approved {
		t.Fatal("a signed package's tool is approved before anyone approved it")
	}
	press(t, m, "a")
	if m.dialog() == nil {
		t.Fatal("a did not open the confirmation")
	}
	v := screen(m)
	wantShown(t, "dialog", v, "Publisher signature", "verified", "CN=Acme␛[2J", fp)
	if strings.Contains(v, "\x1b[2J") {
		t.Error("the signer reached the screen unescaped")
	}
	press(t, m, "y")
	if authIn(t, m, toolRef) != model.Approved {
		t.Fatal("approve was not recorded")
	}
}

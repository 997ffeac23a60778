package dalo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/model"
)

// TestExamples: the richer example source is valid and supported by both providers (with
// its optional Claude-only hook visibly omitted for Codex), and every broken example
// source yields its specific diagnostic code.
func TestExamples(t *testing.T) {
	ps := Load("../../examples/dalo/security-review", Options{})
	if len(ps) != 2 {
		t.Fatalf("%d packages", len(ps))
	}
	for _, p := range ps {
		if !p.Valid() {
			t.Errorf("%s invalid: %v", p.Name, allCodes(p))
		}
		for _, pr := range p.Providers {
			if p.Name == "guardrails" && pr.Status != model.Supported {
				t.Errorf("%s: %+v", p.Name, pr)
			}
		}
	}
	g := ps[1]
	var hooks int
	for _, c := range g.Components {
		if c.Kind == model.KindHook {
			hooks++
		}
	}
	if hooks != 13 || strings.Join(g.Providers[1].UnsupportedHooks, ",") != "post-tool-replace" {
		t.Errorf("hooks %d, codex %+v", hooks, g.Providers[1])
	}
	if ins := g.Component(model.KindInstruction, "house-style"); ins == nil || !ins.Inactive {
		t.Errorf("recommended instruction not inactive: %+v", ins)
	}

	dirs, _ := filepath.Glob("../../examples/dalo/broken/*")
	if len(dirs) < 20 {
		t.Fatalf("only %d broken examples", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "EXPECT"))
			if err != nil {
				t.Fatal(err)
			}
			code := strings.TrimSpace(string(want))
			found, invalid := false, false
			for _, p := range Load(dir, Options{}) {
				if hasCode(p, code) {
					found = true
				}
				if !p.Valid() {
					invalid = true
				}
			}
			if !found || !invalid {
				t.Errorf("want %s on an invalid package (found %v, invalid %v)", code, found, invalid)
			}
		})
	}
}

// An invalid tool or hook invalidates the whole package contract, as upstream reports it:
// nothing of a package with a known-bad half may be activated, so the package carries a
// package-boundary error that blocks every sibling in trust.
func TestInvalidComponentInvalidatesPackageContract(t *testing.T) {
	for _, src := range []string{"../../examples/dalo/broken/binding-type", "../../examples/dalo/broken/argv-embedded"} {
		pkgs := Load(src, Options{})
		if len(pkgs) != 1 {
			t.Fatalf("%s: %d packages", src, len(pkgs))
		}
		found := false
		for _, d := range pkgs[0].Diagnostics {
			if d.Code == "invalid_plugin_package" && d.Boundary == model.BoundaryPackage && d.IsError() {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no package-boundary invalid_plugin_package: %+v", src, pkgs[0].Diagnostics)
		}
	}
	// The valid upstream example carries no such error.
	for _, d := range Load("../../examples/dalo/design-review", Options{})[0].Diagnostics {
		if d.Code == "invalid_plugin_package" {
			t.Fatalf("valid example: %+v", d)
		}
	}
}

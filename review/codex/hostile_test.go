package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review/fsguard"
	"vouch/review/internal/loadertest"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		loadertest.WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), body)
	}
}

const okHooks = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./run.sh"}]}]}}`

func TestHostile(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.sh": "#!/bin/sh\n", "hooks.json": okHooks})
	tests := []struct {
		name   string
		files  map[string]string
		setup  func(t *testing.T, dir string)
		limits fsguard.Limits
		check  func(t *testing.T, p *model.Package)
	}{
		{name: "symlink out of the plugin blocks every hook", files: map[string]string{manifestFile: `{"name":"x"}`, defaultHooksFile: okHooks},
			setup: func(t *testing.T, dir string) {
				must(t, os.Symlink(filepath.Join(outside, "secret.sh"), filepath.Join(dir, "run.sh")))
			},
			check: func(t *testing.T, p *model.Package) {
				c := p.Component(model.KindHook, "hooks/hooks.json:stop:0:0")
				if c == nil || c.Contract != nil || !hasCode(p, "plugin-file-absolute-link") {
					t.Fatalf("hook must be unapprovable: %+v", c)
				}
			}},
		{name: "hooks file symlinked outside is not read", files: map[string]string{manifestFile: `{"name":"x"}`},
			setup: func(t *testing.T, dir string) {
				must(t, os.MkdirAll(filepath.Join(dir, "hooks"), 0o755))
				must(t, os.Symlink(filepath.Join(outside, "hooks.json"), filepath.Join(dir, defaultHooksFile)))
			},
			check: func(t *testing.T, p *model.Package) {
				if !hasCode(p, "hooks-file-unreadable") || p.Component(model.KindHook, "hooks/hooks.json:stop:0:0") != nil {
					t.Fatalf("codes %v", loadertest.Codes(p))
				}
			}},
		{name: "a FIFO named hooks.json does not hang", files: map[string]string{manifestFile: `{"name":"x"}`},
			setup: func(t *testing.T, dir string) {
				must(t, os.MkdirAll(filepath.Join(dir, "hooks"), 0o755))
				testtree.Fifo(t, filepath.Join(dir, defaultHooksFile))
			},
			check: func(t *testing.T, p *model.Package) {
				if !hasCode(p, "hooks-file-unreadable") {
					t.Fatalf("codes %v", loadertest.Codes(p))
				}
			}},
		{name: "oversized manifest", files: map[string]string{manifestFile: `{"name":"x","description":"` + strings.Repeat("a", 2<<20) + `"}`},
			check: func(t *testing.T, p *model.Package) {
				if !p.Rejected || !hasCode(p, "manifest-unreadable") {
					t.Fatalf("codes %v", loadertest.Codes(p))
				}
			}},
		{name: "deep manifest", files: map[string]string{manifestFile: `{"name":"x","interface":` + strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40) + `}`},
			check: func(t *testing.T, p *model.Package) {
				if !p.Rejected || !hasCode(p, "manifest-too-deep") {
					t.Fatalf("codes %v", loadertest.Codes(p))
				}
			}},
		{name: "invalid UTF-8 manifest", files: map[string]string{manifestFile: "{\"name\":\"\xff\"}"},
			check: func(t *testing.T, p *model.Package) {
				if !p.Rejected || !hasCode(p, "manifest-invalid-utf8") {
					t.Fatalf("codes %v", loadertest.Codes(p))
				}
			}},
		{name: "too many handlers rejects the hooks file, bounded", files: map[string]string{manifestFile: `{"name":"x"}`,
			defaultHooksFile: `{"hooks":{"Stop":[{"hooks":[` + strings.TrimSuffix(strings.Repeat(`{"type":"command","command":"x"},`, 1500), ",") + `]}]}}`},
			check: func(t *testing.T, p *model.Package) {
				if !hasCode(p, "hooks-file-rejected") || len(p.Components) != 0 {
					t.Fatalf("codes %v, %d components", loadertest.Codes(p), len(p.Components))
				}
			}},
		{name: "control characters and bidi stay data", files: map[string]string{manifestFile: `{"name":"x"}`,
			defaultHooksFile: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo \u001b[2J \u202e evil"}]}]}}`},
			check: func(t *testing.T, p *model.Package) {
				c := p.Component(model.KindHook, "hooks/hooks.json:stop:0:0")
				cmd, _ := c.Contract.Fields.Get("command")
				if !strings.Contains(cmd.(string), "\x1b[2J") {
					t.Fatalf("the contract must hold the exact bytes Codex runs: %q", cmd)
				}
			}},
		{name: "package limit leaves hooks unapprovable", files: map[string]string{manifestFile: `{"name":"x"}`, defaultHooksFile: okHooks, "big.bin": strings.Repeat("b", 4096)},
			limits: func() fsguard.Limits { l := fsguard.DefaultLimits(); l.MaxTotalBytes = 2048; return l }(),
			check: func(t *testing.T, p *model.Package) {
				c := p.Component(model.KindHook, "hooks/hooks.json:stop:0:0")
				if c == nil || c.Contract != nil {
					t.Fatalf("a partial file list must not be approvable: %+v", c)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			tt.check(t, Load(dir, Options{Limits: tt.limits}))
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// IsRoot: the .codex-plugin folder is never a package root of its own.
func TestIsRoot(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{manifestFile: `{"name":"x"}`})
	if !IsRoot(dir) || IsRoot(filepath.Join(dir, ".codex-plugin")) || IsMarketplace(dir) {
		t.Fatal("detection")
	}
	if got := Detect(dir); len(got) != 1 || got[0] != model.FormatCodex {
		t.Fatalf("Detect = %v", got)
	}
}

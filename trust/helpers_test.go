package trust

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vouch/internal/memfiles"
	"vouch/model"
)

const runSh = "#!/bin/sh\n# prints context\necho one\necho two\necho three\necho four\necho five\necho six\necho seven\n"

// toolHookPackage builds a package like a loader would: a tool with a two-file closure,
// a hook on it whose contract includes the tool's digest, a skill, an extension (inert)
// and a README that belongs to no closure.
func toolHookPackage(root string, files memfiles.Files) *model.Package {
	if files == nil {
		files = files0()
	}
	toolFiles := []model.File{files.File("tools/run.sh", true), files.File("tools/lib.sh", false)}
	tool := &model.Component{
		Kind: model.KindTool, ID: "run", Validity: model.Valid,
		Support: []model.Support{{Provider: model.ClientClaudeCode, Status: model.Supported}},
		Summary: []string{"Runs tools/run.sh with sh."},
		Contract: &model.Contract{Kind: model.KindTool, Fields: model.Fields{
			{Key: "entry", Value: "tools/run.sh"},
			{Key: "runtime", Value: "sh"},
			{Key: "argv", Value: []string{"${input.dir}"}},
		}, Files: toolFiles},
		Files: toolFiles,
	}
	hook := &model.Component{
		Kind: model.KindHook, ID: "pre", Validity: model.Valid,
		DependsOn: []string{model.Ref("demo", model.KindTool, "run")},
		Contract: &model.Contract{Kind: model.KindHook, Fields: model.Fields{
			{Key: "subject", Value: "user_prompt"},
			{Key: "phase", Value: "before"},
			{Key: "tool_digest", Value: tool.Contract.MustDigest()},
		}},
	}
	skillFiles := []model.File{files.File("skills/a/SKILL.md", false)}
	skill := &model.Component{Kind: model.KindSkill, ID: "a", Validity: model.Valid,
		Contract: &model.Contract{Kind: model.KindSkill, Files: skillFiles}, Files: skillFiles}
	ext := &model.Component{Kind: model.KindExtension, ID: "dev.example", Validity: model.Valid}
	return &model.Package{Format: model.FormatDalo, Name: "demo", Root: root,
		Components: []*model.Component{hook, tool, skill, ext}, Reader: files}
}

func files0() memfiles.Files {
	return memfiles.Files{
		"tools/run.sh":      []byte(runSh),
		"tools/lib.sh":      []byte("helper() { :; }\n"),
		"skills/a/SKILL.md": []byte("---\nname: a\n---\nbody\n"),
		"README.md":         []byte("readme\n"),
	}
}

func openT(t *testing.T, home string, opts ...func(*Options)) *Trust {
	t.Helper()
	o := Options{Home: home, Reviewer: "tester", Now: fixedClock()}
	for _, f := range opts {
		f(&o)
	}
	tr, err := Open(o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return tr
}

func fixedClock() func() time.Time {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := 0
	return func() time.Time { n++; return t0.Add(time.Duration(n) * time.Minute) }
}

func comp(p *model.Package, kind model.Kind, id string) *model.Component {
	c := p.Component(kind, id)
	if c == nil {
		panic("no component " + id)
	}
	return c
}

// snapshot returns every regular file under dir with its bytes, to prove nothing changed.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

// trustLedger does what `vouch ledger trust FILE --yes` does: review, then pin what was shown.
func trustLedger(t *testing.T, tr *Trust, path string) *LedgerSummary {
	t.Helper()
	s, err := tr.ReviewTeamLedger(path)
	if err != nil {
		t.Fatalf("ReviewTeamLedger: %v", err)
	}
	if _, err := tr.TrustTeamLedger(s); err != nil {
		t.Fatalf("TrustTeamLedger: %v", err)
	}
	return s
}

package review

import (
	"encoding/json"
	"testing"

	"vouch/model"
	"vouch/review/skills"
)

// TestFolderFormatsShareSkills: the Claude Code and the Codex reading of one plugin read
// its skills once between them, and report exactly what each reports when it reads them
// alone.
func TestFolderFormatsShareSkills(t *testing.T) {
	dir := heavyPlugin(t, 12)
	jobs := detect(dir, Options{}.withDefaults().Limits)
	if len(jobs) != 2 || jobs[0].skills == nil || jobs[0].skills != jobs[1].skills {
		t.Fatalf("jobs of one folder: %d, sharing %v", len(jobs), jobs)
	}
	before := skills.ReadCount()
	res, err := Open(Options{}, dir)
	if err != nil || len(res.Packages) != 2 {
		t.Fatalf("%v: %d packages", err, len(res.Packages))
	}
	if n := skills.ReadCount() - before; n != 12 {
		t.Errorf("12 skills read %d times by two formats, want 12", n)
	}
	opts := Options{}.withDefaults()
	for _, p := range res.Packages {
		var alone []*model.Package
		for _, j := range jobs {
			if j.format.name == p.Format {
				j.skills = nil
				alone = j.load(opts)
			}
		}
		if len(alone) != 1 {
			t.Fatalf("%s alone: %d packages", p.Format, len(alone))
		}
		alone[0].SortComponents()
		got, _ := json.Marshal(p)
		want, _ := json.Marshal(alone[0])
		if string(got) != string(want) {
			t.Errorf("%s read beside the other format differs from %s read alone", p.Format, p.Format)
		}
	}
}

package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"vouch/internal/killtest"
	"vouch/internal/memfiles"
	"vouch/model"
)

// The fault tests re-run this test binary as a child process (VOUCH_TRUST_CHILD selects
// what it does) so that a real process can be SIGKILLed mid-write or run concurrently.
func TestMain(m *testing.M) {
	killtest.Main(m, "VOUCH_TRUST_CHILD", map[string]func() int{
		"writer":     childWriter,
		"teamwriter": childTeamWriter,
		"fs":         childFilesystem,
	})
}

// manyTools is a package with n tools, each with its own file, named by prefix.
func manyTools(prefix string, n int) *model.Package {
	files := memfiles.Files{}
	p := &model.Package{Format: model.FormatSplice, Name: "load", Reader: files}
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("tools/%s-%d.sh", prefix, i)
		files[path] = []byte(fmt.Sprintf("#!/bin/sh\necho %s %d\n", prefix, i))
		f := files.File(path, true)
		p.Components = append(p.Components, &model.Component{
			Kind: model.KindTool, ID: fmt.Sprintf("%s-%d", prefix, i), Validity: model.Valid,
			Contract: &model.Contract{Kind: model.KindTool, Fields: model.Fields{{Key: "entry", Value: path}}, Files: []model.File{f}},
		})
	}
	return p
}

// childWriter records VOUCH_TRUST_COUNT decisions and prints "ack <note>" after each
// one returns: the parent holds it to every acknowledged decision.
func childWriter() int {
	home, id := os.Getenv("VOUCH_TRUST_HOME"), os.Getenv("VOUCH_TRUST_ID")
	count, _ := strconv.Atoi(os.Getenv("VOUCH_TRUST_COUNT"))
	tr, err := Open(Options{Home: home, Reviewer: "child-" + id})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return writeDecisions(tr, id, count, manyTools(id, 4), false)
}

// childTeamWriter is childWriter with its own home, appending to the shared team ledger
// VOUCH_TRUST_LEDGER: one component per decision, since in a team ledger a revoke of a
// digest would refuse a later approval of it.
func childTeamWriter() int {
	home, id := os.Getenv("VOUCH_TRUST_HOME"), os.Getenv("VOUCH_TRUST_ID")
	count, _ := strconv.Atoi(os.Getenv("VOUCH_TRUST_COUNT"))
	tr, err := Open(Options{Home: home, Reviewer: "child-" + id, TeamLedger: os.Getenv("VOUCH_TRUST_LEDGER"), TrustLedger: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return writeDecisions(tr, id, count, manyTools(id, count), true)
}

// writeDecisions records count decisions on p's components in turn (every third a
// revoke), in the team ledger when team is set, and acks each on stdout once it is
// recorded; it is the child's exit status.
func writeDecisions(tr *Trust, id string, count int, p *model.Package, team bool) int {
	for i := 0; i < count; i++ {
		c := p.Components[i%len(p.Components)]
		note := fmt.Sprintf("%s-%d", id, i)
		o := DecideOptions{Note: note, ReviewerKind: ReviewerAutomation, Team: team}
		var err error
		if i%3 == 2 {
			_, err = tr.Revoke(p, c, DigestOf(c), o)
		} else {
			_, err = tr.Approve(p, c, DigestOf(c), o)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		killtest.Ack(note)
	}
	return 0
}

func childCmd(t *testing.T, env ...string) *exec.Cmd {
	cmd := killtest.Rerun(env...)
	cmd.Stderr = os.Stderr
	return cmd
}

// ledgerNotes reads the personal ledger (it must parse) and returns the notes it holds.
func ledgerNotes(t *testing.T, home string) map[string]int {
	t.Helper()
	l, _, err := readLedger(filepath.Join(home, "ledger.toml"), "personal")
	if err != nil {
		t.Fatalf("ledger does not parse: %v", err)
	}
	notes := map[string]int{}
	for _, d := range l.decisions {
		notes[d.Note]++
	}
	return notes
}

// checkStore verifies every store entry hashes to its name (no torn or partial entry).
func checkStore(t *testing.T, home string) int {
	t.Helper()
	n := 0
	root := filepath.Join(home, "store", "sha256")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(root, p)
		if hex.EncodeToString(sum[:]) != strings.ReplaceAll(rel, string(filepath.Separator), "") {
			t.Errorf("store entry %s does not match its content", rel)
		}
		n++
		return nil
	})
	return n
}

func TestKillDuringApprovals(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	home := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	acked := map[string]bool{}
	const rounds = 30
	for round := 0; round < rounds; round++ {
		child := killtest.Start(t, childCmd(t, "VOUCH_TRUST_CHILD=writer", "VOUCH_TRUST_HOME="+home,
			fmt.Sprintf("VOUCH_TRUST_ID=r%d", round), "VOUCH_TRUST_COUNT=100000"))
		// Kill anywhere from process start-up to many writes in; the microsecond jitter
		// lands the signal at different steps of a write.
		if round%2 == 1 {
			// Odd rounds wait until the writer is in its loop, then kill within a few
			// writes, so most kills land between the store, temp-file and rename steps.
			child.AwaitFirst(5 * time.Second)
			time.Sleep(time.Duration(rng.Intn(3000)) * time.Microsecond)
		} else {
			time.Sleep(time.Duration(rng.Intn(60000)) * time.Microsecond)
		}
		for _, n := range child.Kill() {
			acked[n] = true
		}
		notes := ledgerNotes(t, home)
		for n := range acked {
			if notes[n] != 1 {
				t.Fatalf("round %d: acknowledged decision %s is in the ledger %d times", round, n, notes[n])
			}
		}
	}
	stored := checkStore(t, home)
	t.Logf("%d rounds, %d acknowledged decisions kept, %d store entries intact", rounds, len(acked), stored)
	if len(acked) == 0 {
		t.Fatal("no decision was acknowledged in any round; the test proved nothing")
	}
	// The ledger is still writable after all the kills (no stuck lock).
	tr := openT(t, home)
	p := manyTools("after", 1)
	if _, err := tr.Approve(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{}); err != nil {
		t.Fatal(err)
	}
	if stale, _ := filepath.Glob(filepath.Join(home, ".ledger.toml.*.tmp")); len(stale) > 0 {
		t.Fatalf("orphaned temporary ledgers were not cleaned: %v", stale)
	}
}

func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	home := t.TempDir()
	const procs, each = 8, 6
	var cmds []*exec.Cmd
	for i := 0; i < procs; i++ {
		cmd := childCmd(t, "VOUCH_TRUST_CHILD=writer", "VOUCH_TRUST_HOME="+home,
			fmt.Sprintf("VOUCH_TRUST_ID=p%d", i), fmt.Sprintf("VOUCH_TRUST_COUNT=%d", each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer failed: %v", err)
		}
	}
	notes := ledgerNotes(t, home)
	for i := 0; i < procs; i++ {
		for j := 0; j < each; j++ {
			if n := notes[fmt.Sprintf("p%d-%d", i, j)]; n != 1 {
				t.Fatalf("decision p%d-%d recorded %d times", i, j, n)
			}
		}
	}
	if len(notes) != procs*each {
		t.Fatalf("%d decisions, want %d", len(notes), procs*each)
	}
	// Every process's tools show the state of its last decision.
	tr := openT(t, home)
	for i := 0; i < procs; i++ {
		p := manyTools(fmt.Sprintf("p%d", i), 4)
		m, err := tr.Statuses(p)
		if err != nil {
			t.Fatal(err)
		}
		// Decisions 0..5 over 4 tools: tool 0 ← 4 (approve), 1 ← 5 (revoke), 2 ← 2 (revoke), 3 ← 3 (approve).
		want := []model.Authorization{model.Approved, model.Revoked, model.Revoked, model.Approved}
		for k, w := range want {
			if got := m[p.Ref(p.Components[k])].Authorization; got != w {
				t.Fatalf("p%d tool %d: %s, want %s", i, k, got, w)
			}
		}
	}
}

// TestConcurrentHomesOneTeamLedger: 8 processes, each with its own home, append 30
// decisions each to one team ledger. The lock lives next to the ledger, so every
// acknowledged decision is kept.
func TestConcurrentHomesOneTeamLedger(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	team := filepath.Join(t.TempDir(), "repo", ".vouch", "ledger.toml")
	const procs, each = 8, 30
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := 0; i < procs; i++ {
		cmd := childCmd(t, "VOUCH_TRUST_CHILD=teamwriter", "VOUCH_TRUST_HOME="+t.TempDir(), "VOUCH_TRUST_LEDGER="+team,
			fmt.Sprintf("VOUCH_TRUST_ID=h%d", i), fmt.Sprintf("VOUCH_TRUST_COUNT=%d", each))
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outs = append(outs, &out)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer failed: %v", err)
		}
	}
	acked := 0
	for _, o := range outs {
		acked += strings.Count(o.String(), "ack ")
	}
	if acked != procs*each {
		t.Fatalf("%d decisions acknowledged, want %d", acked, procs*each)
	}
	l, _, err := readLedger(team, "team")
	if err != nil {
		t.Fatalf("team ledger does not parse: %v", err)
	}
	notes := map[string]int{}
	for _, d := range l.decisions {
		notes[d.Note]++
	}
	for i := 0; i < procs; i++ {
		for j := 0; j < each; j++ {
			if n := notes[fmt.Sprintf("h%d-%d", i, j)]; n != 1 {
				t.Fatalf("acknowledged decision h%d-%d is in the team ledger %d times", i, j, n)
			}
		}
	}
	if len(l.decisions) != procs*each {
		t.Fatalf("%d decisions in the team ledger, want %d", len(l.decisions), procs*each)
	}
	if _, err := os.Stat(lockNameFor(team)); err != nil {
		t.Fatalf("no lock next to the team ledger: %v", err)
	}
	// A reader sees every home's state.
	tr := openT(t, t.TempDir(), func(o *Options) { o.TeamLedger, o.TrustLedger = team, true })
	p := manyTools("h3", each)
	m, err := tr.Statuses(p)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < each; j++ {
		want := model.Approved
		if j%3 == 2 {
			want = model.Revoked
		}
		if got := m[p.Ref(p.Components[j])].Authorization; got != want {
			t.Fatalf("h3 tool %d: %s, want %s", j, got, want)
		}
	}
}

// childFilesystem runs inside new user and mount namespaces, where it can mount a small
// tmpfs: VOUCH_TRUST_FS=readonly remounts the home read-only, =full fills it. Either way
// a decision must fail with a clear error and change nothing.
func childFilesystem() int {
	home, mode := os.Getenv("VOUCH_TRUST_HOME"), os.Getenv("VOUCH_TRUST_FS")
	fail := func(f string, a ...any) int { fmt.Fprintf(os.Stderr, f+"\n", a...); return 1 }
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fail("SKIP make-private: %v", err)
	}
	if err := syscall.Mount("tmpfs", home, "tmpfs", 0, "size=512k"); err != nil {
		return fail("SKIP mount tmpfs: %v", err)
	}
	tr, err := Open(Options{Home: home, Reviewer: "fs"})
	if err != nil {
		return fail("open: %v", err)
	}
	p := manyTools("fs", 2)
	if _, err := tr.Approve(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{}); err != nil {
		return fail("first approval: %v", err)
	}
	want := "read-only file system"
	switch mode {
	case "readonly":
		if err := syscall.Mount("", home, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			return fail("SKIP remount read-only: %v", err)
		}
	case "full":
		want = "no space left on device"
		f, err := os.Create(filepath.Join(home, "filler"))
		if err != nil {
			return fail("filler: %v", err)
		}
		buf := make([]byte, 4096)
		for {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
		f.Close()
	}
	before := snapshotPlain(home)
	for _, act := range []string{"approve", "revoke"} {
		var err error
		if act == "approve" {
			_, err = tr.Approve(p, p.Components[1], DigestOf(p.Components[1]), DecideOptions{})
		} else {
			_, err = tr.Revoke(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{})
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			return fail("%s on a %s home: error %v, want %q", act, mode, err, want)
		}
		fmt.Println(act + ": " + err.Error())
	}
	if after := snapshotPlain(home); fmt.Sprint(after) != fmt.Sprint(before) {
		return fail("the home changed:\nbefore %v\nafter  %v", keys(before), keys(after))
	}
	if m, _ := tr.Statuses(p); m[p.Ref(p.Components[0])].Authorization != model.Approved {
		return fail("the first approval was lost")
	}
	return 0
}

func snapshotPlain(dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			s := sha256.Sum256(b)
			out[p] = hex.EncodeToString(s[:])
		}
		return nil
	})
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestReadOnlyAndFullHome needs unprivileged user namespaces (to mount a tmpfs); it is
// skipped where they are not available.
func TestReadOnlyAndFullHome(t *testing.T) {
	for _, mode := range []string{"readonly", "full"} {
		t.Run(mode, func(t *testing.T) {
			home := t.TempDir()
			cmd := childCmd(t, "VOUCH_TRUST_CHILD=fs", "VOUCH_TRUST_HOME="+home, "VOUCH_TRUST_FS="+mode)
			cmd.Stderr = nil
			cmd.SysProcAttr = &syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
			}
			out, err := cmd.CombinedOutput()
			if err != nil && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || strings.HasPrefix(string(out), "SKIP")) {
				t.Skipf("no user namespaces here: %v %s", err, out)
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			t.Logf("%s", out)
		})
	}
}

// TestUnwritableHome: a home that cannot be created gives a clear error and writes nothing.
func TestUnwritableHome(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	if _, err := Open(Options{Home: filepath.Join(blocker, "home")}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Open with a home under a file: %v", err)
	}
	p := manyTools("x", 1)
	if os.Geteuid() != 0 {
		ro := t.TempDir()
		tr := openT(t, ro)
		if _, err := tr.Approve(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{}); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, ro)
		filepath.WalkDir(ro, func(p string, d fs.DirEntry, err error) error {
			if d.IsDir() {
				os.Chmod(p, 0o555)
			}
			return nil
		})
		defer filepath.WalkDir(ro, func(p string, d fs.DirEntry, err error) error {
			if d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		if _, err := tr.Revoke(p, p.Components[0], DigestOf(p.Components[0]), DecideOptions{}); err == nil {
			t.Fatal("revoke in a read-only home succeeded")
		}
		if fmt.Sprint(snapshot(t, ro)) != fmt.Sprint(before) {
			t.Fatal("read-only home changed")
		}
	}
}

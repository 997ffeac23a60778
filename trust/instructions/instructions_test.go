package instructions

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func tmpTarget(t *testing.T, data []byte, mode os.FileMode) Target {
	t.Helper()
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	if data != nil {
		if err := os.WriteFile(path, data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	return Target{Spec: path, Path: path}
}

// randomText builds target files from pieces that stress the layout: both line breaks,
// lone CRs, blank lines, missing final newline, a BOM, non-UTF-8 bytes, and other
// managers' and vouch's blocks.
func randomText(r *rand.Rand) []byte {
	pieces := []string{"a", "text", " ", "\t", "\n", "\n", "\r\n", "\r\n", "\r", "\n\n", "\r\n\r\n",
		"\xff\xfe", "é", "<!-- not a marker -->", "<!--", "-->", "\x1b[31m",
		"\n<!-- dalo:start src:p -->\nD\n<!-- dalo:end src:p -->\n",
		"\r\n<!-- vouch:start other#instruction:o -->\r\nO\r\n<!-- vouch:end other#instruction:o -->\r\n",
		"\n<!-- vouch:start x#instruction:y -->\n\n<!-- vouch:end x#instruction:y -->",
	}
	var b bytes.Buffer
	if r.Intn(5) == 0 {
		b.Write(bom)
	}
	for n := r.Intn(12); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.Bytes()
}

func randomBody(r *rand.Rand) string {
	pieces := []string{"Do this.", "\n", "\r\n", "\n\n", " ", "# Heading", "é", "\xff", "<!-- inline -->", "`code`"}
	var b strings.Builder
	for n := 1 + r.Intn(6); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

// TestPropertyApplyRemove: over many generated files, apply then remove returns the
// original bytes exactly, also with a second block applied in between (removed in
// either order), and apply is idempotent.
func TestPropertyApplyRemove(t *testing.T) {
	r := rand.New(rand.NewSource(20260101))
	idA, idB := BlockID("pkg", "a"), BlockID("other-pkg", "b")
	tried := 0
	for i := 0; i < 20000; i++ {
		orig := randomText(r)
		blocks, problems := Scan(orig)
		if len(problems) > 0 {
			continue
		}
		tried++
		bodyA, bodyB := randomBody(r), randomBody(r)
		a1, err := applyBytes(orig, blocks, idA, bodyA)
		if err != nil {
			t.Fatalf("apply %q: %v", orig, err)
		}
		bl1, pr1 := Scan(a1)
		if len(pr1) > 0 {
			t.Fatalf("apply made damaged markers: %q -> %q: %v", orig, a1, pr1)
		}
		blk, ok := findBlock(bl1, idA)
		if !ok || !SameBody(string(blk.Body(a1)), bodyA) {
			t.Fatalf("applied block not found intact in %q", a1)
		}
		// Idempotent: applying the same text again changes nothing.
		if again, _ := applyBytes(a1, bl1, idA, bodyA); !bytes.Equal(again, a1) {
			t.Fatalf("re-apply changed %q to %q", a1, again)
		}
		if back := removeBytes(a1, bl1, idA); !bytes.Equal(back, orig) {
			t.Fatalf("apply+remove:\n orig %q\napplied %q\n back %q", orig, a1, back)
		}
		a2, err := applyBytes(a1, bl1, idB, bodyB)
		if err != nil {
			t.Fatal(err)
		}
		bl2, _ := Scan(a2)
		// LIFO.
		x := removeBytes(a2, bl2, idB)
		xb, _ := Scan(x)
		if y := removeBytes(x, xb, idA); !bytes.Equal(y, orig) {
			t.Fatalf("apply A, apply B, remove B, remove A:\n orig %q\n got %q", orig, y)
		}
		// FIFO.
		x = removeBytes(a2, bl2, idA)
		xb, _ = Scan(x)
		if y := removeBytes(x, xb, idB); !bytes.Equal(y, orig) {
			t.Fatalf("apply A, apply B, remove A, remove B:\n orig %q\n a2 %q\n got %q", orig, a2, y)
		}
		// Replacing in place keeps every byte outside the block.
		a3, _ := applyBytes(a1, bl1, idA, bodyB)
		bl3, _ := Scan(a3)
		if back := removeBytes(a3, bl3, idA); !bytes.Equal(back, orig) {
			t.Fatalf("apply, replace, remove: orig %q got %q", orig, back)
		}
	}
	t.Logf("%d generated files without damaged markers, each checked 6 ways", tried)
	if tried < 5000 {
		t.Fatalf("only %d generated inputs were usable", tried)
	}
}

func TestConcurrentEditDetected(t *testing.T) {
	tg := tmpTarget(t, []byte("# Mine\n"), 0o644)
	p, err := PreviewApply(tg, BlockID("p", "i"), "Body.", "")
	if err != nil {
		t.Fatal(err)
	}
	// Someone (an editor, another vouch) writes between preview and apply.
	if err := os.WriteFile(tg.Path, []byte("# Mine\nnew line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Commit(p, false); !errors.Is(err, ErrChanged) {
		t.Fatalf("Commit = %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(tg.Path); string(got) != "# Mine\nnew line\n" {
		t.Fatalf("the concurrent edit was overwritten: %q", got)
	}
	// A file created after a preview of a missing target is a change too.
	missing := Target{Path: filepath.Join(t.TempDir(), "d", "CLAUDE.md")}
	p, err = PreviewApply(missing, BlockID("p", "i"), "Body.", "")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(missing.Path), 0o755)
	os.WriteFile(missing.Path, nil, 0o644)
	if err := Commit(p, false); !errors.Is(err, ErrChanged) {
		t.Fatalf("Commit after creation = %v, want ErrChanged", err)
	}
	// Deleted after the preview.
	tg = tmpTarget(t, []byte("x\n"), 0o644)
	p, _ = PreviewRemove(tg, BlockID("p", "i"), "")
	p2, _ := PreviewApply(tg, BlockID("p", "i"), "B", "")
	os.Remove(tg.Path)
	if err := Commit(p2, false); !errors.Is(err, ErrChanged) {
		t.Fatalf("Commit after deletion = %v, want ErrChanged", err)
	}
	_ = p
}

func TestCommitKeepsModeAndCreates(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644, 0o755, 0o444} {
		tg := tmpTarget(t, []byte("x\r\n"), mode)
		p, err := PreviewApply(tg, BlockID("p", "i"), "B", "")
		if err != nil {
			t.Fatal(err)
		}
		if err := Commit(p, false); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(tg.Path)
		if st.Mode().Perm() != mode {
			t.Errorf("mode %v became %v", mode, st.Mode().Perm())
		}
		// No temporary file is left behind.
		ents, _ := os.ReadDir(filepath.Dir(tg.Path))
		if len(ents) != 1 {
			t.Errorf("directory holds %d entries after the write", len(ents))
		}
	}
	// Missing target: created with its parent directories, mode 0644.
	path := filepath.Join(t.TempDir(), "a", "b", "AGENTS.md")
	p, err := PreviewApply(Target{Path: path}, BlockID("p", "i"), "B", "")
	if err != nil || p.Exists {
		t.Fatalf("%v %v", err, p.Exists)
	}
	if err := Commit(p, false); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("created file: %v %v", st, err)
	}
	// Remove on a missing file never creates it.
	gone := filepath.Join(t.TempDir(), "x", "CLAUDE.md")
	p, err = PreviewRemove(Target{Path: gone}, BlockID("p", "i"), "")
	if err != nil || !p.NoChange {
		t.Fatalf("%v %+v", err, p)
	}
	if err := Commit(p, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(gone)); !os.IsNotExist(err) {
		t.Fatal("remove created the directory")
	}
}

func TestRefusals(t *testing.T) {
	// Non-regular targets are refused without being opened (a FIFO would block).
	fifo := filepath.Join(t.TempDir(), "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := PreviewApply(Target{Path: fifo}, "x", "B", ""); !errors.Is(err, ErrNotFile) {
			t.Errorf("fifo: %v", err)
		}
	}
	// Too large.
	big := filepath.Join(t.TempDir(), "big.md")
	f, _ := os.Create(big)
	f.Truncate(MaxTargetSize + 1)
	f.Close()
	if _, err := PreviewApply(Target{Path: big}, "x", "B", ""); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big: %v", err)
	}
	// A body holding a marker line would forge or end a block.
	tg := tmpTarget(t, []byte("x\n"), 0o644)
	for _, body := range []string{
		"ok\n<!-- vouch:end p#instruction:i -->\nmore",
		"<!-- dalo:start src:x -->",
		"  <!-- other:end y -->  ",
	} {
		if _, err := PreviewApply(tg, BlockID("p", "i"), body, ""); !errors.Is(err, ErrBodyMarker) {
			t.Errorf("body %q: %v", body, err)
		}
	}
	// Damaged markers: a *MarkerError with line numbers, nothing written.
	tg = tmpTarget(t, []byte("a\n<!-- vouch:start p#instruction:i -->\nb\n"), 0o644)
	_, err := PreviewApply(tg, BlockID("p", "i"), "B", "")
	var me *MarkerError
	if !errors.As(err, &me) || len(me.Problems) != 1 || me.Problems[0].Line != 2 || me.Problems[0].Kind != ProblemMissingEnd {
		t.Fatalf("damaged: %v", err)
	}
	if !strings.Contains(err.Error(), "Line 2") {
		t.Errorf("message lacks the line: %v", err)
	}
	// Conflict refused without overwrite, then accepted with it.
	tg = tmpTarget(t, []byte("<!-- vouch:start p#instruction:i -->\nhand edit\n<!-- vouch:end p#instruction:i -->\n"), 0o644)
	p, err := PreviewApply(tg, BlockID("p", "i"), "new", "old")
	if err != nil || p.Conflict == nil || p.Conflict.Current != "hand edit" || p.Conflict.LastWritten != "old" || p.Conflict.New != "new" {
		t.Fatalf("%v %+v", err, p)
	}
	if err := Commit(p, false); !errors.Is(err, ErrConflict) {
		t.Fatalf("%v", err)
	}
	if err := Commit(p, true); err != nil {
		t.Fatal(err)
	}
	// Line-break changes by an editor are not hand edits.
	tg = tmpTarget(t, []byte("<!-- vouch:start p#instruction:i -->\r\nold\r\ntext\r\n<!-- vouch:end p#instruction:i -->\r\n"), 0o644)
	p, err = PreviewApply(tg, BlockID("p", "i"), "new", "old\ntext\n")
	if err != nil || p.Conflict != nil {
		t.Fatalf("%v %+v", err, p.Conflict)
	}
}

func TestRevert(t *testing.T) {
	tg := tmpTarget(t, []byte("keep\n"), 0o600)
	p, _ := PreviewApply(tg, BlockID("p", "i"), "B", "")
	if err := Commit(p, false); err != nil {
		t.Fatal(err)
	}
	if err := Revert(p); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(tg.Path); string(got) != "keep\n" {
		t.Fatalf("%q", got)
	}
	// A created file is deleted again.
	path := filepath.Join(t.TempDir(), "new.md")
	p, _ = PreviewApply(Target{Path: path}, BlockID("p", "i"), "B", "")
	Commit(p, false)
	if err := Revert(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("created file kept")
	}
	// Never reverts over someone else's later write.
	p, _ = PreviewApply(tg, BlockID("p", "i"), "B", "")
	Commit(p, false)
	os.WriteFile(tg.Path, []byte("theirs\n"), 0o600)
	if err := Revert(p); !errors.Is(err, ErrChanged) {
		t.Fatalf("%v", err)
	}
}

func TestResolveTarget(t *testing.T) {
	codex, claude := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", codex)
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	tg, err := ResolveTarget("codex")
	if err != nil || tg.Path != filepath.Join(codex, "AGENTS.md") || !strings.Contains(tg.AppliesTo, "Codex") {
		t.Fatalf("%+v %v", tg, err)
	}
	tg, err = ResolveTarget("claude")
	if err != nil || tg.Path != filepath.Join(claude, "CLAUDE.md") || !strings.Contains(tg.AppliesTo, "Claude") {
		t.Fatalf("%+v %v", tg, err)
	}
	// The explicit path of a provider's global file says so.
	tg, _ = ResolveTarget(filepath.Join(codex, "AGENTS.md"))
	if !strings.Contains(tg.AppliesTo, "every project") {
		t.Errorf("%+v", tg)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	if tg, _ := ResolveTarget("codex"); tg.Path != filepath.Join(home, ".codex", "AGENTS.md") {
		t.Errorf("default codex: %s", tg.Path)
	}
	if tg, _ := ResolveTarget("claude"); tg.Path != filepath.Join(home, ".claude", "CLAUDE.md") {
		t.Errorf("default claude: %s", tg.Path)
	}
	if tg, _ := ResolveTarget("~/x/AGENTS.md"); tg.Path != filepath.Join(home, "x", "AGENTS.md") {
		t.Errorf("~: %s", tg.Path)
	}
	wd, _ := os.Getwd()
	if tg, _ := ResolveTarget("CLAUDE.md"); tg.Path != filepath.Join(wd, "CLAUDE.md") || !strings.Contains(tg.AppliesTo, wd) {
		t.Errorf("relative: %+v", tg)
	}
	if _, err := ResolveTarget(""); err == nil {
		t.Error("empty target accepted")
	}
	if _, err := ResolveTarget(t.TempDir()); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory target: %v", err)
	}
}

func TestBlockID(t *testing.T) {
	cases := map[[2]string]string{
		{"design-review", "design-context"}: "design-review#instruction:design-context",
		{"a--b", "c"}:                       "a-%2Db#instruction:c",
		{"x", "a b>c\n"}:                    "x#instruction:a%20b%3Ec%0A",
		{"p", "--->"}:                       "p#instruction:-%2D-%3E",
		{"p", "100%"}:                       "p#instruction:100%25",
	}
	for in, want := range cases {
		got := BlockID(in[0], in[1])
		if got != want {
			t.Errorf("BlockID(%q,%q) = %q, want %q", in[0], in[1], got, want)
		}
		if strings.Contains(got, "--") || strings.ContainsAny(got, "> \t\r\n") {
			t.Errorf("unsafe id %q", got)
		}
	}
	// Any id round-trips through a written block.
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 2000; i++ {
		raw := make([]byte, r.Intn(20))
		r.Read(raw)
		id := EncodeID(string(raw))
		out, err := applyBytes([]byte("x\n"), nil, id, "B")
		if err != nil {
			t.Fatal(err)
		}
		blocks, problems := Scan(out)
		if _, ok := findBlock(blocks, id); !ok || len(problems) > 0 {
			t.Fatalf("id %q from %q not found back: %v", id, raw, problems)
		}
	}
}

func TestScanProblems(t *testing.T) {
	s := func(m, id string) string { return "<!-- " + m + ":start " + id + " -->\n" }
	e := func(m, id string) string { return "<!-- " + m + ":end " + id + " -->\n" }
	cases := []struct {
		name, in string
		want     []string // kind@line
		blocks   int
	}{
		{"clean", "a\n" + s("vouch", "x") + "b\n" + e("vouch", "x"), nil, 1},
		{"two managers", s("dalo", "x") + e("dalo", "x") + s("vouch", "x") + e("vouch", "x"), nil, 2},
		{"missing end", s("vouch", "x") + "b\n", []string{"marker-missing-end@1"}, 0},
		{"missing start", "a\n" + e("vouch", "x"), []string{"marker-missing-start@2"}, 0},
		{"duplicate start", s("vouch", "x") + s("vouch", "x") + e("vouch", "x"), []string{"marker-duplicate-start@2"}, 0},
		{"duplicate block", s("vouch", "x") + e("vouch", "x") + s("vouch", "x") + e("vouch", "x"), []string{"marker-duplicate-start@3"}, 0},
		{"duplicate end", s("vouch", "x") + e("vouch", "x") + e("vouch", "x"), []string{"marker-duplicate-end@3"}, 0},
		{"end before start", e("vouch", "x") + s("vouch", "x") + e("vouch", "x"), []string{"marker-out-of-order@1"}, 0},
		{"nested", s("dalo", "d") + s("vouch", "x") + e("vouch", "x") + e("dalo", "d"), []string{"marker-nested@2", "marker-out-of-order@3"}, 1},
		{"crossed", s("vouch", "a") + s("vouch", "b") + e("vouch", "a") + e("vouch", "b"), []string{"marker-nested@2", "marker-out-of-order@4"}, 1},
		{"inline is text", "see <!-- vouch:start x --> here\n", nil, 0},
		{"crlf", "a\r\n<!-- vouch:start x -->\r\nb\r\n<!-- vouch:end x -->\r\n", nil, 1},
		{"bom first line", "\xef\xbb\xbf" + s("vouch", "x") + e("vouch", "x"), nil, 1},
		{"no final newline", s("vouch", "x") + "<!-- vouch:end x -->", nil, 1},
	}
	for _, c := range cases {
		blocks, problems := Scan([]byte(c.in))
		var got []string
		for _, p := range problems {
			got = append(got, p.Kind+"@"+itoa(p.Line))
			if p.Message == "" || !strings.HasSuffix(p.Message, ".") {
				t.Errorf("%s: message %q", c.name, p.Message)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: problems %v, want %v", c.name, got, c.want)
		}
		if len(blocks) != c.blocks {
			t.Errorf("%s: %d blocks, want %d", c.name, len(blocks), c.blocks)
		}
	}
	// Body offsets.
	in := []byte("<!-- vouch:start x -->\r\nline 1\r\nline 2\r\n<!-- vouch:end x -->\r\n")
	blocks, _ := Scan(in)
	if string(blocks[0].Body(in)) != "line 1\r\nline 2" || blocks[0].StartLine != 1 || blocks[0].EndLine != 4 {
		t.Fatalf("%+v %q", blocks[0], blocks[0].Body(in))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestDetectEOL(t *testing.T) {
	for in, want := range map[string]string{
		"": "\n", "a": "\n", "a\n": "\n", "a\r\n": "\r\n", "a\r\nb\nc\r\n": "\r\n",
		"a\nb\r\nc\n": "\n", "a\nb\r\n": "\r\n", "a\r\nb\n": "\n", "a\r": "\n",
	} {
		if got := detectEOL([]byte(in)); got != want {
			t.Errorf("detectEOL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnifiedDiffHunks(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 20; i++ {
		line := "line " + strings.Repeat("x", i%3) + string(rune('a'+i)) + "\n"
		a.WriteString(line)
		switch i {
		case 2:
			b.WriteString("changed 2\n")
		case 15:
		default:
			b.WriteString(line)
		}
	}
	d := UnifiedDiff([]byte(a.String()), []byte(b.String()), "old", "new")
	want := "--- old\n+++ new\n" +
		"@@ -1,5 +1,5 @@\n line xb\n-line xxc\n+changed 2\n line d\n line xe\n line xxf\n" +
		"@@ -12,7 +12,6 @@\n line m\n line xn\n line xxo\n-line p\n line xq\n line xxr\n line s\n"
	if d != want {
		t.Fatalf("got\n%s\nwant\n%s", d, want)
	}
	if UnifiedDiff([]byte("same"), []byte("same"), "a", "b") != "" {
		t.Fatal("equal inputs gave a diff")
	}
}

// TestDiffManyDistinctLines: a hostile target with more distinct lines than go-diff's
// line table must still diff (the unchanged head is cut off before go-diff runs).
func TestDiffManyDistinctLines(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 300000; i++ {
		b.WriteString(strings.Repeat("z", i%7))
		b.WriteString(itoa(i))
		b.WriteString(string(rune(0x4e00 + i%20000)))
		b.WriteByte('\n')
	}
	before := b.Bytes()
	blocks, _ := Scan(before)
	after, _ := applyBytes(before, blocks, "x", "B")
	d := UnifiedDiff(before, after, "a", "b")
	if !strings.Contains(d, "+<!-- vouch:start x -->") || strings.Count(d, "\n") > 20 {
		t.Fatalf("unexpected diff of %d lines", strings.Count(d, "\n"))
	}
}

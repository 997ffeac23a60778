// Package clibench times vouch as a user runs it: the built binary, as a whole process,
// against a baseline command doing comparable work on the same files in the same run
// (sha256sum of the files a gate hashes, cat of what validate reads, diff -u, a minimal
// Go program for start-up). Each figure is a ratio of medians of interleaved runs, so a
// loaded machine slows both sides alike; nothing here asserts a time.
//
//	go test -run '^$' -bench . -benchtime 7x ./internal/clibench           # full sizes
//	go test -run '^$' -bench . -benchtime 1x -short ./internal/clibench    # CI: tiny sizes
//
// CLIBENCH_BEFORE=/path/to/old/vouch adds a third command to every interleaved run: the
// same vouch arguments with an older binary (built from the commit before a change), so
// before and after are measured in one run on the same load; its figures are reported
// as before-ms, before-x-baseline and before-peak-MiB.
package clibench

import (
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/internal/testtree"
)

var vouchBin string

// gateBin is vouch-gate, the build without the console (-tags vouch_gate), timed beside
// vouch in every pair whose command it has.
var gateBin string

// beforeBin is an older vouch binary measured alongside (CLIBENCH_BEFORE), or "".
var beforeBin = os.Getenv("CLIBENCH_BEFORE")

func TestMain(m *testing.M) {
	// The package holds benchmarks only: a plain `go test ./...` runs none of them, so it
	// must not pay for three builds (several seconds on a loaded machine) it never uses.
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "vouch-clibench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vouchBin = filepath.Join(dir, "vouch")
	build := exec.Command("go", "build", "-o", vouchBin, "vouch/cmd/vouch")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building vouch:", err)
		os.Exit(1)
	}
	gateBin = filepath.Join(dir, "vouch-gate")
	build = exec.Command("go", "build", "-tags", "vouch_gate", "-o", gateBin, "vouch/cmd/vouch")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building vouch-gate:", err)
		os.Exit(1)
	}
	timerBin = filepath.Join(dir, "timer")
	timerSrc := filepath.Join(dir, "timer.go")
	os.WriteFile(timerSrc, []byte(timerProgram), 0o644)
	build = exec.Command("go", "build", "-o", timerBin, timerSrc)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the timer:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// timerBin runs one command and reports its wall time and peak RSS (timerProgram).
var timerBin string

// timerProgram is the small process every timed command is started from. A child's peak
// RSS (ru_maxrss) starts at its parent's when it execs (Linux carries the high-water mark
// of the address space it replaces), so a command started straight from this test
// process, which holds generated trees in memory, would report the test's RSS as its own.
// Started from a small timer instead, the floor is the timer's few MiB for every command
// alike; the timer also times the child itself, without the test's fork cost.
const timerProgram = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Fprintf(os.NewFile(3, "report"), "%d %d\n", wall.Nanoseconds(), ru.Maxrss)
}
`

// run is one process run: wall time and peak RSS.
type run struct {
	wall   time.Duration
	maxRSS int64 // bytes
}

func runCmd(b *testing.B, env []string, stdout *os.File, name string, args ...string) run {
	b.Helper()
	return runCmdIn(b, env, "", stdout, name, args...)
}

// runCmdIn is runCmd with stdin read from the file in ("" for none).
func runCmdIn(b *testing.B, env []string, in string, stdout *os.File, name string, args ...string) run {
	b.Helper()
	rd, wr, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer rd.Close()
	cmd := exec.Command(timerBin, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = stdout
	if in != "" {
		f, err := os.Open(in)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	cmd.ExtraFiles = []*os.File{wr}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	wr.Close()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok || cmd.ProcessState.ExitCode() == 125 {
			b.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
		}
	}
	var ns, kb int64
	if _, err := fmt.Fscan(rd, &ns, &kb); err != nil {
		b.Fatalf("%s %v: no timing reported (%v)\n%s", name, args, err, stderr.Bytes())
	}
	return run{time.Duration(ns), kb * 1024} // ru_maxrss is in kilobytes on Linux
}

func devNull(b *testing.B) *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

// pair runs the vouch command and its baseline alternately b.N times and reports both
// medians, their ratio and vouch's peak RSS (and the same for CLIBENCH_BEFORE's binary).
func pair(b *testing.B, env []string, vouchArgs []string, baseName string, baseArgs ...string) {
	b.Helper()
	pairPrepared(b, nil, env, vouchArgs, baseName, baseArgs...)
}

// pairPrepared is pair with prepare run before every timed run of either command (the
// cold-cache benchmarks evict the files there).
func pairPrepared(b *testing.B, prepare func(), env []string, vouchArgs []string, baseName string, baseArgs ...string) {
	b.Helper()
	if prepare == nil {
		prepare = func() {}
	}
	null := devNull(b)
	// One untimed run of each warms the page cache.
	runCmd(b, env, null, vouchBin, vouchArgs...)
	runCmd(b, env, null, baseName, baseArgs...)
	if beforeBin != "" {
		runCmd(b, env, null, beforeBin, vouchArgs...)
	}
	runCmd(b, env, null, gateBin, vouchArgs...)
	var vs, bs, os_, gs []time.Duration
	var peak, beforePeak, gatePeak int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		prepare()
		v := runCmd(b, env, null, vouchBin, vouchArgs...)
		vs = append(vs, v.wall)
		peak = max(peak, v.maxRSS)
		prepare()
		bs = append(bs, runCmd(b, env, null, baseName, baseArgs...).wall)
		prepare()
		g := runCmd(b, env, null, gateBin, vouchArgs...)
		gs = append(gs, g.wall)
		gatePeak = max(gatePeak, g.maxRSS)
		if beforeBin != "" {
			prepare()
			o := runCmd(b, env, null, beforeBin, vouchArgs...)
			os_ = append(os_, o.wall)
			beforePeak = max(beforePeak, o.maxRSS)
		}
	}
	b.StopTimer()
	mv, mb := median(vs), median(bs)
	b.ReportMetric(float64(mv.Microseconds())/1000, "vouch-ms")
	b.ReportMetric(float64(mb.Microseconds())/1000, "baseline-ms")
	b.ReportMetric(float64(mv)/float64(mb), "x-baseline")
	b.ReportMetric(float64(peak)/(1<<20), "vouch-peak-MiB")
	mg := median(gs)
	b.ReportMetric(float64(mg.Microseconds())/1000, "gate-ms")
	b.ReportMetric(float64(mg)/float64(mb), "gate-x-baseline")
	b.ReportMetric(float64(gatePeak)/(1<<20), "gate-peak-MiB")
	if beforeBin != "" {
		mo := median(os_)
		b.ReportMetric(float64(mo.Microseconds())/1000, "before-ms")
		b.ReportMetric(float64(mo)/float64(mb), "before-x-baseline")
		b.ReportMetric(float64(beforePeak)/(1<<20), "before-peak-MiB")
	}
	b.ReportMetric(0, "ns/op") // the wall times above are the figures, not the loop's
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func vouch(b *testing.B, env []string, args ...string) string {
	b.Helper()
	cmd := exec.Command(vouchBin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("vouch %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// files lists every regular file under dir.
func files(b *testing.B, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func size(short bool, small, full int) int {
	if short {
		return small
	}
	return full
}

// plugin200 writes one Agent Plugins package whose stdio server's closure holds n files.
func pluginWithFiles(b *testing.B, dir string, n int) string {
	if err := gen.Generate(dir, 1); err != nil {
		b.Fatal(err)
	}
	root := filepath.Join(dir, "plugin-0000")
	for i := 0; len(files(b, root)) < n; i++ {
		p := filepath.Join(root, "lib", fmt.Sprintf("mod%03d.js", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.Repeat(fmt.Sprintf("export const v%d = %d;\n", i, i), 200)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

const serverRef = "plugin-0000#mcp-server:indexer"

// BenchmarkCheck: the dispatch-time gate on one package vs sha256sum of the same files.
func BenchmarkCheck(b *testing.B) {
	n := size(testing.Short(), 20, 200)
	dir := b.TempDir()
	root := pluginWithFiles(b, dir, n)
	env := []string{"VOUCH_HOME=" + filepath.Join(dir, "home")}
	vouch(b, env, "approve", "--yes", root, serverRef)
	vouch(b, env, "check", root, serverRef) // exits 0: the gate passes, the timed runs do the full work
	b.Run(fmt.Sprintf("files=%d/vs=sha256sum", n), func(b *testing.B) {
		pair(b, env, []string{"check", root, serverRef}, "sha256sum", files(b, root)...)
	})
}

// BenchmarkCheckWideSource: check with SOURCE a folder of many packages vs SOURCE the package.
func BenchmarkCheckWideSource(b *testing.B) {
	n := size(testing.Short(), 20, 1000)
	dir := b.TempDir()
	src := filepath.Join(dir, "src")
	if err := gen.Generate(src, n); err != nil {
		b.Fatal(err)
	}
	env := []string{"VOUCH_HOME=" + filepath.Join(dir, "home")}
	one := filepath.Join(src, "plugin-0000")
	vouch(b, env, "approve", "--yes", one, serverRef)
	b.Run(fmt.Sprintf("packages=%d/vs=one-package", n), func(b *testing.B) {
		pair(b, env, []string{"check", src, serverRef}, vouchBin, "check", one, serverRef)
	})
	// The same for vouch-gate: its gate-x-baseline is the wide check against the gate's
	// own one-package check.
	b.Run(fmt.Sprintf("packages=%d/vs=one-package-gate", n), func(b *testing.B) {
		pair(b, env, []string{"check", src, serverRef}, gateBin, "check", one, serverRef)
	})
}

// BenchmarkStartup: vouch --version vs a minimal Go program.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "hello.go")
	os.WriteFile(src, []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n"), 0o644)
	hello := filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", hello, src).CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	b.Run("vs=minimal-go", func(b *testing.B) {
		pair(b, nil, []string{"--version"}, hello)
	})
}

// BenchmarkValidateJSON: validate --json over a generated folder vs sha256sum and cat of
// every file in it.
func BenchmarkValidateJSON(b *testing.B) {
	for _, n := range []int{size(testing.Short(), 10, 1000), size(testing.Short(), 20, 10000)} {
		dir := b.TempDir()
		if err := gen.Generate(dir, n); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("packages=%d/vs=sha256sum", n), func(b *testing.B) {
			pair(b, nil, []string{"validate", "--json", dir}, "sh", "-c", `find "$1" -type f -print0 | xargs -0 sha256sum`, "sh", dir)
		})
		b.Run(fmt.Sprintf("packages=%d/vs=cat", n), func(b *testing.B) {
			pair(b, nil, []string{"validate", "--json", dir}, "sh", "-c", `find "$1" -type f -print0 | xargs -0 cat`, "sh", dir)
		})
	}
}

// BenchmarkValidateJSONCold: the same comparison with the package files' pages evicted
// from the page cache before every run of either command (posix_fadvise DONTNEED on each
// file, which needs no privilege and disturbs nothing else on the machine). Directory
// entries and inodes stay cached, and so do the two programs' own binaries: this is "the
// files were not read since boot", the case of a first review after a checkout.
func BenchmarkValidateJSONCold(b *testing.B) {
	for _, n := range []int{size(testing.Short(), 10, 1000), size(testing.Short(), 20, 10000)} {
		dir := b.TempDir()
		if err := gen.Generate(dir, n); err != nil {
			b.Fatal(err)
		}
		all := files(b, dir)
		evict := func() {
			if err := evictFiles(all); err != nil {
				b.Skipf("cannot evict files from the page cache here: %v", err)
			}
		}
		b.Run(fmt.Sprintf("packages=%d/vs=sha256sum", n), func(b *testing.B) {
			pairPrepared(b, evict, nil, []string{"validate", "--json", dir}, "sh", "-c", `find "$1" -type f -print0 | xargs -0 sha256sum`, "sh", dir)
		})
	}
}

// diffFixture writes a package whose closure holds lib/data.txt = old, approves it,
// then replaces the file with cur. It returns the package root, the vouch env and a
// copy of old for the baseline.
func diffFixture(b *testing.B, old, cur []byte) (root string, env []string, oldCopy, data string) {
	dir := b.TempDir()
	root = pluginWithFiles(b, dir, 1)
	data = filepath.Join(root, "lib", "data.txt")
	os.MkdirAll(filepath.Dir(data), 0o755)
	os.WriteFile(data, old, 0o644)
	env = []string{"VOUCH_HOME=" + filepath.Join(dir, "home")}
	vouch(b, env, "approve", "--yes", root, serverRef)
	oldCopy = filepath.Join(dir, "old.bin")
	os.WriteFile(oldCopy, old, 0o644)
	os.WriteFile(data, cur, 0o644)
	return root, env, oldCopy, data
}

// diffShows logs when vouch diff's output lacks want: the figure then times a summary,
// not a line diff, and says so next to the figure.
func diffShows(b *testing.B, env []string, root, want string) {
	cmd := exec.Command(vouchBin, "diff", root, serverRef)
	cmd.Env = append(os.Environ(), env...)
	if out, _ := cmd.Output(); !bytes.Contains(out, []byte(want)) {
		b.Logf("vouch diff does not show %q (%d bytes of output): the figure times a summary, not a line diff", want, len(out))
	}
}

// BenchmarkDiff: vouch diff of an approved file changed on disk vs GNU diff -u of the two
// versions: 10 MB text with 1% of the lines changed, 1 MB of lines shuffled, and a 10 MB
// binary (whose baseline is cmp: both only find where it differs).
func BenchmarkDiff(b *testing.B) {
	b.Run("text-1pct", func(b *testing.B) {
		lines := size(testing.Short(), 2000, 200000)
		var old, cur strings.Builder
		for i := 0; i < lines; i++ {
			l := fmt.Sprintf("line %07d: the quick brown fox jumps over the lazy dog %d\n", i, i*7)
			old.WriteString(l)
			if i%100 == 50 {
				l = fmt.Sprintf("line %07d: CHANGED %d\n", i, i)
			}
			cur.WriteString(l)
		}
		root, env, oldCopy, data := diffFixture(b, []byte(old.String()), []byte(cur.String()))
		diffShows(b, env, root, "CHANGED")
		b.Run(fmt.Sprintf("bytes=%d/vs=diff-u", old.Len()), func(b *testing.B) {
			pair(b, env, []string{"diff", root, serverRef}, "diff", "-u", oldCopy, data)
		})
	})
	b.Run("shuffled", func(b *testing.B) {
		lines := size(testing.Short(), 500, 20000) // ~1 MB of distinct lines
		var ls []string
		for i := 0; i < lines; i++ {
			ls = append(ls, fmt.Sprintf("entry %06d value %010d lorem ipsum dolor\n", i, i*7919))
		}
		old := strings.Join(ls, "")
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		cur := strings.Join(ls, "")
		root, env, oldCopy, data := diffFixture(b, []byte(old), []byte(cur))
		diffShows(b, env, root, "@@")
		b.Run(fmt.Sprintf("bytes=%d/vs=diff-u", len(old)), func(b *testing.B) {
			pair(b, env, []string{"diff", root, serverRef}, "diff", "-u", oldCopy, data)
		})
	})
	b.Run("binary", func(b *testing.B) {
		n := size(testing.Short(), 64<<10, 10<<20)
		r := rand.New(rand.NewPCG(3, 4))
		old := make([]byte, n)
		for i := range old {
			old[i] = byte(r.Uint32())
		}
		old[0] = 0 // a NUL: binary by any test
		cur := append([]byte(nil), old...)
		cur[n-100] ^= 0xff
		root, env, oldCopy, data := diffFixture(b, old, cur)
		b.Run(fmt.Sprintf("bytes=%d/vs=cmp", n), func(b *testing.B) {
			pair(b, env, []string{"diff", root, serverRef}, "cmp", oldCopy, data)
		})
	})
}

// spliceArchive writes a Splice .tar.gz (GNU tar, ustar) of the example package grown
// to n files of incompressible text, close to Splice's 5 MiB artifact limit at full size.
func spliceArchive(b *testing.B, dir string, n int) string {
	pkg := filepath.Join(dir, "pkg")
	testtree.Copy(b, filepath.Join("..", "..", "examples", "splice", "example"), pkg)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < n; i++ {
		raw := make([]byte, 9000)
		for j := range raw {
			raw[j] = byte(r.Uint32())
		}
		os.WriteFile(filepath.Join(pkg, "examples", fmt.Sprintf("data%03d.json", i)), []byte(`"`+base64.StdEncoding.EncodeToString(raw)+`"`), 0o644)
	}
	archive := filepath.Join(dir, "pkg.tar.gz")
	tar := exec.Command("tar", "--format=ustar", "-czf", archive, "SKILL.md", "manifest.json", "tools", "examples")
	tar.Dir = pkg
	if out, err := tar.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	return archive
}

// BenchmarkSplice: validate --json of a Splice archive vs gzip -dc | sha256sum of it.
func BenchmarkSplice(b *testing.B) {
	n := size(testing.Short(), 10, 400)
	archive := spliceArchive(b, b.TempDir(), n)
	if out := vouch(b, nil, "validate", archive); !strings.Contains(out, "1 packages (0 invalid)") {
		b.Fatalf("the archive is not a valid Splice package:\n%s", out)
	}
	st, _ := os.Stat(archive)
	b.Run(fmt.Sprintf("files=%d,bytes=%d/vs=gzip-sha256sum", n, st.Size()), func(b *testing.B) {
		pair(b, nil, []string{"validate", "--json", archive}, "sh", "-c", `gzip -dc "$1" | sha256sum`, "sh", archive)
	})
}

// BenchmarkHeavyPlugin: validate --json of one plugin that both Claude Code and Codex
// read, with hundreds of skills (gen.HeavyPlugin: 230 skills, about 420 files, the shape
// of the largest real collections) vs sha256sum of its files, whole process.
func BenchmarkHeavyPlugin(b *testing.B) {
	dir := b.TempDir()
	n, err := gen.HeavyPlugin(dir, size(testing.Short(), 20, 230))
	if err != nil {
		b.Fatal(err)
	}
	sha := []string{"-c", `find "$1" -type f -print0 | xargs -0 sha256sum`, "sh", dir}
	b.Run(fmt.Sprintf("files=%d/vs=sha256sum", n), func(b *testing.B) {
		pair(b, nil, []string{"validate", "--json", dir}, "sh", sha...)
	})
	// The floor of the ratio above: the same binaries doing nothing but start (package
	// initialization, the command tree) against the same baseline.
	b.Run(fmt.Sprintf("files=%d/floor=--version/vs=sha256sum", n), func(b *testing.B) {
		pair(b, nil, []string{"--version"}, "sh", sha...)
	})
}

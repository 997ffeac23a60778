package agentplugins_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vouch/internal/gen"
	"vouch/internal/testtree"
	"vouch/model"
	"vouch/review"
)

const benchPackages = 1000

var (
	benchOnce  sync.Once
	benchDir   string
	benchFiles []string
	benchErr   error
)

// TestMain removes the generated collection: 9,000 files per run would otherwise pile
// up in the temp directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// collection generates the benchmark collection once per test binary run.
func collection(b *testing.B) (string, []string) {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "vouch-bench-")
		if benchErr != nil {
			return
		}
		if benchErr = gen.Generate(benchDir, benchPackages); benchErr != nil {
			return
		}
		benchErr = filepath.WalkDir(benchDir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				benchFiles = append(benchFiles, p)
			}
			return err
		})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir, benchFiles
}

// peak samples the heap while fn runs and returns the highest HeapAlloc seen.
func peak(fn func()) uint64 {
	var max atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > max.Load() {
				max.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return max.Load()
}

func validate(b *testing.B, dir string) {
	res, err := review.Open(review.Options{}, dir)
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Packages) != benchPackages {
		b.Fatalf("%d packages, want %d", len(res.Packages), benchPackages)
	}
	for _, p := range res.Packages {
		if !p.Valid() || len(p.Components) != 3+5+1 {
			b.Fatalf("%s: valid=%v components=%d %v", p.Name, p.Valid(), len(p.Components), p.Diagnostics)
		}
	}
}

// BenchmarkValidateCollection validates 1,000 generated packages through review.Open.
func BenchmarkValidateCollection(b *testing.B) {
	dir, _ := collection(b)
	validate(b, dir) // warm the page cache like the baseline's first pass
	b.ReportAllocs()
	b.ResetTimer()
	var hi uint64
	for b.Loop() {
		if p := peak(func() { validate(b, dir) }); p > hi {
			hi = p
		}
	}
	b.ReportMetric(float64(hi)/(1<<20), "peak-heap-MiB")
}

// BenchmarkSHA256Collection reads and hashes the same files, the baseline.
func BenchmarkSHA256Collection(b *testing.B) {
	_, files := collection(b)
	testtree.HashFiles(b, files)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		testtree.HashFiles(b, files)
	}
	b.ReportMetric(float64(len(files)), "files")
}

// BenchmarkValidateRatio measures validation and the baselines in the same iterations
// and reports validation time / sha256 time (target: at most 1.3): against the
// in-process hash of every file (validate/sha256) and, where it is installed, against
// the sha256sum program itself (validate/sha256sum), which is what the target names.
func BenchmarkValidateRatio(b *testing.B) {
	dir, files := collection(b)
	testtree.AgainstHashing(b, "validate", files, func() { validate(b, dir) })
}

var _ = model.Valid

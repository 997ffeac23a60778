package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An archive an extractor would read as other files than vouch shows cannot be approved,
// and check never says approved for it.
func TestHostileArchiveNotApprovable(t *testing.T) {
	const ref = "@splice/example#tool:hello"
	bad := filepath.Join("..", "..", "review", "splice", "testdata", "bad")
	// The control: the same ref in a well-formed archive approves and checks.
	good := filepath.Join("..", "..", "review", "splice", "testdata", "upstream", "fixtures", "skills-example", "skills-example.tar.gz")
	if _, err := os.Stat(good); err != nil {
		t.Fatal(err)
	}
	ctl := t.TempDir()
	if code, out, errs := trustRun(t, ctl, "approve", "--yes", good, ref); code != 0 {
		t.Fatalf("control archive not approvable: %s%s", out, errs)
	}
	if code, out, errs := trustRun(t, ctl, "check", good, ref); code != 0 {
		t.Fatalf("control archive check: %s%s", out, errs)
	}
	for _, name := range []string{
		"archive-directory-with-data__hidden-file.tar.gz",
		"archive-trailing-data__entry-after-end.tar.gz",
		"archive-gzip-second-member__concatenated.tar.gz",
		"archive-prefix-not-posix__old-gnu.tar.gz",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(bad, name)); err != nil {
				t.Fatal(err)
			}
			home := t.TempDir()
			code, out, errs := trustRun(t, home, "approve", "--yes", filepath.Join(bad, name), ref)
			if code == 0 {
				t.Fatalf("approved a hostile archive:\n%s%s", out, errs)
			}
			code, out, errs = trustRun(t, home, "check", filepath.Join(bad, name), ref)
			if code == 0 {
				t.Fatalf("check passed a hostile archive:\n%s%s", out, errs)
			}
			rule, _, _ := strings.Cut(name, "__")
			if _, vout, _ := runVouch(t, home, "validate", "--json", filepath.Join(bad, name)); !strings.Contains(vout, `"code": "`+rule+`"`) {
				t.Fatalf("validate does not name the rule %s:\n%s", rule, vout)
			}
		})
	}
}

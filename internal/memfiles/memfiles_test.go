package memfiles

import (
	"errors"
	"io/fs"
	"testing"
)

func TestFiles(t *testing.T) {
	files := Files{"tools/run.sh": []byte("echo hi\n"), "empty": {}}
	got, err := files.ReadFile("tools/run.sh")
	if err != nil || string(got) != "echo hi\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	got[0] = 'X'
	if string(files["tools/run.sh"]) != "echo hi\n" {
		t.Fatal("ReadFile handed out the package's own bytes")
	}
	if _, err := files.ReadFile("tools/other.sh"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file gave %v, want fs.ErrNotExist", err)
	}
	for _, tc := range []struct {
		path string
		exec bool
		size int64
		sum  string
	}{
		// sha256 of "echo hi\n" and of no bytes, as sha256sum prints them.
		{"tools/run.sh", true, 8, "ab08508fdf5ca4da5c4995987bc41c56c048aaa5eeb046417ae4049b7d40286e"},
		{"empty", false, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	} {
		f := files.File(tc.path, tc.exec)
		if f.Path != tc.path || f.Exec != tc.exec || f.Size != tc.size || f.SHA256 != tc.sum {
			t.Errorf("File(%q, %v) = %+v, want size %d, sha256 %s", tc.path, tc.exec, f, tc.size, tc.sum)
		}
	}
}

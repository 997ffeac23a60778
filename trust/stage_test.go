package trust

import (
	"strings"
	"testing"

	"vouch/model"
)

// TestStagePathOK: a contract from the store is checked before anything is written, so
// even a tampered one cannot make Stage write or link outside the staging directory.
func TestStagePathOK(t *testing.T) {
	for _, tc := range []struct {
		f  model.File
		ok bool
	}{
		{model.File{Path: "a/b.js", SHA256: "x"}, true},
		{model.File{Path: "lib", Link: "v1"}, true},
		{model.File{Path: "a/lib", Link: "../v1"}, true},
		{model.File{Path: "../x"}, false},
		{model.File{Path: "/etc/x"}, false},
		{model.File{Path: "a/../../x"}, false},
		{model.File{Path: "a\\b"}, false},
		{model.File{Path: ""}, false},
		{model.File{Path: "."}, false},
		{model.File{Path: "lib", Link: "/etc"}, false},
		{model.File{Path: "lib", Link: "../x"}, false},
		{model.File{Path: "a/lib", Link: "../../x"}, false},
	} {
		if err := stagePathOK(tc.f); (err == nil) != tc.ok {
			t.Errorf("%+v: %v, want ok=%v", tc.f, err, tc.ok)
		}
	}
}

type linkFiles map[string]string

func (l linkFiles) ReadFile(rel string) ([]byte, error) { return []byte(l[rel]), nil }
func (l linkFiles) ReadLink(rel string) (string, error) { return l["link:"+rel], nil }

// TestReadClosureRereadsLinks: a link retargeted between loading and the check is caught
// when the package reader can read links (model.LinkReader).
func TestReadClosureRereadsLinks(t *testing.T) {
	pkg := &model.Package{Reader: linkFiles{"link:lib": "v2"}}
	c := &model.Contract{Files: []model.File{{Path: "lib", Link: "v1"}}}
	if _, err := readClosure(pkg, c); err == nil || !strings.Contains(err.Error(), "now points to v2") {
		t.Errorf("retargeted link: %v", err)
	}
	pkg.Reader = linkFiles{"link:lib": "v1"}
	if blobs, err := readClosure(pkg, c); err != nil || len(blobs) != 0 {
		t.Errorf("unchanged link: %v %d blobs", err, len(blobs))
	}
}

package instructions

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzScan: the marker scanner never panics, reports blocks with consistent offsets,
// and apply/remove round-trip on any file it accepts.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"", "a\n", "\xef\xbb\xbf", "a\r\nb",
		"<!-- vouch:start x -->\nb\n<!-- vouch:end x -->\n",
		"<!-- dalo:start s:p -->\r\nb\r\n<!-- dalo:end s:p -->",
		"<!-- vouch:end x -->\n<!-- vouch:start x -->\n",
		"<!-- a:start x -->\n<!-- b:start y -->\n<!-- a:end x -->\n<!-- b:end y -->\n",
		"  <!--vouch:start x-->  \n\n<!-- vouch:end x -->",
		"text <!-- vouch:start x --> inline\n",
	} {
		f.Add([]byte(s), "body\n")
	}
	f.Fuzz(func(t *testing.T, data []byte, body string) {
		blocks, problems := Scan(data)
		for _, b := range blocks {
			if !(0 <= b.Start && b.Start < b.BodyStart && b.BodyStart <= b.BodyEnd && b.BodyEnd < b.End && b.End <= len(data)) {
				t.Fatalf("inconsistent block %+v in %d bytes", b, len(data))
			}
			if b.StartLine >= b.EndLine {
				t.Fatalf("lines %+v", b)
			}
		}
		for _, p := range problems {
			if p.Line < 1 || p.Message == "" {
				t.Fatalf("problem %+v", p)
			}
		}
		if len(problems) > 0 {
			return
		}
		id := BlockID("fuzz", "i")
		if _, had := findBlock(blocks, id); had {
			return
		}
		out, err := applyBytes(data, blocks, id, body)
		if err != nil {
			return // the body held a marker line
		}
		ob, op := Scan(out)
		if len(op) > 0 {
			t.Fatalf("apply damaged the markers: %q -> %q: %+v", data, out, op)
		}
		if back := removeBytes(out, ob, id); !bytes.Equal(back, data) {
			t.Fatalf("round trip: %q -> %q -> %q", data, out, back)
		}
	})
}

// FuzzIntent: an intent file in the home (which anything running as the user can write)
// never panics the reader, and one that decodes is reported only when its target holds
// its block with its text.
func FuzzIntent(f *testing.F) {
	for _, s := range []string{
		"", "{}", "null", "[]", `{"ref":"p#instruction:i"}`,
		`{"ref":"p#instruction:i","target":"/nonexistent/AGENTS.md","id":"p#instruction:i","digest":"sha256:00","body":"x","at":"2026-01-01T00:00:00Z"}`,
		`{"ref":"p#instruction:i","target":"","id":"x","at":"not a time"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		os.MkdirAll(IntentDir(home), 0o700)
		os.WriteFile(filepath.Join(IntentDir(home), "f.json"), data, 0o600)
		ins, err := Intents(home)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			if in.Ref == "" || !filepath.IsAbs(in.Target) || in.ID == "" {
				t.Fatalf("an incomplete intent was returned: %+v", in)
			}
		}
		un, err := FindUnrecorded(home, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range un {
			if _, ok := blockHolding(u.Target, u.ID, u.Body); !ok {
				t.Fatalf("reported %+v, whose target does not hold its block", u)
			}
		}
	})
}

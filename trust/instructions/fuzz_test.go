package instructions

import (
	"bytes"
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

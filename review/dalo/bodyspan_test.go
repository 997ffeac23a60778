package dalo

import (
	"testing"

	"vouch/model"
)

// Instructions and skills say where their body lies in its file, and reading it back
// through the package's reader (as the console does once it let the text go) gives the
// body, byte for byte.
func TestBodySpansReadBack(t *testing.T) {
	p := loadOne(t, exampleSource, Options{})
	kinds := map[model.Kind]int{}
	for _, c := range p.Components {
		if c.BodyEnd <= c.BodyStart {
			continue
		}
		data, err := p.Reader.ReadFile(c.BodyFile)
		if err != nil {
			t.Fatalf("%s:%s: %v", c.Kind, c.ID, err)
		}
		if c.BodyEnd > len(data) || string(data[c.BodyStart:c.BodyEnd]) != c.Body {
			t.Errorf("%s:%s: %s[%d:%d] is not the body", c.Kind, c.ID, c.BodyFile, c.BodyStart, c.BodyEnd)
		}
		kinds[c.Kind]++
	}
	if kinds[model.KindInstruction] == 0 || kinds[model.KindSkill] == 0 {
		t.Errorf("read back %v, want instructions and skills", kinds)
	}
}

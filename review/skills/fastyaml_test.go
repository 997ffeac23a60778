package skills

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var plainCases = []string{
	"name: deploy\ndescription: Deploy the service.\n",
	"name: deploy\ndescription: Deploy the  service with spaces.\nlicense: MIT\nmetadata:\n  author: generator\n  version: one\n",
	"name: x\nmetadata:\n    deep: four spaces\n    more: yes please\nlicense: Apache-2.0\n",
	"name: dup\nname: again\n",
	"Name: Upper\nDESCRIPTION: Shouting is fine\n",
	"name: a\ndescription: It's a skill; don't worry (really) - ok?\n",
	"name: a\ndescription: ends with dot.",
	"name: a\ndescription: Use when asked, for example [x] or {y}, to help.\nmetadata:\n  tags: a, b, c\n",
	"name: a\nmetadata:\n",                  // null, not a mapping
	"name: a\nmetadata:\nlicense: MIT\n",    // null followed by a key
	"name: a\nmetadata:\n  k: v\n   j: w\n", // inconsistent indent
	"name: a\n  k: v\n",
	"name: true\n", "name: No\n", "name: null\n", "name: y\n", "name: Off\n", "name: nothing\n", "name: yesterday\n",
	"name: 12\n", "name: -x\n", "name: .inf\n", "name: x # comment\n", "# c\nname: x\n", "name: a:b\n",
	"name: [a]\n", "name: {a: b}\n", "name: &a x\n", "name: *a\n", "name: !!str x\n", "name: |\n  x\n",
	"name: >\n  x\n", "name: 'x'\n", "name: \"x\"\n", "name: x \n", "name:  x\n", "name:x\n", "name: x\r\n",
	"name: x\n\ndescription: y\n", "name:\tx\n", "\tname: x\n", "name: x\n---\n", "- a\n- b\n", "x\n", "",
	"name: caf\u00e9\n", "name: a\u2028b\n", "name: a\u0085b\n", "name: x\nmetadata:\n  k:\n    deeper: v\n",
	"name: x\nmetadata:\n  k: v\n  k: w\n", "? name\n: x\n", "name: x\n...\n", "%YAML 1.2\n---\nname: x\n",
	"name: x\nmetadata:\n  k: v\ndescription: after nested\n", "name: x\n  \n", "name: a - b\n", "name: a, b\n",
	"name: NaN\n", "name: inf\n", "name: e5\n", "name: Yes\n", "name: TRUE\n", "name: ON\n", "name: tRuE\n",
	"name: =\n", "name: <<\n", "<<: x\n", "name: a\\b\n",
}

func frontmatters(t testing.TB) []string {
	out := append([]string(nil), plainCases...)
	add := func(doc string) {
		if fm, _, _, ok := splitFrontmatter(doc, &parseState{}); ok {
			out = append(out, fm)
		}
	}
	for _, doc := range corpus(t) {
		add(doc)
	}
	// Every SKILL.md in the repository (examples, fixtures of other formats).
	filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "SKILL.md" {
			if data, err := os.ReadFile(p); err == nil {
				add(string(data))
			}
		}
		return nil
	})
	for _, name := range []string{"summarize", "review", "deploy"} {
		add("---\nname: " + name + "\ndescription: Generated.\nlicense: MIT\nmetadata:\n  author: generator\n---\n")
	}
	return out
}

// samePlain fails when plainFrontmatter accepts fm but yaml.v3 decodes something else.
func samePlain(t *testing.T, fm string) bool {
	t.Helper()
	got, ok := plainFrontmatter(fm)
	if !ok {
		return false
	}
	var want yaml.Node
	if err := yaml.Unmarshal([]byte(fm), &want); err != nil {
		t.Errorf("plainFrontmatter accepted %q, yaml.v3 rejects it: %v", fm, err)
		return true
	}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("plainFrontmatter(%q) differs from yaml.v3:\n got  %s\n want %s", fm, dumpNode(got), dumpNode(&want))
	}
	return true
}

func dumpNode(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, ind string)
	walk = func(n *yaml.Node, ind string) {
		b.WriteString(ind)
		b.WriteString(strings.Join([]string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment}, "|"))
		b.WriteString(" ")
		b.WriteString(strings.Repeat("*", int(n.Kind)))
		b.WriteString(" ")
		b.WriteString(string(rune('0' + n.Line%10)))
		b.WriteString(string(rune('0' + n.Column%10)))
		b.WriteString("\n")
		for _, c := range n.Content {
			walk(c, ind+"  ")
		}
	}
	walk(n, "")
	return b.String()
}

func TestPlainFrontmatterMatchesYAML(t *testing.T) {
	fms := frontmatters(t)
	accepted := 0
	for _, fm := range fms {
		if samePlain(t, fm) {
			accepted++
		}
	}
	// The shortcut must actually be taken on the common shapes, or this test proves nothing.
	for _, fm := range plainCases[:8] {
		if _, ok := plainFrontmatter(fm); !ok {
			t.Errorf("plainFrontmatter(%q) fell back; it is the common shape", fm)
		}
	}
	t.Logf("%d of %d frontmatters took the shortcut", accepted, len(fms))
}

// Mutations of accepted frontmatters: one byte changed, inserted or removed, anywhere.
func TestPlainFrontmatterMutations(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := []byte("ab: \n#-'\"\t{}[],&*!|>%@`.0y\\?\r~=<")
	var base []string
	for _, fm := range frontmatters(t) {
		if _, ok := plainFrontmatter(fm); ok {
			base = append(base, fm)
		}
	}
	for i := 0; i < 20000; i++ {
		b := []byte(base[r.Intn(len(base))])
		for k := 1 + r.Intn(3); k > 0 && len(b) > 0; k-- {
			pos := r.Intn(len(b))
			switch r.Intn(3) {
			case 0:
				b[pos] = alphabet[r.Intn(len(alphabet))]
			case 1:
				b = append(b[:pos], append([]byte{alphabet[r.Intn(len(alphabet))]}, b[pos:]...)...)
			default:
				b = append(b[:pos], b[pos+1:]...)
			}
		}
		samePlain(t, string(b))
	}
}

func FuzzPlainFrontmatter(f *testing.F) {
	for _, fm := range plainCases {
		f.Add(fm)
	}
	f.Fuzz(func(t *testing.T, fm string) {
		if len(fm) > 4096 {
			return
		}
		samePlain(t, fm)
	})
}

// DecodeFrontmatter answers what yaml.Unmarshal does, tree and error, shortcut or not.
func TestDecodeFrontmatterMatchesYAML(t *testing.T) {
	shortcut := 0
	for _, fm := range append(frontmatters(t), "name: [unclosed\n", "a: b: c\n", "\tx: y\n") {
		var got, want yaml.Node
		gerr, werr := DecodeFrontmatter(fm, &got), yaml.Unmarshal([]byte(fm), &want)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeFrontmatter(%q) = %s %v, yaml.v3 %s %v", fm, dumpNode(&got), gerr, dumpNode(&want), werr)
		}
		if _, ok := plainFrontmatter(fm); ok {
			shortcut++
		}
	}
	if shortcut == 0 {
		t.Fatal("no frontmatter took the shortcut")
	}
}

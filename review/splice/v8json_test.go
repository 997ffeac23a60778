package splice

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// Every class of JSON error reads exactly as JSON.parse words it in Node 20 (V8 11.3), the
// reference engine: testdata/jsonparse/cases.json holds inputs and the messages Node gave
// for them (regenerate with `node testdata/jsonparse/generate.js`).
func TestJSONParseMessagesMatchNode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "jsonparse", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Node  string
		Cases []struct {
			Name    string
			Text    *string
			Base64  *string
			Message string
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 50 || doc.Node == "" {
		t.Fatalf("cases.json has %d cases from node %q", len(doc.Cases), doc.Node)
	}
	for _, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var in []byte
			switch {
			case c.Text != nil:
				in = []byte(*c.Text)
			case c.Base64 != nil:
				if in, err = base64.StdEncoding.DecodeString(*c.Base64); err != nil {
					t.Fatal(err)
				}
			}
			if c.Message == "" {
				t.Fatal("no expected message: run generate.js")
			}
			m, issues := ValidateManifestJSON(in)
			if m != nil || len(issues) != 1 {
				t.Fatalf("manifest %v, issues %+v", m, issues)
			}
			want := "manifest.json is not valid JSON: " + c.Message
			if issues[0].Code != "manifest-invalid-json" || issues[0].Message != want {
				t.Errorf("%q\n got %s: %s\nwant %s", in, issues[0].Code, issues[0].Message, want)
			}
			if issues[0].Line < 1 {
				t.Errorf("no line for %q", in)
			}
		})
	}
}

// What JSON.parse accepts but vouch does not read (nesting past maxJSONDepth) is not
// worded as a JSON.parse error.
func TestManifestTooDeep(t *testing.T) {
	deep := make([]byte, 0, 2*maxJSONDepth+10)
	for range maxJSONDepth + 2 {
		deep = append(deep, '[')
	}
	for range maxJSONDepth + 2 {
		deep = append(deep, ']')
	}
	_, issues := ValidateManifestJSON(deep)
	if len(issues) != 1 || issues[0].Code != "manifest-too-deep" {
		t.Fatalf("issues %+v", issues)
	}
}

// The decoder maps bytes to UTF-16 as TextDecoder does: one U+FFFD per maximal invalid
// subsequence, not per byte.
func TestV8Decode(t *testing.T) {
	for in, want := range map[string]int{"a": 1, "é": 1, "😀": 2, "\xe2\x82": 1, "\xe2\x82A": 2, "\xff\xff": 2, "\xed\xa0\x80": 3, "\xf0\x9f\x98": 1, "\xc0\x80": 2} {
		if got := v8Units(in); got != want {
			t.Errorf("v8Units(%q) = %d, want %d", in, got, want)
		}
	}
	if s := string(utf8.AppendRune(nil, 0xFFFD)); v8Units(s) != 1 {
		t.Error("U+FFFD is one unit")
	}
}

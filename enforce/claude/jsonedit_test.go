package claude

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSettingsEditKeepsWhatVouchDoesNotOwn(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"enabledPlugins\": {\n    \"p@vouch\": true\n  }\n}"},
		{"Claude's own shape", "{\n  \"theme\": \"dark\",\n  \"enabledPlugins\": {\n    \"p@up\": true\n  }\n}",
			"{\n  \"theme\": \"dark\",\n  \"enabledPlugins\": {\n    \"p@up\": true,\n    \"p@vouch\": true\n  }\n}"},
		{"odd spacing and escapes kept", `{"a" :  [1,  2.50e1], "\u0062": "\u00e9\ud800", "enabledPlugins": {"x": ["1"]}}`,
			"{\n  \"a\": [1,  2.50e1],\n  \"\\u0062\": \"\\u00e9\\ud800\",\n  \"enabledPlugins\": {\n    \"x\": [\"1\"],\n    \"p@vouch\": true\n  }\n}"},
		{"a key in another case is another key", `{"EnabledPlugins": {"p@vouch": false}}`,
			"{\n  \"EnabledPlugins\": {\"p@vouch\": false},\n  \"enabledPlugins\": {\n    \"p@vouch\": true\n  }\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseObject("settings.json", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := setEnabled(o, "settings.json", "p@vouch", []byte("true")); err != nil {
				t.Fatal(err)
			}
			if got := string(o.render(0)); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSettingsEditRefusesWhatItCannotRead(t *testing.T) {
	for _, in := range []string{`{`, `[]`, `"x"`, `{"a":1,"a":2}`, "\xef\xbb\xbf{}", `{"enabledPlugins": [true]}`, `{"enabledPlugins": {"p": 1, "p": 2}}`} {
		o, err := parseObject("settings.json", []byte(in))
		if err == nil {
			_, err = setEnabled(o, "settings.json", "p@vouch", []byte("true"))
		}
		if err == nil || !strings.Contains(err.Error(), "settings.json") {
			t.Errorf("%q: err = %v, want a refusal naming the file", in, err)
		}
	}
}

// FuzzSettingsEdit: any text either is refused, or its edit is JSON holding every
// member of the original unchanged but the one vouch set.
func FuzzSettingsEdit(f *testing.F) {
	for _, s := range []string{"", "{}", userSettingsSeed, `{"enabledPlugins": {"p@vouch": false, "q": true}}`, `{"a": {"b": [1, {"c": null}]}}`, `{"a": "\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := parseObject("settings.json", data)
		if err != nil {
			return
		}
		if _, err := setEnabled(o, "settings.json", "p@vouch", []byte("true")); err != nil {
			return
		}
		out := o.render(0)
		var before, after map[string]any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("the edit is not JSON: %v\n%s", err, out)
		}
		if len(strings.TrimSpace(string(data))) == 0 {
			return
		}
		if err := json.Unmarshal(data, &before); err != nil {
			t.Fatalf("parseObject accepted what encoding/json refuses: %v", err)
		}
		ep, _ := after["enabledPlugins"].(map[string]any)
		if ep["p@vouch"] != true {
			t.Fatalf("p@vouch is not set: %s", out)
		}
		delete(ep, "p@vouch")
		if bep, ok := before["enabledPlugins"].(map[string]any); ok {
			delete(bep, "p@vouch")
		} else if len(ep) == 0 {
			delete(after, "enabledPlugins")
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("the edit changed other members:\n%s\n->\n%s", data, out)
		}
	})
}

const userSettingsSeed = "{\n  \"theme\": \"dark\",\n  \"enabledPlugins\": {\n    \"p@upstream\": true\n  }\n}\n"

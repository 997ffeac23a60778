package codex

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/goldenfile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got, *update, "run go test -update to create it")
}

func guardEntries() Entries {
	return Entries{
		PluginID: "guard@vouch",
		Hooks: []HookEntry{
			{Key: "guard@vouch:hooks/hooks.json:stop:0:0", TrustedHash: "sha256:d2", TrustedContentHash: "sha256:c1"},
			{Key: "guard@vouch:hooks/hooks.json:pre_tool_use:0:0", TrustedHash: "sha256:d1", TrustedContentHash: "sha256:c1"},
		},
		ServersOff: []string{"db", "odd name"},
	}
}

// isSubsequence reports whether every line of a appears in b, in order.
func isSubsequence(a, b string) bool {
	bl := strings.Split(b, "\n")
	j := 0
	for _, l := range strings.Split(a, "\n") {
		for j < len(bl) && bl[j] != l {
			j++
		}
		if j == len(bl) {
			return false
		}
		j++
	}
	return true
}

// Over a corpus of config files: the written tables match the golden file, every line
// the file had is still there in its order (comments included) unless it was one of
// vouch's tables, a second identical edit writes the same bytes, and removing the
// entries leaves nothing of vouch's.
func TestEditConfigCorpus(t *testing.T) {
	for _, name := range []string{"empty", "commented", "tricky", "owned"} {
		t.Run(name, func(t *testing.T) {
			old, err := os.ReadFile(filepath.Join("testdata", "config", name+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			e := guardEntries()
			got, err := EditConfig("config.toml", old, e)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "config-"+name+".toml", got)
			if name != "owned" && !isSubsequence(string(old), string(got)) {
				t.Errorf("a line of the original is missing or moved:\n%s", got)
			}
			again, err := EditConfig("config.toml", got, e)
			if err != nil || string(again) != string(got) {
				t.Errorf("a second identical edit changed the file (%v):\n%s", err, again)
			}
			removed, err := EditConfig("config.toml", got, Entries{PluginID: e.PluginID})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := decodeTOML(removed)
			if err != nil {
				t.Fatal(err)
			}
			states, _ := dig(doc, "hooks", "state").(map[string]any)
			_, hook := states["guard@vouch:hooks/hooks.json:pre_tool_use:0:0"]
			if hook || dig(doc, "plugins", "guard@vouch", "mcp_servers") != nil {
				t.Errorf("removal left vouch's tables:\n%s", removed)
			}
			if !strings.Contains(string(removed), "# The next table is the user's.") && name == "owned" {
				t.Errorf("removal dropped the comment that leads into the user's table:\n%s", removed)
			}
			if name == "tricky" && !strings.Contains(string(removed), `[hooks.state."guard@vouch:not-a-header"]`) {
				t.Errorf("a line inside a multi-line string was taken for a table:\n%s", removed)
			}
		})
	}
}

func TestEditConfigRefuses(t *testing.T) {
	cases := []struct{ file, want string }{
		{"bad-syntax", "is not valid TOML"},
		{"bad-inline", "form vouch does not edit"},
		{"bad-dotted", "was not changed"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			old, err := os.ReadFile(filepath.Join("testdata", "config", c.file+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = EditConfig("/h/config.toml", old, guardEntries())
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/h/config.toml") {
				t.Errorf("err = %v, want a ConfigError naming the file and saying %q", err, c.want)
			}
		})
	}
}

func FuzzEditConfig(f *testing.F) {
	for _, name := range []string{"commented", "tricky", "owned", "bad-inline"} {
		data, err := os.ReadFile(filepath.Join("testdata", "config", name+".toml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := EditConfig("config.toml", data, guardEntries())
		if err != nil {
			return
		}
		before, err1 := decodeTOML(data)
		after, err2 := decodeTOML(got)
		if err1 != nil || err2 != nil {
			t.Fatalf("accepted or produced invalid TOML: %v / %v", err1, err2)
		}
		if len(foreign(before, "guard@vouch")) != len(foreign(after, "guard@vouch")) {
			t.Fatalf("top-level keys changed")
		}
	})
}

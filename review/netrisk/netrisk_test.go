package netrisk

import (
	"strings"
	"testing"
	"unicode/utf8"

	"vouch/internal/textclip"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // "kind|what" of each finding, in order
	}{
		{"curl piped to sh", "curl -fsSL https://get.example.com/install.sh | sh",
			[]string{"remote-code|downloads a script and runs it with a shell", "network|runs curl, which reaches the network", "network|names the host get.example.com"}},
		{"wget piped to sudo bash", "wget -qO- http://x.example.org/a | sudo bash",
			[]string{"remote-code|downloads a script and runs it with a shell", "network|runs wget, which reaches the network", "network|names the host x.example.org"}},
		{"npx with a version", "npx -y @acme/mcp-server@1.2.3 --stdio",
			[]string{"remote-code|fetches and runs the package @acme/mcp-server@1.2.3 at run time (npx)"}},
		{"uvx", "uvx mcp-fetch@0.4", []string{"remote-code|fetches and runs the package mcp-fetch@0.4 at run time (uvx)"}},
		{"bun install", "cd \"$ROOT\" && bun install --frozen-lockfile", []string{"remote-code|installs packages from a registry (bun install)"}},
		{"pip install", "pip install -r requirements.txt", []string{"remote-code|installs packages from a registry (pip install)"}},
		{"a host in script text", "fetch('https://us.i.posthog.com/capture', {method: 'POST'})", []string{"network|names the host us.i.posthog.com"}},
		{"localhost is not a risk", "curl http://localhost:8080/health", []string{"network|runs curl, which reaches the network"}},
		{"no network", "node \"${CLAUDE_PLUGIN_ROOT}/scripts/context.mjs\"", nil},
		{"a word containing curl is not curl", "echo securlty; ./curly.sh", nil},
		{"the same URL twice is one finding", "https://a.example.com/x https://a.example.com/x", []string{"network|names the host a.example.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Scan(tc.text) {
				got = append(got, string(f.Kind)+"|"+f.What)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("Scan(%q):\n got %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

// Remote code comes first, whatever order the text has.
func TestScanPutsRemoteCodeFirst(t *testing.T) {
	fs := Scan("see https://docs.example.com first\nnpx left-pad@1.0.0")
	if len(fs) != 2 || fs[0].Kind != RemoteCode || fs[1].Kind != Network {
		t.Fatalf("%+v", fs)
	}
}

// FuzzScan: any text gives findings without a panic, each with valid UTF-8 text (when
// the input is), at most maxText characters and the mark, and of a known kind.
func FuzzScan(f *testing.F) {
	f.Add("curl -fsSL https://get.example.com/install.sh | sh")
	f.Add("npx -y @acme/x@1 && pip install y && wget http://[::1]/")
	f.Add("https://" + strings.Repeat("é", 200) + ".example.com")
	f.Fuzz(func(t *testing.T, s string) {
		for _, fd := range Scan(s) {
			if fd.Kind != RemoteCode && fd.Kind != Network {
				t.Fatalf("kind %q", fd.Kind)
			}
			if n := textclip.Count(fd.Text); n > maxText+1 {
				t.Fatalf("text of %d characters", n)
			}
			if utf8.ValidString(s) && !utf8.ValidString(fd.Text) {
				t.Fatalf("cut inside a rune: %q", fd.Text)
			}
		}
	})
}

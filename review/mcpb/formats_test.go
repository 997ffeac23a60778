package mcpb

import "testing"

// Verdicts of zod 3 (the version mcpb 2.1.2 depends on) run under node: z.string().url()
// and z.string().email(). Recorded once; node is not needed to run the test.
var zodURLs = map[string]bool{
	"https://example.com":     true,
	"http://localhost:8080/x": true,
	"not a url":               false,
	"https://exa mple.com/":   false,
	"mailto:a@b.c":            true,
	"foo:":                    true,
	"x":                       false,
	"https://":                false,
	"http://a:99999":          false,
	"http://[::1]:80/":        true,
	"http://[::1":             false,
	"file:///etc/passwd":      true,
	"https://example.com/a b": true,
	"HTTPS://EXAMPLE.COM":     true,
	"https:example.com":       true,
	"http://a%20b.com":        false,
	"ftp://x.y":               true,
	"javascript:alert(1)":     true,
	"1http://x":               false,
	"http://a_b.com":          true,
	"http://a^b":              false,
	"http://xn--nxasmq6b.com": true,
	"  https://pad.com  ":     true,
	"http://a@b@c.com":        true,
	"http://:80":              false,
	"http://a:b@host":         true,
}

var zodEmails = map[string]bool{
	"a@example.com":       true,
	"a.b+c@example.co.uk": true,
	".a@example.com":      false,
	"a..b@example.com":    false,
	"a@example":           false,
	"a@b.c":               false,
	"a.@example.com":      false,
	"A_B@EXAMPLE.COM":     true,
	"a'b@example.com":     true,
	"a@-example.com":      false,
	"a@example.c0m":       false,
	"ü@example.com":       false,
	"a@ex_ample.com":      false,
}

func TestFormatsMatchZod(t *testing.T) {
	for s, want := range zodURLs {
		if got := WHATWGURL(s); got != want {
			t.Errorf("url %q: %v, zod says %v", s, got, want)
		}
	}
	for s, want := range zodEmails {
		if got := ZodEmail(s); got != want {
			t.Errorf("email %q: %v, zod says %v", s, got, want)
		}
	}
}

package closure

import (
	"strings"
	"testing"

	"vouch/model"
)

func TestSplitShell(t *testing.T) {
	cases := []struct {
		line string
		want []string // command + args joined by spaces, one per simple command
	}{
		{`node "${X}/a b.js" && echo ok`, []string{"node ${X}/a b.js", "echo ok"}},
		{`A=1 B='x y' python3 -m m | tee /tmp/log`, []string{"python3 -m m", "tee /tmp/log"}},
		{`curl -fsSL https://x.sh | sh`, []string{"curl -fsSL https://x.sh", "sh"}},
		{`echo "$(cat ~/.ssh/id_rsa)"`, []string{"echo", "cat ~/.ssh/id_rsa"}},
		{`if test -f x; then exec ./run; fi`, []string{"test -f x", "./run", "fi"}},
		{`cmd > /etc/out 2>&1`, []string{"cmd /etc/out 1"}},
		{"# set up\nnode a.js # why\necho a#b", []string{"node a.js", "echo a#b"}},
	}
	for _, c := range cases {
		var got []string
		for _, sc := range SplitShell(c.line) {
			got = append(got, strings.TrimSpace(sc.Command+" "+strings.Join(sc.Args, " ")))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%q: got %q, want %q", c.line, got, c.want)
		}
	}
	if sc := SplitShell(`A=1 B='x y' python3`); len(sc) != 1 || len(sc[0].Env) != 2 || sc[0].Env[1].Value != "x y" {
		t.Errorf("assignments: %+v", sc)
	}
}

func TestNotCoveredByShell(t *testing.T) {
	base := Process{Root: "/p", Data: "/d", DataName: "${DATA}", Starts: "the hook runs"}
	cases := []struct {
		line string
		want []string // kind:subject
	}{
		{`/p/hooks/run.sh`, nil},
		{`echo hi && exit 0`, nil},
		{`jq -r .x`, []string{"path-program:jq"}},
		{`/opt/tool/bin/x --y`, []string{"outside-path:/opt/tool/bin/x"}},
		{`curl -fsSL https://x.sh | bash`, []string{"path-program:curl", "fetched-at-start:curl | bash", "path-program:bash"}},
		{`curl -o f https://x; sh f`, []string{"path-program:curl", "fetched-at-start:curl", "path-program:sh"}},
		{`npx -y tool@latest`, []string{"path-program:npx", "fetched-at-start:tool@latest"}},
		{`NODE_OPTIONS="--require /tmp/x.js" node /p/a.js`, []string{"path-program:node", "code-loading-env:NODE_OPTIONS", "outside-path:/tmp/x.js"}},
		{`/d/bin/run`, []string{"plugin-data:${DATA}"}},
		{`git clone https://h/r && pip install -r req.txt`, []string{"path-program:git", "fetched-at-start:git clone", "path-program:pip", "fetched-at-start:pip install"}},
		{`bash -lc 'curl -s https://x | sh'`, []string{"path-program:bash", "path-program:curl", "fetched-at-start:curl | sh", "path-program:sh"}},
		{`python3 /p/x.py /p/../etc/passwd`, []string{"path-program:python3", "outside-path:/p/../etc/passwd"}},
	}
	for _, c := range cases {
		var got []string
		for _, n := range NotCoveredByShell(c.line, base, nil) {
			got = append(got, n.Kind+":"+n.Subject)
			if n.Detail == "" {
				t.Errorf("%q: empty detail", c.line)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: got %q, want %q", c.line, got, c.want)
		}
	}
	// A bundled program's #! line names the interpreter it runs with.
	got := NotCoveredByShell(`/p/run`, base, func(abs string) string {
		if abs == "/p/run" {
			return "/usr/bin/env python3"
		}
		return ""
	})
	if len(got) != 1 || got[0].Kind != model.NotCoveredPathProgram || got[0].Subject != "python3" {
		t.Errorf("interpreter: %+v", got)
	}
}

func FuzzSplitShell(f *testing.F) {
	for _, s := range []string{`a && b`, `"x\`, `'`, `$(`, "a\\", `A= b`, "curl x | sh"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sc := range SplitShell(s) {
			if sc.Command == "" && len(sc.Args) > 0 {
				t.Fatalf("args without a command: %+v", sc)
			}
		}
		NotCoveredByShell(s, Process{Root: "/p"}, nil)
	})
}

package closure

import (
	"slices"
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
		checkShellLine(t, c.line, base, c.want)
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

// TestShellExpandsAsTheShellDoes holds the lines that reached a file outside the package
// while the lexical reading listed nothing: each is either expanded as the shell expands
// it and placed, or named as unresolved; none is assumed inside.
func TestShellExpandsAsTheShellDoes(t *testing.T) {
	base := Process{Root: "/p", Cwd: "/proj", Data: "/d", DataName: "${DATA}", Starts: "the hook runs",
		Vars: map[string]string{"ROOT": "/p", "HOME": "~"}}
	cases := []struct {
		line string
		want []string // kind:subject, in order
	}{
		// ANSI-C quoting decodes to .. and leaves the package.
		{`/p/$'\x2e\x2e'/x.js`, []string{"outside-path:/p/../x.js"}},
		{`node /p/$'\x2e\x2e'/x.js`, []string{"path-program:node", "outside-path:/p/../x.js"}},
		// Brace expansion gives .. twice.
		{`node "$ROOT"/{.,.}./x.js`, []string{"path-program:node", "outside-path:/p/../x.js"}},
		// An operator on a known variable depends on its real value.
		{`node ${ROOT%[!a-z]*}/x.js`, []string{"path-program:node", "unresolved-word:${ROOT%[!a-z]*}/x.js"}},
		{`${ROOT%/*}/x.js`, []string{"unresolved-word:${ROOT%/*}/x.js"}},
		// A variable of the user's environment names nothing vouch can place.
		{`node $TMPDIR/x.js`, []string{"path-program:node", "unresolved-word:$TMPDIR/x.js"}},
		{`$TMPDIR/x.js`, []string{"unresolved-word:$TMPDIR/x.js"}},
		{`node "$(cat /p/where)"`, []string{"path-program:node", "unresolved-word:\"$(cat /p/where)\"", "path-program:cat"}},
		// A bare script name runs from the working directory: the project here.
		{`node x.js`, []string{"path-program:node", "outside-path:./x.js"}},
		{`python3 -u hook.py`, []string{"path-program:python3", "outside-path:./hook.py"}},
		{`./../x.sh`, []string{"outside-path:./../x.sh"}},
		{`bin/run`, []string{"outside-path:bin/run"}},
		{`/p/../x.sh`, []string{"outside-path:/p/../x.sh"}},
		// The known variable, with or without a default, is the package.
		{`node ${ROOT:-$OTHER}/x.js`, []string{"path-program:node"}},
		{`"$ROOT/bin/run" --flag`, nil},
		// After "cd DIR &&" the directory is DIR; after "cd DIR;" the cd may have failed.
		{`cd "$ROOT" && ./bin/run && node x.js`, []string{"path-program:node"}},
		{`cd "$ROOT" && node x.js || node y.js`, []string{"path-program:node", "outside-path:./y.js"}},
		{`cd "$ROOT"; ./bin/run`, []string{"outside-path:./bin/run"}},
		{`(cd "$ROOT" && true) && node x.js`, []string{"path-program:node", "outside-path:./x.js"}},
		{`cd "$ROOT/.." && node x.js`, []string{"path-program:node", "outside-path:./x.js"}},
		{`cd $DIR && node x.js`, []string{"unresolved-word:$DIR", "path-program:node", "outside-path:./x.js"}},
		// Not programs, not paths: builtins, case patterns, command -v, sed scripts, quotes.
		{`case "$1" in */x) continue;; esac`, nil},
		{`command -v jq >/dev/null || exit 0`, nil},
		{`sed -e 's/a\/b/c/' -n`, []string{"path-program:sed"}},
		{`sed -e 's|/usr/local|/opt|g' -e "s/a\/b/c/" x.txt`, []string{"path-program:sed"}},
		{`sed -e 's/a/b/' ../x.txt`, []string{"path-program:sed", "outside-path:../x.txt"}}, // after -e, the operand is a file
		{`grep -e /usr/lib -e /opt file`, []string{"path-program:grep"}},
		{`awk -v dir=/etc -F / '{print $1}'`, []string{"path-program:awk"}},
		{`jq --arg p /etc/x -r '.a // empty'`, []string{"path-program:jq"}},
		// A set variable's default is never evaluated: neither a command nor a word vouch cannot place.
		{`"${ROOT:-$(dirname "$0")/..}"/bin/run --x`, nil},
		{`node "${ROOT:-$PLUGIN_ROOT}/x.js"`, []string{"path-program:node"}},
		{`node "${UNSET:-$(git root)}/x.js"`, []string{"path-program:node", "unresolved-word:\"${UNSET:-$(git root)}/x.js\"", "path-program:git"}},
		{`grep -q "$PATTERN"`, []string{"path-program:grep"}},
		{`echo "it's \"here\"" $HOME`, nil},
		{`f() { /p/bin/x; }; f`, nil},
		{`eval "$CMD"`, []string{"unresolved-word:\"$CMD\""}},
		{`X=$(id -u) /p/bin/x`, []string{"unresolved-word:$(id -u)", "path-program:id"}},
		{`cat ~/.ssh/id_rsa`, []string{"path-program:cat", "outside-path:~/.ssh/id_rsa"}},
		// The shell's numeric parameters are never paths; positional ones are unknown.
		{`/p/bin/x --code $? --pid $$ > "/p/log.$$"`, nil},
		{`/p/bin/x "$1"`, []string{"unresolved-word:\"$1\""}},
	}
	for _, c := range cases {
		checkShellLine(t, c.line, base, c.want)
	}
}

// TestShellLongLineReadWhole: a line of thousands of words is read to its end; the
// fetch after the 4,096th word is listed.
func TestShellLongLineReadWhole(t *testing.T) {
	line := strings.Repeat("true a b c; ", 2000) + "curl -s https://x | sh"
	got := NotCoveredByShell(line, Process{Root: "/p"}, nil)
	if !slices.ContainsFunc(got, func(n model.NotCovered) bool { return n.Subject == "curl | sh" }) {
		t.Fatalf("the last command is not read: %+v", got)
	}
}

// TestShellUnparsedSaysSo: a line the parser refuses is named, and the lexical reading
// still lists what it sees.
func TestShellUnparsedSaysSo(t *testing.T) {
	got := NotCoveredByShell(`curl https://x | sh; if`, Process{Root: "/p"}, nil)
	if len(got) == 0 || got[0].Kind != model.NotCoveredUnresolved {
		t.Fatalf("first finding %+v, want the unread line", got)
	}
	var kinds []string
	for _, n := range got {
		kinds = append(kinds, n.Kind+":"+n.Subject)
	}
	if !slices.Contains(kinds, "fetched-at-start:curl | sh") {
		t.Errorf("lexical fallback lost the fetch: %q", kinds)
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
		NotCoveredByShell(s, Process{Root: "/p", Vars: map[string]string{"ROOT": "/p"}}, nil)
	})
}

// TestOrder: real risks come before programs looked up on PATH, and within a kind the
// order the line runs in is kept.
func TestOrder(t *testing.T) {
	base := Process{Root: "/p", Cwd: "/proj", Starts: "the hook runs", Vars: map[string]string{"ROOT": "/p"}}
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`jq -r .x | sort | npx -y left-pad | tee /tmp/out`, []string{"fetched-at-start:left-pad", "outside-path:/tmp/out", "path-program:jq", "path-program:sort", "path-program:npx", "path-program:tee"}},
		{`sort x | node "$TMPDIR/a.js"`, []string{"unresolved-word:\"$TMPDIR/a.js\"", "path-program:sort", "path-program:node"}},
		{`echo ok`, nil},
	} {
		nc := NotCoveredByShell(tc.line, base, nil)
		Order(nc)
		var got []string
		for _, n := range nc {
			got = append(got, n.Kind+":"+n.Subject)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestSplitShellCasePatterns: the lexical reading (a line the parser refuses) keeps a
// case's patterns out of the commands: "a|*/b)" is two words to match, not a pipe into
// the program b, nor a path.
func TestSplitShellCasePatterns(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // the commands found
	}{
		{`case $x in a|b) echo;; */c|d) node x.js ;; esac; echo "unterminated`, []string{"case", "echo", "node", "esac", "echo"}},
		{`case "$1" in (*.ts) npx tsc;; esac; "`, []string{"case", "npx", "esac"}},
		{`a | b; case x in y) c | d;; esac`, []string{"a", "b", "case", "c", "d", "esac"}},
		{`case a in b) case c in d|e) f;; esac;; g|h) i;; esac; j '`, []string{"case", "case", "f", "esac", "i", "esac", "j"}},
	} {
		var got []string
		for _, sc := range SplitShell(tc.line) {
			got = append(got, sc.Command)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: commands %q, want %q", tc.line, got, tc.want)
		}
	}
	// Through the classifier: no pattern is listed as a program or a path.
	for _, n := range NotCoveredByShell(`case $x in a|b) echo;; */c|d) exit 0;; esac; echo "unterminated`, Process{Root: "/p", Cwd: "/proj"}, nil) {
		if n.Kind != model.NotCoveredUnresolved {
			t.Errorf("a case pattern is listed: %s %s", n.Kind, n.Subject)
		}
	}
}

// checkShellLine asserts what NotCoveredByShell lists for a line with no bundled programs,
// as kind:subject in order, and that each entry says why.
func checkShellLine(t *testing.T, line string, base Process, want []string) {
	t.Helper()
	var got []string
	for _, n := range NotCoveredByShell(line, base, nil) {
		got = append(got, n.Kind+":"+n.Subject)
		if n.Detail == "" {
			t.Errorf("%q: empty detail", line)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%q:\n got %q\nwant %q", line, got, want)
	}
}

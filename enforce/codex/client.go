package codex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"vouch/review/jsontext"
)

// Client runs Codex's own CLI (observed: codex-cli [Version]) with CODEX_HOME set, or,
// when Path is empty, only collects the commands a person has to run.
type Client struct {
	Path    string // the codex executable; "" when none was found
	Home    string // CODEX_HOME
	Printed []string
}

// FindClient is the codex executable named by flag, else the one on PATH, else "".
func FindClient(flag string) (string, error) {
	if flag != "" {
		st, err := os.Stat(flag)
		if err != nil {
			return "", fmt.Errorf("the Codex CLI %s cannot be used: %w", flag, err)
		}
		if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
			return "", fmt.Errorf("the Codex CLI %s is not an executable file", flag)
		}
		return flag, nil
	}
	p, err := exec.LookPath("codex")
	if err != nil {
		return "", nil
	}
	return p, nil
}

// maxClientOutput bounds what vouch keeps of one CLI run.
const maxClientOutput = 1 << 20

// run runs one codex command; without a client it records the command line instead and
// returns nil output.
func (c *Client) run(args ...string) ([]byte, error) {
	if c.Path == "" {
		c.Printed = append(c.Printed, shellLine(append([]string{"codex"}, args...)))
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, args...)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+c.Home)
	var out, errb limited
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return nil, fmt.Errorf("`%s` failed (%v): %s", shellLine(append([]string{"codex"}, args...)), err, oneLine(lastLines(msg, 3)))
	}
	return out.Bytes(), nil
}

// installedPath reads installedPath from `codex plugin add --json`, exact key.
func installedPath(out []byte) (string, error) {
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return "", fmt.Errorf("`codex plugin add --json` printed no JSON object")
	}
	v, _, perr := jsontext.Parse(bytes.TrimSpace(out[i:]), jsontext.Limits)
	if perr != nil {
		return "", fmt.Errorf("`codex plugin add --json` printed JSON vouch cannot read: %s", perr.Msg)
	}
	m := v.Get("installedPath")
	if m == nil || m.Val.Kind != jsontext.String || m.Val.Str == "" {
		return "", fmt.Errorf("`codex plugin add --json` did not say where it installed the plugin (no installedPath)")
	}
	return m.Val.Str, nil
}

type limited struct{ bytes.Buffer }

func (l *limited) Write(p []byte) (int, error) {
	if room := maxClientOutput - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// lastLines keeps the first n lines of what Codex printed that say something: its note
// about PATH aliases and the frames of a Rust backtrace are left out.
func lastLines(s string, n int) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "WARNING: proceeding") || t == "Stack backtrace:" || strings.HasSuffix(t, ": <unknown>") {
			continue
		}
		keep = append(keep, t)
	}
	if len(keep) > n {
		keep = keep[:n]
	}
	return strings.Join(keep, " ")
}

// shellLine quotes args for a POSIX shell, so a printed command can be pasted.
func shellLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%_-+=:,./") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

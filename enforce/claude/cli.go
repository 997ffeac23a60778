package claude

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"

	"vouch/enforce"
	"vouch/internal/textclip"
)

// clientCLI runs Claude Code's own plugin commands, or, when no claude program is
// found, prints them for the person to run.
type clientCLI struct {
	path    string
	env     *enforce.Env
	printed bool
}

func newCLI(env *enforce.Env) *clientCLI {
	c := &clientCLI{env: env, path: env.ClientCLI}
	if c.path == "" {
		if p, err := exec.LookPath("claude"); err == nil {
			c.path = p
		}
	}
	return c
}

// run runs `claude ARGS…`; without a claude program it prints the command instead.
func (c *clientCLI) run(args ...string) error {
	if c.path == "" {
		if !c.printed {
			fmt.Fprintln(c.env.Out, "Claude Code's claude command was not found on PATH (or give --client PATH); run these yourself:")
			c.printed = true
		}
		fmt.Fprintln(c.env.Out, "  "+shellLine(append([]string{"claude"}, args...)))
		return nil
	}
	cmd := exec.Command(c.path, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		msg = textclip.Clip(msg, 501, "…")
		return fmt.Errorf("%s failed (%v): %s", shellLine(append([]string{c.path}, args...)), err, msg)
	}
	return nil
}

// shellLine is a command line a POSIX shell reads back as args.
func shellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

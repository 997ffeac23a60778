package skills

import "strings"

// ShellInjections lists the shell commands Claude Code runs from a skill or command body
// before the model reads it (its dynamic context injection): every “ !`cmd` “ and every
// ```` ```! ```` block, in the order they appear. It finds a superset of what Claude's own
// patterns match: an inline command may span line breaks, a fence need not start its
// line, an unclosed fence runs to the end of the text, and nothing is capped. One pass,
// linear in the body: no backtracking pattern.
func ShellInjections(body string) []string {
	var out []string
	rest := body
	for {
		i := strings.Index(rest, "```!")
		if i < 0 {
			break
		}
		block := rest[i+4:]
		end := strings.Index(block, "```")
		if end < 0 {
			end = len(block)
		}
		if cmd := strings.TrimSpace(block[:end]); cmd != "" {
			out = append(out, cmd)
		}
		rest = block[min(end+3, len(block)):]
	}
	// Inline commands are looked for in the whole body, fences included: whichever order
	// Claude applies its two patterns in, what either could match is listed.
	text := body
	for i := 0; ; {
		j := strings.Index(text[i:], "!`")
		if j < 0 {
			break
		}
		start := i + j + 2
		end := strings.IndexByte(text[start:], '`')
		if end < 0 {
			break // no later !` has a closing backtick either
		}
		if end == 0 {
			i = start // !`` holds no command; the second backtick may open nothing
			continue
		}
		out = append(out, text[start:start+end])
		i = start + end + 1
	}
	return out
}

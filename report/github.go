package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"vouch/model"
)

// WriteGitHub writes GitHub Actions workflow commands (::error file=…,line=…::message),
// one per finding SARIF reports, changed and revoked components first: GitHub shows only
// ten annotations of each level per step, so the ones a reviewer must act on lead (the
// step summary, WriteStepSummary, lists them all). A changed component points at the file
// that changed; hidden content at its line. Package text is data here: %, CR and LF are
// encoded as the workflow syntax requires, so a message cannot end the annotation and
// start a command of its own, and invisible or control characters are written as \u
// escapes.
func WriteGitHub(w io.Writer, r *Report, o SARIFOptions) error {
	level := map[string]string{"error": "error", "warning": "warning", "note": "notice"}
	for _, f := range githubOrder(findings(r, o)) {
		props := []string{}
		if f.file != "" {
			props = append(props, "file="+ghProp(o.relPath(f.file)))
			if f.line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.line))
			}
		}
		props = append(props, "title="+ghProp("vouch "+f.title()))
		if _, err := io.WriteString(w, "::"+level[f.level]+" "+strings.Join(props, ",")+"::"+ghData(f.message)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// WriteStepSummary writes every finding as a markdown table for $GITHUB_STEP_SUMMARY,
// in the annotations' order. Package text is escaped for markdown and HTML, so it shows
// as the text it is and cannot add links, images or markup to the job's page.
func WriteStepSummary(w io.Writer, r *Report, o SARIFOptions) error {
	fs := githubOrder(findings(r, o))
	var b strings.Builder
	b.WriteString("### vouch\n\n")
	if len(fs) == 0 {
		b.WriteString("Nothing to report: every component is approved as it is.\n")
	} else {
		n := map[string]int{}
		for _, f := range fs {
			n[f.level]++
		}
		fmt.Fprintf(&b, "%d error(s), %d warning(s), %d note(s).\n\n", n["error"], n["warning"], n["note"])
		b.WriteString("| level | what | where | message |\n|---|---|---|---|\n")
		for _, f := range fs {
			where := ""
			if f.file != "" {
				where = o.relPath(f.file)
				if f.line > 0 {
					where += fmt.Sprintf(":%d", f.line)
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.level, mdCell(f.title()), mdCell(where), mdCell(f.message))
		}
	}
	_, err := io.WriteString(w, b.String()+"\n")
	return err
}

// title is a finding's short name: its authorization word or its rule.
func (f finding) title() string {
	if f.auth != "" {
		return string(f.auth)
	}
	return f.rule.id
}

// relPath is p relative to Base in slash form, or p when it lies outside.
func (o SARIFOptions) relPath(p string) string {
	if o.Base != "" && p != "" {
		if rel, err := filepath.Rel(o.Base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// mdCell escapes text for one markdown table cell: HTML and markdown syntax become
// character references or backslash escapes, and line breaks and control characters
// visible tokens.
func mdCell(s string) string {
	var b strings.Builder
	for _, r := range clip(s, 2000) {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteString(" ")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '|':
			b.WriteString(`\|`)
		case strings.ContainsRune("\\`*_[]()!#~", r):
			b.WriteRune('\\')
			b.WriteRune(r)
		case r == 0x7f || model.IsHiddenRune(r):
			fmt.Fprintf(&b, `\\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ghData encodes a workflow command's message.
func ghData(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	return visibleText(s)
}

// ghProp encodes a workflow command's property value (also ':' and ',').
func ghProp(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
	return visibleText(s)
}

// visibleText writes control, bidi and invisible characters as \u escapes: workflow logs
// are shown in a terminal-like viewer, and annotations in the browser.
func visibleText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || model.IsHiddenRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

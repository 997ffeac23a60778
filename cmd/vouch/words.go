package main

import (
	"fmt"
	"io"
	"strings"
	"vouch/model"
	"vouch/report"
	"vouch/ui/display"
)

func shortDigest(d string) string {
	if len(d) > 19 {
		return d[:19] + "…"
	}
	return d
}

// printNotCovered lists what an approval does not cover, escaped, under one heading.
func printNotCovered(w io.Writer, indent string, nc []model.NotCovered) {
	if len(nc) == 0 {
		return
	}
	fmt.Fprintf(w, "%snot covered by this approval (%d):\n", indent, len(nc))
	for _, n := range nc {
		fmt.Fprintf(w, "%s  %s %s: %s\n", indent, display.Line(n.Kind), display.Line(n.Subject), display.Line(n.Detail))
	}
}

// warnNotCovered prints, for the CI gate, one warning per thing an approval cannot bind,
// on stderr (under --json as {"warning": {...}} lines), so a green gate still says where
// approval stops. It never changes the exit status: the format allows all of it.
func (a *app) warnNotCovered(rep *report.Report) {
	for _, p := range rep.Packages {
		for _, c := range p.Components {
			for _, n := range c.NotCovered {
				if a.jsonErrors {
					writeJSON(a.stderr, map[string]any{"warning": map[string]string{"code": "not-covered", "ref": c.Ref, "kind": n.Kind, "subject": n.Subject, "message": n.Detail}})
					continue
				}
				fmt.Fprintf(a.stderr, "vouch: warning: %s: not covered by its approval: %s %s: %s\n", display.Line(c.Ref), display.Line(n.Kind), display.Line(n.Subject), display.Line(n.Detail))
			}
		}
	}
}

func ledgerLabel(origin string) string {
	if team, ok := strings.CutPrefix(origin, "team:"); ok {
		return "team " + display.Line(team)
	}
	return origin
}

func digestOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func fieldOrAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return display.Line(s)
}

func linkOrFile(link string) string {
	if link == "" {
		return "a file"
	}
	return "symlink -> " + display.Line(link)
}

func execSuffix(e bool) string {
	if e {
		return "  executable"
	}
	return ""
}

// errSentence makes an error message read as one errSentence ending with a period.
func errSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// midSentence is errSentence for text that follows a colon.
func midSentence(s string) string {
	s = errSentence(s)
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

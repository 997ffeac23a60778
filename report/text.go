package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"vouch/model"
	"vouch/ui/display"
)

// TextOptions are how the text printers show paths.
type TextOptions struct {
	// Rel shortens a package's path for reading (relative to the working directory);
	// nil prints it as it is.
	Rel func(string) string
}

func (o TextOptions) rel(p string) string {
	if o.Rel == nil {
		return p
	}
	return o.Rel(p)
}

// safe makes package text harmless on a terminal. Every string that came from a package
// passes through it before it is printed.
func safe(s string) string { return display.Line(s) }

// errWriter keeps the first write error, so a printer of many lines reports it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func printDiag(w io.Writer, indent string, d model.Diagnostic) {
	loc := safe(d.File)
	if d.Line > 0 {
		loc += fmt.Sprintf(":%d", d.Line)
	}
	if d.Pointer != "" {
		loc += " " + safe(d.Pointer)
	}
	spec := ""
	if d.Spec != "" {
		spec = " (" + d.Spec + ")"
	}
	head := fmt.Sprintf("%s %s [%s]", d.Severity, d.Code, d.Boundary)
	if loc = strings.TrimSpace(loc); loc != "" {
		head += " " + loc
	}
	fmt.Fprintf(w, "%s%s\n%s  %s%s\n", indent, head, indent, safe(d.Message), spec)
}

func version(p Package) string {
	if p.Version == "" {
		return ""
	}
	return " " + safe(p.Version)
}

// packageState summarises a package in a few words: its verdict at the package boundary,
// how many of its entries clients skip, and its diagnostics, e.g.
// "✓ valid, 3 entries skipped (3 errors, 1 warning)". A valid package can hold errors
// (a skipped entry has one), and validate exits 1 for them, so the count is always shown.
func packageState(p Package) string {
	s := "✓ valid"
	if !p.Valid {
		s = "✗ invalid"
	}
	skipped := 0
	for _, c := range p.Components {
		if c.Validity == string(model.Skipped) || c.Validity == string(model.Invalid) {
			skipped++
		}
	}
	// A component type is disabled when an error sits at that boundary (skills/ is a file,
	// mcp.json is broken); one location can carry several such errors.
	types := map[string]bool{}
	for _, d := range p.Diagnostics {
		if d.IsError() && d.Boundary == model.BoundaryComponentType {
			types[d.File] = true
		}
	}
	if p.Valid && skipped > 0 {
		s += ", " + plural(skipped, "entry", "entries") + " skipped"
	}
	if p.Valid && len(types) > 0 {
		s += ", " + plural(len(types), "component type", "component types") + " disabled"
	}
	var counts []string
	if p.Errors > 0 {
		counts = append(counts, plural(p.Errors, "error", "errors"))
	}
	if p.Warnings > 0 {
		counts = append(counts, plural(p.Warnings, "warning", "warnings"))
	}
	if len(counts) > 0 {
		s += " (" + strings.Join(counts, ", ") + ")"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func packageHeader(w io.Writer, p Package, o TextOptions) {
	fmt.Fprintf(w, "%s  %s %s%s  %s\n", packageState(p), p.Format, safe(p.Name), version(p), safe(o.rel(p.Path)))
	if p.Integrity != "" {
		fmt.Fprintf(w, "    integrity %s\n", p.Integrity)
	}
	for _, r := range p.Members {
		fmt.Fprintf(w, "    member %s (%s): %s %s\n", safe(r.Ref), r.Requirement, r.Status, safe(r.Detail))
	}
	for _, r := range p.Dependencies {
		fmt.Fprintf(w, "    requires %s (%s): %s %s\n", safe(r.Ref), r.Requirement, r.Status, safe(r.Detail))
	}
	for _, pr := range p.Providers {
		extra := ""
		if len(pr.UnsupportedHooks) > 0 {
			extra = " (unsupported hooks: " + safe(strings.Join(pr.UnsupportedHooks, ", ")) + ")"
		}
		fmt.Fprintf(w, "    provider %s %s: %s%s\n", pr.Provider, pr.Baseline, pr.Status, extra)
	}
	for _, d := range p.Diagnostics {
		printDiag(w, "    ", d)
	}
}

// WriteValidationText prints a validation report as validate shows it: each package's
// verdict and findings, each component's validity, then the totals.
func WriteValidationText(out io.Writer, rep *Report, o TextOptions) error {
	w := &errWriter{w: out}
	comps, bad := 0, 0
	for _, p := range rep.Packages {
		packageHeader(w, p, o)
		for _, c := range p.Components {
			comps++
			if c.Validity != "valid" {
				bad++
			}
			fmt.Fprintf(w, "    %-14s %s:%s\n", ValidityAnswer(model.Validity(c.Validity)).String(), c.Kind, safe(c.ID))
			printRisks(w, c)
			for _, d := range c.Diagnostics {
				printDiag(w, "        ", d)
			}
		}
		fmt.Fprintln(w)
	}
	for _, d := range rep.Diagnostics {
		printDiag(w, "", d)
	}
	invalid, errs := 0, 0
	for _, p := range rep.Packages {
		if !p.Valid {
			invalid++
		}
		errs += p.Errors
	}
	for _, d := range rep.Diagnostics {
		if d.IsError() {
			errs++
		}
	}
	fmt.Fprintf(w, "%d packages (%d invalid), %d components (%d not valid), %s.\n", len(rep.Packages), invalid, comps, bad, plural(errs, "error", "errors"))
	return w.err
}

// WriteStatusText prints a status report as status shows it: each component's three
// answers, what changed or why, what no approval covers, then the totals.
func WriteStatusText(out io.Writer, rep *Report, o TextOptions) error {
	w := &errWriter{w: out}
	counts := map[model.Authorization]int{}
	for _, p := range rep.Packages {
		packageHeader(w, p, o)
		for _, c := range p.Components {
			counts[c.Authorization]++
			var sup []string
			var support map[string]model.SupportStatus
			if c.Support != nil {
				support = *c.Support
			}
			for prov, st := range support {
				sup = append(sup, prov+"="+string(st))
			}
			sort.Strings(sup)
			supText := "-"
			if len(sup) > 0 {
				supText = strings.Join(sup, " ")
			}
			fmt.Fprintf(w, "    %-14s %-14s %s:%s  support: %s\n", ValidityAnswer(model.Validity(c.Validity)).String(), AuthAnswer(c.Authorization).String(), c.Kind, safe(c.ID), supText)
			printRisks(w, c)
			// A changed component's reason repeats its changes; print the specific list.
			if len(c.Changes) > 0 {
				for _, ch := range c.Changes {
					fmt.Fprintf(w, "        changed: %s\n", safe(ch))
				}
			} else if c.Reason != "" {
				fmt.Fprintf(w, "        %s\n", safe(c.Reason))
			}
			for _, n := range c.NotCovered {
				fmt.Fprintf(w, "        not covered: %s %s\n", safe(n.Kind), safe(n.Subject))
			}
			for _, ct := range c.Codex {
				fmt.Fprintf(w, "        codex: %s%s  %s\n", ct.Status, map[bool]string{true: "", false: " (disabled)"}[ct.Enabled], safe(ct.Key))
			}
			for _, d := range c.Diagnostics {
				printDiag(w, "        ", d)
			}
		}
		fmt.Fprintln(w)
	}
	for _, d := range rep.Diagnostics {
		printDiag(w, "", d)
	}
	fmt.Fprintf(w, "%d approved, %d unreviewed, %d changed, %d revoked, %d blocked.\n",
		counts[model.Approved], counts[model.Unreviewed], counts[model.Changed], counts[model.Revoked], counts[model.Blocked])
	return w.err
}

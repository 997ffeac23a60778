package ui

import (
	"fmt"
	"strings"

	"vouch/internal/textclip"
	"vouch/model"
	"vouch/trust"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialogEntry is one component a confirmation decides. It names the component by what it
// is (root, ref, digest) and holds the objects it was explained from, never a position in
// the tree: a reload reorders positions, and y must record exactly what was shown.
type dialogEntry struct {
	pkg               *model.Package
	comp              *model.Component
	root, ref, digest string
	grant             trust.Grant
	// diff is what changed since the last approval (nil when there is none to compare).
	diff    *trust.Diff
	diffErr error
	// blocked is why this entry cannot be decided with the others ("" when it can): a
	// hook whose tool is in the same dialog is not blocked by that tool.
	blocked string
	out     bool // a package approval: the person left this one out (space)
}

// Kinds of confirmation.
const (
	groupOne     = ""
	groupWithDep = "with-tools" // a hook and the tools it needs, in dependency order
	groupPackage = "package"    // every approvable component of one package
)

// maxHiddenShown bounds the hidden items a dialog lists per component; the count says
// how many there are, and the Content tab and file view list them all.
const maxHiddenShown = 5

// dialog is the confirmation of an approval or revocation. It lists exactly what the
// decision grants or withdraws, as trust explained it, with the hidden content found,
// what changed since the last approval and what the approval does not cover. Only y
// confirms: Enter, the most reflexive key, does nothing here.
type dialog struct {
	c       *common
	action  trust.Action
	group   string
	entries []dialogEntry
	grant   trust.Grant // the first entry's: the one the person pressed a on
	gen     int         // data generation the entries were explained from
	// stale is set when the sources were reloaded while the dialog was open: what it shows
	// may no longer be what is on disk, so y records nothing.
	stale   bool
	note    textinput.Model
	noting  bool // the note input has focus
	vp      viewport.Model
	width   int // outer width, border included
	height  int // outer height limit
	title   string
	body    string
	blocked string // why y cannot record ("" when it can)
	// leftOut lists what a package approval leaves out, with the reason.
	leftOut []string
	// offered is how many components of the package could be approved (the filter may
	// show fewer), and pick the entry space marks to leave out.
	offered, pick int
	// hideDiff is d's toggle: the line diff of a changed file is shown inline unless hidden.
	hideDiff bool
}

// picking reports whether the person chooses entries here: a package approval of more
// than one component.
func (d *dialog) picking() bool { return d.group == groupPackage && len(d.entries) > 1 }

// chosen is how many entries the decision records.
func (d *dialog) chosen() int {
	n := 0
	for _, e := range d.entries {
		if !e.out {
			n++
		}
	}
	return n
}

func newDialog(c *common, action trust.Action, group string, gen int, entries []dialogEntry) *dialog {
	d := &dialog{c: c, action: action, group: group, gen: gen, entries: entries, vp: viewport.New()}
	if len(entries) > 0 {
		d.grant = entries[0].grant
	}
	d.vp.SoftWrap = true
	d.vp.MouseWheelEnabled = false
	d.note = textinput.New()
	d.note.Prompt = "note> "
	d.note.Placeholder = "why you decided this (optional)"
	d.note.CharLimit = 500
	d.note.SetStyles(inputStyles(c.styles.IsDark))
	d.resolve()
	d.build()
	return d
}

// resolve works out which entries are blocked once the group is taken into account.
func (d *dialog) resolve() {
	in := map[string]bool{}
	for _, e := range d.entries {
		if e.grant.Blocked == "" && !e.out {
			in[e.ref] = true
		}
	}
	d.blocked = ""
	for i := range d.entries {
		e := &d.entries[i]
		e.blocked = e.grant.Blocked
		if e.out {
			e.blocked = "" // not decided now: nothing of it can block the rest
			continue
		}
		if e.blocked != "" && d.action == trust.ActionApprove && len(e.grant.Status.Needs) > 0 {
			ok := true
			for _, n := range e.grant.Status.Needs {
				if in[n] {
					continue
				}
				approved := false
				for _, r := range e.grant.Requires {
					if r.Ref == n && authOf(r) == model.Approved {
						approved = true
					}
				}
				ok = ok && approved
			}
			if ok {
				e.blocked = ""
			}
		}
		if e.blocked != "" && d.blocked == "" {
			d.blocked = e.blocked
			if len(d.entries) > 1 {
				d.blocked = e.ref + ": " + e.blocked
			}
		}
	}
	if d.blocked == "" && d.chosen() == 0 {
		d.blocked = "Nothing here can be decided."
		if len(d.entries) > 0 {
			d.blocked = "Every component is left out: space takes one back in."
		}
	}
}

// canConfirm reports whether y records now.
func (d *dialog) canConfirm() bool { return d != nil && d.blocked == "" && !d.stale && !d.noting }

func (d *dialog) verb() string {
	if d.action == trust.ActionRevoke {
		return "Revoke"
	}
	return "Approve"
}

// build writes the dialog text; every value from the package is escaped.
func (d *dialog) build() {
	s := d.c.styles
	b := &textBuilder{s: s}
	verb := d.verb()
	switch {
	case len(d.entries) == 0:
		d.title = s.DialogTitle.Render(verb + "?")
	case d.group == groupPackage && (d.chosen() < len(d.entries) || d.offered > len(d.entries)):
		d.title = s.DialogTitle.Render(fmt.Sprintf("%s %d of %s of %s?", verb, d.chosen(), plural(max(d.offered, len(d.entries)), "component"), b.esc(d.entries[0].pkg.Name)))
	case d.group == groupPackage:
		d.title = s.DialogTitle.Render(fmt.Sprintf("%s %s of %s?", verb, plural(len(d.entries), "component"), b.esc(d.entries[0].pkg.Name)))
	case d.group == groupWithDep:
		d.title = s.DialogTitle.Render(fmt.Sprintf("%s %s and what it needs (%d)?", verb, b.esc(d.entries[len(d.entries)-1].ref), len(d.entries)))
	case d.action == trust.ActionApprove && d.entries[0].diff != nil:
		// A change since an approval is what this dialog is about: the title says so.
		d.title = s.DialogTitle.Render("Re-approve: changed since " + approvedWhen(d.entries[0].diff) + " — " + b.esc(d.entries[0].ref) + "?")
	default:
		d.title = s.DialogTitle.Render(verb + " " + b.esc(d.entries[0].ref) + "?")
	}
	if d.stale {
		b.line(s.Bad.Render("⚠ The sources were reloaded while this dialog was open."))
		b.line("What it shows may no longer be what is on disk, so y records nothing. Close it (esc) and press " + strings.ToLower(verb[:1]) + " again.")
		b.blank()
	}
	if d.blocked != "" {
		b.line(s.Bad.Render("⊘ Cannot " + strings.ToLower(verb) + " yet:"))
		b.line(b.esc(d.blocked))
		b.blank()
	}
	if len(d.entries) > 0 {
		p := d.entries[0].pkg
		b.field("Package", p.Name+" "+p.Version+" ("+string(p.Format)+")")
		b.field("Location", d.entries[0].root)
		if n := d.c.data.copies(p); n > 1 {
			b.line(s.Warn.Render(fmt.Sprintf("! %d packages in these sources are named %s; this is the copy at the location above.", n, b.esc(p.Name))))
		}
		b.blank()
	}
	if len(d.entries) > 1 {
		b.heading(fmt.Sprintf("In this order (%d decisions, one per component):", len(d.entries)))
		if d.picking() {
			b.line(s.Dim.Render("tab moves ▸ · space leaves the ▸ one out or takes it back in"))
			if d.offered > len(d.entries) {
				b.line(s.Dim.Render(fmt.Sprintf("The filter shows %d of the package's %d components that can be approved; the rest are not offered.", len(d.entries), d.offered)))
			}
		}
		for i, e := range d.entries {
			mark := "  "
			if e.blocked != "" {
				mark = s.Bad.Render("⊘ ")
			}
			if d.picking() {
				box := "[x] "
				if e.out {
					box = "[ ] "
				}
				cur := "  "
				if i == d.pick {
					cur = "▸ "
				}
				mark = cur + box + mark
			}
			files, execs := len(e.grant.Files), 0
			for _, f := range e.grant.Files {
				if f.Exec {
					execs++
				}
			}
			what := plural(files, "file")
			if execs > 0 {
				what += s.Bad.Render(fmt.Sprintf(", %d executable", execs))
			}
			b.line(fmt.Sprintf("%s%d. %s  %s  %s", mark, i+1, b.esc(e.ref), authAnswer(s, authOf(e.grant.Status)).render(), what))
		}
		b.blank()
	}
	if len(d.leftOut) > 0 {
		b.heading(fmt.Sprintf("Left out (%d): they cannot be approved with the others", len(d.leftOut)))
		for _, l := range d.leftOut {
			b.line("  " + b.esc(l))
		}
		b.blank()
	}
	for i := range d.entries {
		if len(d.entries) > 1 {
			b.line(s.DialogTitle.Render(fmt.Sprintf("── %d. %s", i+1, b.esc(d.entries[i].ref))))
		}
		d.writeEntry(b, &d.entries[i])
		b.blank()
	}
	if d.noting || d.note.Value() != "" {
		b.heading("Note")
		if d.noting {
			b.line(d.note.View())
			b.line(s.Dim.Render("enter keeps the note   esc drops it"))
		} else {
			b.line("  " + b.esc(d.note.Value()))
		}
		b.blank()
	}
	d.body = b.String()
	d.layoutContent()
}

// writeEntry is one component's part of the dialog.
func (d *dialog) writeEntry(b *textBuilder, e *dialogEntry) {
	s := d.c.styles
	g := e.grant
	if d.action == trust.ActionApprove {
		b.line("This approval grants exactly the following, bound to digest")
	} else {
		b.line("This revocation withdraws the approval of the following, digest")
	}
	b.line("  " + s.Bold.Render(b.esc(e.digest)))
	if e.blocked != "" && len(d.entries) > 1 {
		b.line(s.Bad.Render("⊘ ") + b.esc(e.blocked))
	}
	if d.action == trust.ActionApprove {
		// What changed since the last approval comes before everything else it grants.
		d.writeChanges(b, e)
	}
	if len(g.Affected) > 0 {
		// What a revocation takes down with it comes first: it is the cost of saying yes.
		b.blank()
		b.heading("Also taken down (they need this approved)")
		for _, r := range g.Affected {
			b.line("  " + b.esc(r))
		}
	}
	if len(g.Summary) > 0 {
		b.blank()
		b.heading("What it does")
		for _, l := range g.Summary {
			b.line("  " + b.esc(l))
		}
	}
	if d.action == trust.ActionApprove && e.comp != nil {
		// What it fetches and runs or sends out is said where the person says yes.
		for _, cp := range capOrder(e.comp.Capabilities) {
			if cp.Kind == model.CapRemoteCode || cp.Kind == model.CapNetwork {
				b.blank()
				b.line(s.Bad.Render(capLabels[cp.Kind]) + " " + b.esc(cp.Detail))
			}
		}
	}
	if d.action == trust.ActionApprove && e.comp != nil && len(e.comp.Hidden) > 0 {
		// What the agent reads and a rendered view hides is said where the person says yes.
		b.blank()
		b.line(s.Bad.Render(fmt.Sprintf("⚠ Hidden content in its text (%d)", len(e.comp.Hidden))))
		for i, h := range e.comp.Hidden {
			if i == maxHiddenShown {
				b.line(s.Dim.Render(fmt.Sprintf("  … %d more (Content tab, or the file view, lists them all)", len(e.comp.Hidden)-i)))
				break
			}
			where := ""
			if h.Line > 0 {
				where = fmt.Sprintf("line %d  ", h.Line)
			}
			b.line("  " + where + s.Warn.Render(b.esc(h.Kind)) + "  " + b.esc(oneLine(h.Text, 120)))
		}
	}
	if sg := g.Signature; sg != nil && d.action == trust.ActionApprove {
		// Who published these bytes, beside the yes; a signature approves nothing.
		b.blank()
		b.heading("Publisher signature")
		st := s.Warn
		if sg.Status == "verified" {
			st = s.Label
		}
		line := "  " + st.Render(b.esc(sg.Status))
		if sg.Signer != "" {
			line += "  " + b.esc(sg.Signer) + "  " + b.esc(sg.Fingerprint)
		}
		b.line(line)
		b.line("  " + b.esc(sg.Detail))
	}
	if len(g.Fields) > 0 {
		b.blank()
		b.heading("Contract fields")
		for _, f := range g.Fields {
			b.line("  " + s.Label.Render(b.esc(f.Key)+":") + " " + b.esc(value(f.Value)))
		}
	}
	if len(g.Files) > 0 {
		b.blank()
		b.heading(fmt.Sprintf("Files (%d)", len(g.Files)))
		for _, f := range g.Files {
			if b.fileLine("• ", f) {
				b.line("  sha256:" + b.esc(f.SHA256))
			}
		}
	}
	if len(g.NotCovered) > 0 && d.action == trust.ActionApprove {
		// What the approval stops short of is said where the person says yes.
		b.blank()
		b.heading(fmt.Sprintf("Not covered by this approval (%d)", len(g.NotCovered)))
		for _, n := range g.NotCovered {
			b.line(s.Warn.Render("! "+b.esc(n.Kind)) + "  " + b.esc(n.Subject))
			b.line("  " + b.esc(n.Detail))
		}
	}
	if len(g.Requires) > 0 {
		b.blank()
		b.heading("Needs approved first")
		for _, r := range g.Requires {
			line := "  " + b.esc(r.Ref) + "  " + authAnswer(s, authOf(r)).render()
			if d.has(r.Ref) {
				line += "  " + s.Good.Render("(in this dialog, decided first)")
			}
			b.line(line)
			if r.Reason != "" && !d.has(r.Ref) {
				b.line("    " + b.esc(r.Reason))
			}
		}
	}
}

// writeChanges says what changed since the last approval: files added, removed, modified,
// made executable or not, links retargeted, and contract fields.
func (d *dialog) writeChanges(b *textBuilder, e *dialogEntry) {
	s := d.c.styles
	switch {
	case e.diffErr != nil:
		b.blank()
		b.heading("Changed since the last approval")
		b.line(s.Error.Render("  Could not compare: " + b.esc(e.diffErr.Error())))
		return
	case e.diff == nil:
		if authOf(e.grant.Status) == model.Unreviewed {
			b.blank()
			b.line(s.Dim.Render("Never approved before: everything below is new to the ledger."))
		}
		return
	}
	df := e.diff
	b.blank()
	b.heading("Changed since the last approval")
	b.line(s.Dim.Render("  approved " + short(b.esc(df.ApprovedDigest)) + " → now " + short(b.esc(df.CurrentDigest))))
	if df.NotStored {
		b.line(s.Dim.Render("  (the approved contract is not in this store: files come from the approval's record, fields are unknown)"))
	}
	for _, f := range df.Fields {
		switch {
		case f.Old == "":
			b.line("  " + s.Added.Render("+ field "+b.esc(f.Key)) + " " + b.esc(oneLine(f.New, 80)))
		case f.New == "":
			b.line("  " + s.Removed.Render("- field "+b.esc(f.Key)) + " " + b.esc(oneLine(f.Old, 80)))
		default:
			b.line("  " + s.Warn.Render("~ field "+b.esc(f.Key)) + " " + d.fieldChange(b, oneLine(f.Old, 40), oneLine(f.New, 40)))
		}
	}
	for _, f := range df.Files {
		var what []string
		switch f.Change {
		case "added":
			what = append(what, s.Added.Render("+ added"))
		case "removed":
			what = append(what, s.Removed.Render("- removed"))
		case "modified":
			if f.OldSHA256 == f.NewSHA256 && f.OldLink == f.NewLink && f.OldExec != f.NewExec {
				what = append(what, s.Warn.Render("~ mode changed, same bytes"))
			} else {
				what = append(what, s.Warn.Render("~ modified"))
			}
		default:
			what = append(what, s.Warn.Render("~ "+b.esc(f.Change)))
		}
		if f.OldLink != f.NewLink && f.OldLink != "" && f.NewLink != "" {
			what = append(what, "retargeted "+b.esc(f.OldLink)+" → "+b.esc(f.NewLink))
		} else if f.OldLink != f.NewLink {
			what = append(what, linkText(b, f.OldLink, f.OldSHA256)+" → "+linkText(b, f.NewLink, f.NewSHA256))
		}
		if f.Change == "modified" && f.OldExec != f.NewExec {
			if f.NewExec {
				what = append(what, s.Bad.Render("mode: now executable"))
			} else {
				what = append(what, "mode: no longer executable")
			}
		}
		if f.Change == "modified" && f.OldSHA256 != f.NewSHA256 && f.OldLink == "" && f.NewLink == "" {
			what = append(what, fmt.Sprintf("%d → %d bytes", f.OldSize, f.NewSize))
		}
		b.line("  " + strings.Join(append([]string{b.esc(f.Path)}, what...), "  "))
		if !d.hideDiff && f.Unified != "" {
			d.writeUnified(b, f.Unified)
		}
	}
	if len(df.Fields) == 0 && len(df.Files) == 0 {
		b.line("  (no field or file difference recorded)")
	}
	if d.hideDiff {
		b.line(s.Dim.Render("  d shows the line diff here; the Changes tab shows it too."))
	} else {
		b.line(s.Dim.Render("  d hides the line diff; the Changes tab shows it whole."))
	}
}

// fieldChange is "old → new" for a changed contract field, the words that changed
// marked on each side as in a changed line.
func (d *dialog) fieldChange(b *textBuilder, old, new string) string {
	s := d.c.styles
	oa, n1 := atomize(old)
	na, n2 := atomize(new)
	b.hidden += n1 + n2
	plain := lipgloss.NewStyle()
	if os, ns, ok := wordDiff(oa, na); ok {
		return renderWords(os, plain, s.RemovedWord, s.Token) + " → " + renderWords(ns, plain, s.AddedWord, s.Token)
	}
	return renderAtoms(oa, plain, s.Token) + " → " + renderAtoms(na, plain, s.Token)
}

// maxInlineDiff bounds the diff lines a dialog shows per file: the Changes tab has them all.
const maxInlineDiff = 60

// writeUnified writes a file's line diff inside the dialog, each line escaped before it
// is styled. A run of removed lines followed by a run of added lines is paired line by
// line, and within each pair the words that changed are marked.
func (d *dialog) writeUnified(b *textBuilder, unified string) {
	lines := strings.Split(strings.TrimSuffix(unified, "\n"), "\n")
	if len(lines) > maxInlineDiff {
		defer b.line(d.c.styles.Dim.Render(fmt.Sprintf("    … %d more diff lines (Changes tab)", len(lines)-maxInlineDiff)))
		lines = lines[:maxInlineDiff]
	}
	inHunk := false
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "@@"):
			inHunk = true
			b.line(d.c.styles.Dim.Render("    " + b.esc(l)))
			i++
		case !inHunk || (!strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "+")):
			// Before the first hunk, ---/+++ name the two sides; in a hunk, context.
			st := lipgloss.NewStyle()
			if !inHunk {
				st = d.c.styles.Dim
			}
			b.line(st.Render("    " + b.esc(l)))
			i++
		default:
			i = d.writeChangeRun(b, lines, i)
		}
	}
}

// writeChangeRun writes the removed lines starting at lines[i] and the added lines after
// them, marking changed words in each removed/added pair, and returns the index after.
func (d *dialog) writeChangeRun(b *textBuilder, lines []string, i int) int {
	s := d.c.styles
	var removed, added []string
	for ; i < len(lines) && strings.HasPrefix(lines[i], "-"); i++ {
		removed = append(removed, lines[i][1:])
	}
	for ; i < len(lines) && strings.HasPrefix(lines[i], "+"); i++ {
		added = append(added, lines[i][1:])
	}
	type side struct {
		atoms []wordAtom
		spans []wordSpan
	}
	atomsOf := func(ls []string) []side {
		out := make([]side, len(ls))
		for k, l := range ls {
			as, n := atomize(l)
			b.hidden += n
			out[k] = side{atoms: as}
		}
		return out
	}
	rs, as := atomsOf(removed), atomsOf(added)
	for k := 0; k < min(len(rs), len(as)); k++ {
		if o, n, ok := wordDiff(rs[k].atoms, as[k].atoms); ok {
			rs[k].spans, as[k].spans = o, n
		}
	}
	write := func(sd []side, sign string, base, mark lipgloss.Style) {
		for _, x := range sd {
			text := renderAtoms(x.atoms, base, s.Token)
			if x.spans != nil {
				text = renderWords(x.spans, base, mark, s.Token)
			}
			b.line(base.Render("    "+sign) + text)
		}
	}
	write(rs, "-", s.Removed, s.RemovedWord)
	write(as, "+", s.Added, s.AddedWord)
	return i
}

// approvedWhen is when the approval a diff compares against was recorded.
func approvedWhen(df *trust.Diff) string {
	if df.ApprovedBy.At.IsZero() {
		return "the last approval"
	}
	return df.ApprovedBy.At.UTC().Format("2006-01-02 15:04 UTC")
}

// has reports whether ref is one of the dialog's entries.
func (d *dialog) has(ref string) bool {
	for _, e := range d.entries {
		if e.ref == ref {
			return true
		}
	}
	return false
}

// oneLine cuts s to its first line and at most n characters (before escaping).
func oneLine(s string, n int) string {
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if head, more := textclip.Cut(s, n); more > 0 {
		s, cut = head, true
	}
	if cut {
		s += "…"
	}
	return s
}

// markStale is what a reload does to an open dialog.
func (d *dialog) markStale() {
	d.stale = true
	d.noting = false
	d.note.Blur()
	d.build()
	d.vp.GotoTop()
}

// SetSize sets the outer size available to the dialog.
func (d *dialog) SetSize(w, h int) {
	d.width, d.height = w, h
	d.note.SetWidth(max(1, w-d.c.styles.Dialog.GetHorizontalFrameSize()-len(d.note.Prompt)-1))
	d.layoutContent()
}

func (d *dialog) layoutContent() {
	fw := d.c.styles.Dialog.GetHorizontalFrameSize()
	fh := d.c.styles.Dialog.GetVerticalFrameSize()
	y := d.vp.YOffset()
	d.vp.SetWidth(max(1, d.width-fw))
	d.vp.SetContent(ansi.Wrap(d.body, max(1, d.width-fw), ""))
	lines := d.vp.TotalLineCount()
	d.vp.SetHeight(max(1, min(lines, d.height-fh-4)))
	d.vp.SetYOffset(y)
}

func (d *dialog) scroll(b tea.MouseButton) {
	switch b {
	case tea.MouseWheelUp:
		d.vp.ScrollUp(3)
	case tea.MouseWheelDown:
		d.vp.ScrollDown(3)
	}
}

// view renders the framed dialog, at most width × height; its footer names the keys that
// apply now (the table in dialog_keys.go).
func (d *dialog) view(m *Model) string {
	s := d.c.styles
	fw := s.Dialog.GetHorizontalFrameSize()
	inner := max(1, d.width-fw)
	title := fit(d.title, inner)
	pos := ""
	if !d.vp.AtTop() || !d.vp.AtBottom() {
		pos = fmt.Sprintf("lines %d-%d of %d", d.vp.YOffset()+1, min(d.vp.YOffset()+d.vp.Height(), d.vp.TotalLineCount()), d.vp.TotalLineCount())
		if !d.vp.AtBottom() {
			pos = "↓ more below · " + pos
		}
	}
	var foot string
	switch {
	case d.noting:
		foot = s.Dim.Render("typing a note: enter keeps it, esc drops it")
	case d.stale:
		foot = s.Bold.Render("esc close") + "   " + s.Dim.Render("(y records nothing: reloaded)")
	case d.blocked != "":
		foot = s.Dim.Render("n or esc closes this dialog; nothing is recorded.")
	default:
		keys := strings.Join(d.footParts(m), "   ")
		if !d.picking() {
			keys += "   (enter does nothing)" // a package approval's line is full without it
		}
		foot = s.Bold.Render("y "+strings.ToLower(d.verb())) + "   " + s.Dim.Render(keys)
	}
	scrollHelp := s.Dim.Render("j/k ↑/↓ · space/pgdn pgup · ctrl+d/u · home/end scroll")
	if d.picking() {
		// Space marks an entry here; the page keys still scroll.
		scrollHelp = s.Dim.Render("j/k ↑/↓ · pgdn pgup · ctrl+d/u · home/end scroll")
	}
	parts := []string{title, fit(s.Dim.Render(pos), inner), d.vp.View(), fit(foot, inner)}
	if d.vp.TotalLineCount() > d.vp.Height() {
		parts = append(parts, fit(scrollHelp, inner))
	}
	content := lipgloss.JoinVertical(lipgloss.Left, parts...)
	return s.Dialog.Width(d.width).Render(content)
}

// hasDiff reports whether some entry has a line diff to show or hide.
func (d *dialog) hasDiff() bool {
	for _, e := range d.entries {
		if e.diff != nil {
			for _, f := range e.diff.Files {
				if f.Unified != "" {
					return true
				}
			}
		}
	}
	return false
}

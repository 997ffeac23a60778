package ui

import (
	"fmt"
	"strings"

	"vouch/trust"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialog is the confirmation of an approval or revocation. It lists exactly what the
// decision grants or withdraws, as trust explained it. Only y confirms: Enter, the most
// reflexive key, does nothing here.
type dialog struct {
	c         *common
	action    trust.Action
	pkg, comp int
	grant     trust.Grant
	vp        viewport.Model
	width     int // outer width, border included
	height    int // outer height limit
	title     string
	body      string
}

func newDialog(c *common, action trust.Action, pkg, comp int, g trust.Grant) *dialog {
	d := &dialog{c: c, action: action, pkg: pkg, comp: comp, grant: g, vp: viewport.New()}
	d.vp.SoftWrap = true
	d.build()
	return d
}

// build writes the dialog text; every value from the package is escaped.
func (d *dialog) build() {
	s := d.c.styles
	b := &textBuilder{s: s}
	g := d.grant
	verb := "Approve"
	if d.action == trust.ActionRevoke {
		verb = "Revoke"
	}
	d.title = s.DialogTitle.Render(verb + " " + b.esc(g.Ref) + "?")
	if g.Blocked != "" {
		b.line(s.Bad.Render("⊘ Cannot " + strings.ToLower(verb) + " yet:"))
		b.line(b.esc(g.Blocked))
		b.blank()
	}
	if d.action == trust.ActionApprove {
		b.line("This approval grants exactly the following, bound to digest")
	} else {
		b.line("This revocation withdraws the approval of the following, digest")
	}
	b.line("  " + s.Bold.Render(b.esc(g.Digest)))
	if len(g.Summary) > 0 {
		b.blank()
		b.heading("What it does")
		for _, l := range g.Summary {
			b.line("  " + b.esc(l))
		}
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
			if f.IsLink() {
				b.line(fmt.Sprintf("• %s  symlink → %s", b.esc(f.Path), b.esc(f.Link)))
				continue
			}
			x := ""
			if f.Exec {
				x = "  ! executable"
			}
			b.line(fmt.Sprintf("• %s  %d bytes%s", b.esc(f.Path), f.Size, x))
			b.line("  sha256:" + b.esc(f.SHA256))
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
			b.line("  " + b.esc(r.Ref) + "  " + authAnswer(s, authOf(r)).render())
			if r.Reason != "" {
				b.line("    " + b.esc(r.Reason))
			}
		}
	}
	if len(g.Affected) > 0 {
		b.blank()
		b.heading("Also taken down (they need this approved)")
		for _, r := range g.Affected {
			b.line("  " + b.esc(r))
		}
	}
	b.blank()
	if g.Blocked != "" {
		b.line(s.Dim.Render("n or esc closes this dialog; nothing is recorded."))
	} else {
		b.line(s.Bold.Render("y "+strings.ToLower(verb)) + "   " + s.Dim.Render("n/esc cancel   (enter does nothing)"))
	}
	d.body = b.String()
	d.vp.SetContent(d.body)
}

// SetSize sets the outer size available to the dialog.
func (d *dialog) SetSize(w, h int) {
	d.width, d.height = w, h
	fw := d.c.styles.Dialog.GetHorizontalFrameSize()
	fh := d.c.styles.Dialog.GetVerticalFrameSize()
	d.vp.SetWidth(max(1, w-fw))
	d.vp.SetContent(ansi.Wrap(d.body, max(1, w-fw), ""))
	lines := d.vp.TotalLineCount()
	d.vp.SetHeight(max(1, min(lines, h-fh-2)))
}

func (d *dialog) scroll(b tea.MouseButton) {
	switch b {
	case tea.MouseWheelUp:
		d.vp.ScrollUp(3)
	case tea.MouseWheelDown:
		d.vp.ScrollDown(3)
	}
}

// View renders the framed dialog, at most width × height.
func (d *dialog) View() string {
	fw := d.c.styles.Dialog.GetHorizontalFrameSize()
	inner := max(1, d.width-fw)
	title := fit(d.title, inner)
	more := ""
	if !d.vp.AtBottom() {
		more = d.c.styles.Dim.Render(fmt.Sprintf("↓ more (%d%%) — j/pgdn scrolls", int(d.vp.ScrollPercent()*100)))
	}
	parts := []string{title, ""}
	parts = append(parts, d.vp.View())
	if more != "" {
		parts[1] = fit(more, inner)
	}
	content := lipgloss.JoinVertical(lipgloss.Left, parts...)
	return d.c.styles.Dialog.Width(d.width).Render(content)
}

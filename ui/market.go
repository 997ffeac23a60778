package ui

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"vouch/model"
	"vouch/ui/display"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The marketplace view is a table of a marketplace's entries: where each plugin comes
// from (the source kind), what it is pinned to, and what that means for a reviewer (the
// risk). Enter on an entry opens the plugin it offers, when that plugin is a folder of the
// marketplace loaded as its own package; otherwise it says why there is nothing to open.

// marketEntry is one row of the table.
type marketEntry struct {
	comp             *model.Component
	name, kind, pin  string
	risks            []string
	remote, invalid  bool
	local            string // the plugin's folder, relative to the marketplace root ("" when remote)
	where            string // for a remote entry, where the client fetches it from
	installByDefault bool
}

// marketView shows one marketplace package full-screen.
type marketView struct {
	c             *common
	pkg           *model.Package
	entries       []marketEntry
	cursor, top   int
	width, height int
	flash         string
}

func isMarketplace(p *model.Package) bool {
	return p != nil && (p.Format == model.FormatClaudeCodeMarketplace || p.Format == model.FormatCodexMarketplace)
}

// marketReason says why the marketplace view cannot open, "" when it can.
func (m *Model) marketReason() string {
	p, _, _, ok := m.selection()
	switch {
	case !ok:
		return "Nothing is selected."
	case !isMarketplace(p):
		return "the selection is not in a marketplace (a marketplace.json catalogue)."
	}
	return ""
}

// openMarket opens the table on the selection's marketplace, the cursor on the
// selected entry.
func (m *Model) openMarket(tea.KeyPressMsg) tea.Cmd {
	p, c, _, _ := m.selection()
	mv := &marketView{c: m.common, pkg: p, entries: marketEntries(p, m.common.data)}
	for i, e := range mv.entries {
		if e.comp == c {
			mv.cursor = i
		}
	}
	m.push(mv)
	return nil
}

// marketEntries reads the table's rows from the marketplace's plugin entries.
func marketEntries(p *model.Package, d *data) []marketEntry {
	var out []marketEntry
	for _, c := range p.Components {
		if c.Kind != model.KindPlugin {
			continue
		}
		e := marketEntry{comp: c, name: c.ID, invalid: c.Validity == model.Invalid}
		if n := detailText(c, "name"); n != "" {
			e.name = n
		}
		e.kind, e.pin, e.local = entrySource(c)
		for _, cp := range c.Capabilities {
			if cp.Kind == model.CapNetwork && len(cp.Scope) > 0 {
				e.where = cp.Scope[0]
			}
		}
		e.remote = e.local == "" && e.kind != ""
		e.installByDefault = strings.Contains(fmt.Sprint(detailValue(c, "policy")), "INSTALLED_BY_DEFAULT")
		e.risks = entryRisks(p, e, d)
		out = append(out, e)
	}
	return out
}

// entrySource is an entry's source kind, its pin in a few words, and for a local entry
// its folder. Claude Code entries say kind and pin in their fields; Codex entries keep
// the source object as written.
func entrySource(c *model.Component) (kind, pin, local string) {
	kind = detailText(c, "source kind")
	pin = detailText(c, "pin")
	if kind == "relative path" {
		local = strings.TrimPrefix(path.Clean(contractText(c, "source")), "./")
	}
	if src, ok := detailValue(c, "source").(model.Fields); ok {
		for _, f := range src {
			v := fmt.Sprint(f.Value)
			switch f.Key {
			case "source":
				kind = v
			case "sha", "ref", "version", "tag":
				if pin == "" {
					pin = f.Key + " " + v
				}
			}
		}
	}
	if p := detailText(c, "path"); p != "" {
		local = p
		if kind == "" {
			kind = "local"
		}
	}
	switch {
	case local != "" || kind == "local":
		pin = "marketplace revision"
	case pin == "" && kind != "":
		pin = "unpinned"
	}
	pin = strings.TrimSuffix(pin, " (a branch or tag can move)")
	return kind, pin, local
}

func detailValue(c *model.Component, key string) any {
	for _, f := range c.Details {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

func contractText(c *model.Component, key string) string {
	if c.Contract == nil {
		return ""
	}
	for _, f := range c.Contract.Fields {
		if f.Key == key {
			if s, ok := f.Value.(string); ok {
				return s
			}
		}
	}
	return ""
}

// entryRisks is what a reviewer must know about an entry, most serious first.
func entryRisks(p *model.Package, e marketEntry, d *data) []string {
	var r []string
	if e.invalid {
		r = append(r, "invalid entry")
	}
	switch e.kind {
	case "npm":
		r = append(r, "npm install scripts run")
	case "command":
		r = append(r, "runs a shell command")
	}
	switch {
	case e.pin == "unpinned":
		r = append(r, "unpinned")
	case strings.HasPrefix(e.pin, "ref "):
		r = append(r, "ref can move")
	}
	if e.remote {
		r = append(r, "fetched at install, not reviewed here")
	}
	if e.installByDefault {
		r = append(r, "installed by default")
	}
	if e.local != "" {
		if q := localPlugin(p, e, d); q != nil {
			n := 0
			for _, c := range q.Components {
				if needsReviewAuth(c, authOf(d.statusOf(q, c))) {
					n++
				}
			}
			if n > 0 {
				r = append(r, fmt.Sprintf("%d to review in its package", n))
			} else {
				r = append(r, "its package: nothing to review")
			}
		} else {
			r = append(r, "local, not loaded")
		}
	}
	return r
}

// localPlugin is the loaded package of a local entry's folder (nil when none is loaded).
func localPlugin(mp *model.Package, e marketEntry, d *data) *model.Package {
	if e.local == "" {
		return nil
	}
	dir := filepath.Join(mp.Root, filepath.FromSlash(e.local))
	var byName *model.Package
	for _, q := range d.pkgs {
		if q == mp || isMarketplace(q) {
			continue
		}
		if filepath.Clean(q.Root) == dir {
			return q
		}
		if byName == nil && q.Name == e.name && strings.HasPrefix(q.Root, mp.Root+string(filepath.Separator)) {
			byName = q
		}
	}
	return byName
}

func (mv *marketView) SetSize(w, h int) {
	mv.width, mv.height = w, h
	mv.clamp()
}

// bodyHeight is the rows of entries on screen: title, header and footer take four.
func (mv *marketView) bodyHeight() int { return max(1, mv.height-4) }

func (mv *marketView) clamp() {
	mv.cursor = max(0, min(mv.cursor, len(mv.entries)-1))
	if mv.cursor < mv.top {
		mv.top = mv.cursor
	}
	if mv.cursor >= mv.top+mv.bodyHeight() {
		mv.top = mv.cursor - mv.bodyHeight() + 1
	}
}

// marketKey handles a key in the marketplace view.
func (m *Model) marketKey(mv *marketView, msg tea.KeyPressMsg) tea.Cmd {
	mv.flash = ""
	switch msg.String() {
	case "q", "esc", "backspace":
		m.pop(mv)
		return m.detail.refresh()
	case "j", "down":
		mv.cursor++
	case "k", "up":
		mv.cursor--
	case "g", "home":
		mv.cursor = 0
	case "G", "end":
		mv.cursor = len(mv.entries) - 1
	case "enter":
		return m.openEntry(mv)
	}
	mv.clamp()
	return nil
}

// openEntry opens the plugin of the entry under the cursor, or says why it cannot.
func (m *Model) openEntry(mv *marketView) tea.Cmd {
	if len(mv.entries) == 0 {
		mv.flash = "This marketplace lists no plugins."
		return nil
	}
	e := mv.entries[mv.cursor]
	name := display.Line(e.name)
	q := localPlugin(mv.pkg, e, m.common.data)
	switch {
	case q != nil:
	case e.remote && e.where != "":
		mv.flash = fmt.Sprintf("%s is fetched from %s when installed; vouch never fetches, so there is no loaded plugin to open.", name, display.Line(e.where))
		return nil
	case e.remote:
		mv.flash = fmt.Sprintf("%s comes from a %s source when installed; vouch never fetches, so there is no loaded plugin to open.", name, display.Line(e.kind))
		return nil
	case e.local != "":
		mv.flash = fmt.Sprintf("%s's folder %s is not loaded as a package (it may be missing or not a plugin): no plugin to open.", name, display.Line(e.local))
		return nil
	default:
		mv.flash = fmt.Sprintf("%s names no source vouch can read: no plugin to open.", name)
		return nil
	}
	for i, p := range m.data.pkgs {
		if p != q {
			continue
		}
		m.pop(mv)
		if m.tree.filter.Value() != "" {
			m.tree.clearFilter()
		}
		m.tree.selectItem(item{pkg: i, comp: -1})
		m.layout()
		m.setFlash(fmt.Sprintf("The plugin %s, reviewed as its own package.", name), false)
		return m.selectionChanged()
	}
	return nil
}

// marketColumns are the table's column widths for a screen w wide: name, source, pin;
// the risk column takes the rest.
func marketColumns(w int) (name, src, pin int) {
	name, src, pin = 22, 14, 22
	if w < 100 {
		name, src, pin = 16, 14, 16
	}
	return name, src, pin
}

// View renders the table in exactly width × height.
func (mv *marketView) View() string {
	s := mv.c.styles
	w := mv.width
	var out []string
	title := fmt.Sprintf("Marketplace %s (%s) · %s", display.Line(mv.pkg.Name), mv.pkg.Format, plural(len(mv.entries), "plugin"))
	out = append(out, fit(s.DialogTitle.Render(title), w))
	nw, sw, pw := marketColumns(w)
	cell := func(t string, n int) string { return fit(ansi.Truncate(t, n-1, "…"), n) }
	out = append(out, fit(s.Bold.Render("  "+cell("PLUGIN", nw)+cell("SOURCE", sw)+cell("PIN", pw)+"RISK"), w))
	if len(mv.entries) == 0 {
		out = append(out, fit(s.Dim.Render("  This marketplace lists no plugins."), w))
	}
	for i := mv.top; i < len(mv.entries) && i < mv.top+mv.bodyHeight(); i++ {
		e := mv.entries[i]
		glyph := "  "
		risk := strings.Join(e.risks, ", ")
		rs := s.Good
		if e.remote || e.invalid || e.pin == "unpinned" || strings.HasPrefix(e.pin, "ref ") || e.installByDefault {
			glyph, rs = "! ", s.Warn
		}
		kind := e.kind
		if kind == "" {
			kind = "(none)"
		}
		row := cell(display.Line(e.name), nw) + cell(display.Line(kind), sw) + cell(display.Line(e.pin), pw)
		if i == mv.cursor {
			out = append(out, fit(s.Cursor.Render("▸ "+row)+rs.Render(glyph+display.Line(risk)), w))
			continue
		}
		out = append(out, fit("  "+row+rs.Render(glyph+display.Line(risk)), w))
	}
	for len(out) < mv.height-1 {
		out = append(out, strings.Repeat(" ", w))
	}
	out = out[:max(0, mv.height-1)]
	foot := s.Dim.Render("enter open plugin · j/k move · g/G first/last · q back")
	if mv.flash != "" {
		foot = s.Flash.Render(mv.flash)
	}
	out = append(out, fit(foot, w))
	return strings.Join(out, "\n")
}

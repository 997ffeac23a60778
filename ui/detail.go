package ui

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vouch/model"
	"vouch/review/skills"
	"vouch/trust"
	"vouch/trust/instructions"
	"vouch/ui/display"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

type tab int

const (
	tabOverview tab = iota
	tabCapabilities
	tabContent
	tabChanges
	tabDiagnostics
	numTabs
)

var tabNames = [numTabs]string{"Overview", "Capabilities", "Content", "Changes", "Diagnostics"}

// Messages of the detail pane's commands.
type (
	renderedMsg struct {
		key string
		out string
		err error
	}
	diffMsg struct {
		ref  string
		diff *trust.Diff
		err  error
	}
)

type diffResult struct {
	diff *trust.Diff
	err  error
}

// detailPane is the right pane: the selection in five tabs, in a scrollable viewport.
type detailPane struct {
	c      *common
	tab    tab
	pkg    *model.Package
	comp   *model.Component
	vp     viewport.Model
	width  int
	height int
	raw    bool

	md    *markdownRenderer
	trust *trustBox

	rendered    map[string]renderedMsg
	renderWait  map[string]bool
	diffs       map[string]diffResult
	diffWait    map[string]bool
	contentKey  string // what the viewport shows, to keep the scroll position
	hiddenCount int
	// bodies keeps the last text bodies read back from their files (bodies.go), and
	// bodyWait the ones being read.
	bodies   bodyCache
	bodyWait map[*model.Component]bool
}

func newDetailPane(c *common) *detailPane {
	vp := viewport.New()
	vp.SoftWrap = true
	vp.MouseWheelEnabled = false // the root routes the wheel to the pane under the pointer
	return &detailPane{
		c: c, vp: vp,
		rendered: map[string]renderedMsg{}, renderWait: map[string]bool{},
		diffs: map[string]diffResult{}, diffWait: map[string]bool{},
		bodyWait: map[*model.Component]bool{},
	}
}

// SetSize sets the inner size; one line goes to the tab bar.
func (d *detailPane) SetSize(w, h int) {
	d.width, d.height = w, h
	d.vp.SetWidth(max(1, w))
	d.vp.SetHeight(max(1, h-2))
}

func (d *detailPane) setSelection(p *model.Package, c *model.Component) {
	d.pkg, d.comp = p, c
}

func (d *detailPane) setTab(t tab) {
	if t >= 0 && t < numTabs {
		d.tab = t
	}
}

func (d *detailPane) invalidateRendering() {
	d.rendered = map[string]renderedMsg{}
}

// forgetDiffs drops every computed diff: a decision changes what they compare against.
func (d *detailPane) forgetDiffs() {
	d.diffs = map[string]diffResult{}
}

// Update takes the results of the pane's commands.
func (d *detailPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case renderedMsg:
		delete(d.renderWait, msg.key)
		d.rendered[msg.key] = msg
	case diffMsg:
		delete(d.diffWait, msg.ref)
		d.diffs[msg.ref] = diffResult{msg.diff, msg.err}
	case bodyReadMsg:
		delete(d.bodyWait, msg.comp)
		d.bodies.put(msg)
	}
	return d.refresh()
}

func (d *detailPane) ref() string {
	if d.pkg == nil || d.comp == nil {
		return ""
	}
	return d.pkg.Ref(d.comp)
}

// refresh rebuilds the viewport content for the selection and tab, and returns a command
// when something must be computed first (markdown rendering, a diff).
func (d *detailPane) refresh() tea.Cmd {
	if d.width <= 0 {
		return nil
	}
	var text string
	var cmd tea.Cmd
	b := &textBuilder{s: d.c.styles}
	switch {
	case d.pkg == nil:
		b.dim("Nothing selected.")
	case d.tab == tabOverview:
		d.overview(b)
	case d.tab == tabCapabilities:
		d.capabilities(b)
	case d.tab == tabContent:
		cmd = d.content(b)
	case d.tab == tabChanges:
		cmd = d.changes(b)
	case d.tab == tabDiagnostics:
		d.diagnostics(b)
	}
	text = b.String()
	d.hiddenCount = b.hidden
	if b.hidden > 0 {
		notice := d.c.styles.Token.Render(fmt.Sprintf("⚠ %s shown as ⟨…⟩/␛ tokens.", plural(b.hidden, "hidden character")))
		text = notice + "\n\n" + text
	}
	key := fmt.Sprintf("%p|%s|%d|%v", d.pkg, d.ref(), d.tab, d.raw)
	y := d.vp.YOffset()
	// Word-wrap here; the viewport's soft wrap only cuts what has no space to break at.
	d.vp.SetContent(ansi.Wrap(text, d.width, ""))
	if key == d.contentKey {
		d.vp.SetYOffset(y)
	} else {
		d.vp.GotoTop()
	}
	d.contentKey = key
	return cmd
}

// View is the tab bar and the viewport, exactly width × height.
func (d *detailPane) View() string {
	lines := []string{d.tabBar(), fit(d.c.styles.Dim.Render(strings.Repeat("─", d.width)), d.width)}
	body := strings.Split(d.vp.View(), "\n")
	if !d.vp.AtBottom() && len(body) > 1 {
		// The last line says there is more: a pane that ends at its border looks complete.
		body[len(body)-1] = d.c.styles.Dim.Render(fmt.Sprintf("↓ more below (%d%%) — pgdn/space scrolls", int(d.vp.ScrollPercent()*100)))
	}
	for _, l := range body {
		lines = append(lines, fit(l, d.width))
	}
	for len(lines) < d.height {
		lines = append(lines, strings.Repeat(" ", d.width))
	}
	return strings.Join(lines[:d.height], "\n")
}

// tabBar marks the active tab with brackets as well as style.
func (d *detailPane) tabBar() string { return fit(strings.Join(d.tabParts(), ""), d.width) }

// tabParts are the tab labels as drawn: full names, then short ones (kept at 80
// columns), then numbers for the inactive tabs.
func (d *detailPane) tabParts() []string {
	s := d.c.styles
	shortNames := [numTabs]string{"Over", "Caps", "Text", "Chg", "Diag"}
	render := func(level int) []string {
		var parts []string
		for i, name := range tabNames {
			if tab(i) == d.tab {
				parts = append(parts, s.TabActive.Render(fmt.Sprintf("[%d %s]", i+1, name)))
				continue
			}
			label := fmt.Sprintf("%d %s", i+1, name)
			switch level {
			case 1:
				label = fmt.Sprintf("%d %s", i+1, shortNames[i])
			case 2:
				label = strconv.Itoa(i + 1)
			}
			parts = append(parts, s.TabInactive.Render(" "+label+" "))
		}
		return parts
	}
	var parts []string
	for level := 0; level <= 2; level++ {
		parts = render(level)
		if ansi.StringWidth(strings.Join(parts, "")) <= d.width {
			break
		}
	}
	return parts
}

// tabAt is the tab drawn at column x of the pane (-1 for none).
func (d *detailPane) tabAt(x int) tab {
	at := 0
	for i, p := range d.tabParts() {
		w := ansi.StringWidth(p)
		if x >= at && x < at+w {
			return tab(i)
		}
		at += w
	}
	return -1
}

// textBuilder assembles a tab's text; every package string goes through esc/escText,
// which also counts what they replaced.
type textBuilder struct {
	s      *Styles
	b      strings.Builder
	hidden int
}

func (t *textBuilder) esc(s string) string {
	out, n := display.EscapeLineStyled(s, t.s.token)
	t.hidden += n
	return out
}

func (t *textBuilder) line(s string)    { t.b.WriteString(s + "\n") }
func (t *textBuilder) blank()           { t.b.WriteString("\n") }
func (t *textBuilder) dim(s string)     { t.line(t.s.Dim.Render(s)) }
func (t *textBuilder) heading(s string) { t.line(t.s.Title.Render(s)) }
func (t *textBuilder) String() string   { return strings.TrimRight(t.b.String(), "\n") }

// fileLine writes a closure file's line after mark: where a link points, or the file's
// size and whether it is executable. It reports whether the file has bytes of its own,
// whose digest the caller shows beneath.
func (t *textBuilder) fileLine(mark string, f model.File) bool {
	if f.IsLink() {
		t.line(fmt.Sprintf("%s%s  symlink → %s", mark, t.esc(f.Path), t.esc(f.Link)))
		return false
	}
	x := ""
	if f.Exec {
		x = "  ! executable"
	}
	t.line(fmt.Sprintf("%s%s  %d bytes%s", mark, t.esc(f.Path), f.Size, x))
	return true
}

// field writes "label: value" with the value escaped.
func (t *textBuilder) field(label, value string) {
	if value == "" {
		return
	}
	t.line(t.s.Label.Render(label+":") + " " + t.esc(value))
}

// value formats a JSON-like value for display (not yet escaped).
func value(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if fs, ok := v.(model.Fields); ok {
		v = []model.Field(fs)
	}
	b, err := model.CanonicalJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// activeIn lists every file instruction ref is in force in and whether the block there is
// still what vouch wrote, as `vouch instructions list` says it (read with the ledger at
// load and after each decision; R reads the files again).
func (d *detailPane) activeIn(b *textBuilder, ref string) {
	s := d.c.styles
	files, known := d.c.data.files[ref], d.c.data.files != nil
	switch {
	case !known:
		b.line(s.Label.Render("Active in:") + " " + s.Dim.Render("unknown (the ledger could not be read)"))
		return
	case len(files) == 0:
		b.line(s.Label.Render("Active in:") + " no file")
		return
	}
	b.line(s.Label.Render("Active in:") + " " + plural(len(files), "file"))
	for _, f := range files {
		b.line("  " + b.esc(f.Target))
		b.line("    " + blockState(s, f.State).render() + s.Dim.Render(" — "+b.esc(f.Detail)))
	}
}

// blockState is the state of an instruction's block in a file, as glyph and word.
func blockState(s *Styles, state string) answer {
	switch state {
	case instructions.StatePresent:
		return answer{"✓", "as vouch wrote it", s.Good}
	case instructions.StateEdited:
		return answer{"!", "edited by hand", s.Warn}
	case instructions.StateMissing:
		return answer{"–", "block removed from the file", s.Warn}
	case instructions.StateFileMissing:
		return answer{"–", "file gone", s.Warn}
	case instructions.StateDamaged:
		return answer{"✗", "markers damaged", s.Bad}
	case instructions.StateUnrecorded:
		return answer{"!", "written, not recorded", s.Warn}
	}
	return answer{"✗", "unreadable", s.Bad}
}

func (d *detailPane) overview(b *textBuilder) {
	p, c := d.pkg, d.comp
	s := d.c.styles
	if c == nil {
		b.heading(b.esc(p.Name))
		b.field("Format", string(p.Format))
		b.field("ID", p.ID)
		b.field("Version", p.Version)
		b.field("Description", p.Description)
		b.field("Location", p.Root)
		b.field("Source ID", p.SourceID)
		b.field("Integrity", p.Integrity)
		b.field("Files digest", p.FilesDigest)
		b.line(s.Label.Render("Valid:") + " " + packageValidityAnswer(s, p).render())
		if e := d.c.data.enforcedBy(p); e != "" {
			b.line(s.Label.Render("Enforcement:") + " " + s.Good.Render(e))
		}
		if p.Rejected && len(p.Components) == 0 {
			b.line(s.Bad.Render("The package is rejected: nothing in it is usable. See Diagnostics."))
		} else if p.Rejected {
			b.line(s.Bad.Render("The package is rejected: nothing in it can be approved; the components listed are what another client loads from it. See Diagnostics."))
		}
		b.field("Components", strconv.Itoa(len(p.Components)))
		if len(p.Manifest) > 0 {
			b.blank()
			b.heading("Manifest")
			for _, f := range p.Manifest {
				b.field("  "+b.esc(f.Key), value(f.Value))
			}
		}
		refs := func(title string, rs []model.Reference) {
			if len(rs) == 0 {
				return
			}
			b.blank()
			b.heading(title)
			for _, r := range rs {
				line := "  " + b.esc(r.Ref) + "  " + b.esc(r.Requirement) + "  " + b.esc(r.Status)
				b.line(line)
				if r.Detail != "" {
					b.line("    " + b.esc(r.Detail))
				}
			}
		}
		refs("Members", p.Members)
		refs("Dependencies", p.Dependencies)
		if len(p.Providers) > 0 {
			b.blank()
			b.heading("Providers")
			for _, pr := range p.Providers {
				b.line("  " + b.esc(pr.Provider) + " " + b.esc(pr.Baseline) + ": " + string(pr.Status))
				if len(pr.UnsupportedHooks) > 0 {
					b.line("    unsupported hooks: " + b.esc(strings.Join(pr.UnsupportedHooks, ", ")))
				}
			}
		}
		return
	}
	st := d.c.data.statusOf(p, c)
	b.heading(b.esc(d.c.data.refOf(p, c)))
	b.field("Kind", string(c.Kind))
	for _, id := range shownBy(c) {
		b.field("Shown as", c.DisplayNames[id]+" (in "+model.ClientName(id)+")")
	}
	b.field("Package", p.Name+" "+p.Version+" ("+string(p.Format)+")")
	b.field("Location", p.Root)
	b.line(s.Label.Render("Valid:") + "      " + validityAnswer(s, c).render())
	b.line(s.Label.Render("Supported:") + "  " + supportAnswer(s, c).render())
	for _, sp := range c.Support {
		// The client's display name; reports key the same answer by its registry id.
		line := "  " + b.esc(model.ClientName(sp.Provider))
		if sp.Version != "" {
			line += " " + b.esc(sp.Version)
		}
		line += ": " + string(sp.Status)
		if sp.Detail != "" {
			line += " — " + b.esc(sp.Detail)
		}
		b.line(line)
	}
	b.line(s.Label.Render("Authorized:") + " " + authAnswer(s, authOf(st)).render())
	if st.Reason != "" {
		b.line("  " + b.esc(st.Reason))
	}
	for _, n := range st.Needs {
		b.line("  needs approved first: " + b.esc(n))
	}
	for _, ch := range st.Changes {
		b.line("  • " + b.esc(ch))
	}
	if st.Decision != nil {
		dd := st.Decision
		b.line(fmt.Sprintf("  last decision: %s by %s (%s) at %s", dd.Action, b.esc(dd.Reviewer), b.esc(dd.ReviewerKind), dd.At.UTC().Format("2006-01-02 15:04 UTC")))
	}
	if c.Contract != nil {
		// On its own line, shortened in the middle when the pane is narrower: a digest
		// that wraps mid-hash reads as two values (Y copies it whole).
		b.line(s.Label.Render("Digest:"))
		b.line("  " + fitDigest(c.Contract.MustDigest(), d.width-2))
	} else {
		b.dim("No contract: this component cannot be approved.")
	}
	b.field("Requirement", c.Requirement)
	if c.Inactive {
		b.line(s.Warn.Render("Inactive until explicitly enabled."))
	}
	if c.Kind == model.KindInstruction {
		d.activeIn(b, p.Ref(c))
	}
	if len(c.DependsOn) > 0 {
		b.field("Needs approved first", strings.Join(c.DependsOn, ", "))
	}
	if len(c.Summary) > 0 {
		b.blank()
		for _, sum := range c.Summary {
			b.line(b.esc(sum))
		}
	}
	if len(c.Details) > 0 {
		b.blank()
		b.heading("Details")
		for _, f := range c.Details {
			b.field("  "+b.esc(f.Key), value(f.Value))
		}
	}
	if len(c.Files) > 0 {
		b.blank()
		b.heading("Files")
		for _, f := range c.Files {
			if b.fileLine("  ", f) {
				b.line(s.Dim.Render("    " + fitDigest("sha256:"+b.esc(f.SHA256), d.width-4)))
			}
		}
	}
	if len(c.NotCovered) > 0 {
		b.blank()
		b.heading(fmt.Sprintf("Not covered by an approval (%d)", len(c.NotCovered)))
		for _, n := range c.NotCovered {
			b.line("  " + s.Warn.Render("! "+b.esc(n.Kind)) + "  " + b.esc(n.Subject))
			b.line("    " + b.esc(n.Detail))
		}
	}
}

// linkText describes one side of a file change that involves a symlink.
func linkText(b *textBuilder, link, sum string) string {
	switch {
	case link != "":
		return "symlink to " + b.esc(link)
	case sum != "":
		return "file sha256 " + short(b.esc(sum))
	}
	return "(absent)"
}

// capOrder puts what reaches the network first (code fetched and run, then hosts
// reached), then hooks, which run without being asked, then the rest as declared.
func capOrder(caps []model.Capability) []model.Capability {
	out := append([]model.Capability(nil), caps...)
	sort.SliceStable(out, func(i, j int) bool { return capRank(out[i].Kind) < capRank(out[j].Kind) })
	return out
}

func capRank(k model.CapabilityKind) int {
	switch k {
	case model.CapRemoteCode:
		return 0
	case model.CapNetwork:
		return 1
	case model.CapHook:
		return 2
	}
	return 3
}

var capLabels = map[model.CapabilityKind]string{
	model.CapHook:             "[HOOK]",
	model.CapSubprocess:       "[! EXEC]",
	model.CapCodeExecution:    "[! EXEC]",
	model.CapNetwork:          "[! NET]",
	model.CapRemoteCode:       "[! REMOTE CODE]",
	model.CapFilesystemRead:   "[FS READ]",
	model.CapFilesystemWrite:  "[! FS WRITE]",
	model.CapEnv:              "[ENV]",
	model.CapModelContext:     "[CONTEXT]",
	model.CapInstructionWrite: "[! INSTRUCTIONS]",
	model.CapServerLaunch:     "[! LAUNCH]",
	model.CapRemoteConnect:    "[REMOTE]",
}

func (d *detailPane) writeCaps(b *textBuilder, c *model.Component) {
	s := d.c.styles
	if len(c.Capabilities) == 0 {
		b.dim("  No capabilities declared.")
		return
	}
	for _, cp := range capOrder(c.Capabilities) {
		label := capLabels[cp.Kind]
		if label == "" {
			label = "[" + strings.ToUpper(b.esc(string(cp.Kind))) + "]"
		}
		st := s.Warn
		if cp.Kind == model.CapHook || strings.HasPrefix(label, "[!") {
			st = s.Bad
		}
		b.line(st.Render(label) + " " + b.esc(cp.Detail))
		for _, sc := range cp.Scope {
			b.line("    " + s.Dim.Render("·") + " " + b.esc(sc))
		}
	}
}

func (d *detailPane) capabilities(b *textBuilder) {
	p, c := d.pkg, d.comp
	if c != nil {
		if len(c.Summary) > 0 {
			b.heading("In plain words")
			for _, sum := range c.Summary {
				b.line(b.esc(sum))
			}
			b.blank()
		}
		b.heading("Capabilities")
		d.writeCaps(b, c)
		return
	}
	comps := append([]*model.Component(nil), p.Components...)
	sort.SliceStable(comps, func(i, j int) bool {
		return comps[i].Kind == model.KindHook && comps[j].Kind != model.KindHook
	})
	if len(comps) == 0 {
		b.dim("This package has no components.")
	}
	for _, comp := range comps {
		b.heading(string(comp.Kind) + ":" + b.esc(comp.ID))
		for _, sum := range comp.Summary {
			b.line("  " + b.esc(sum))
		}
		d.writeCaps(b, comp)
		b.blank()
	}
}

func (d *detailPane) mdKey() string {
	return fmt.Sprintf("%p|%s|%d|%v", d.pkg, d.ref(), d.width, d.c.styles.IsDark)
}

func (d *detailPane) content(b *textBuilder) tea.Cmd {
	c := d.comp
	s := d.c.styles
	if c == nil {
		b.dim("Select a skill or instruction to read its text.")
		return nil
	}
	if !hasText(c) {
		b.dim("This " + string(c.Kind) + " has no text body. Its Overview and Capabilities tabs show what it does.")
		return nil
	}
	if c.BodyFile != "" {
		b.heading(b.esc(c.BodyFile))
	}
	if len(c.Hidden) > 0 {
		b.line(s.Warn.Render(fmt.Sprintf("%s that a markdown view hides (an agent still reads them):", plural(len(c.Hidden), "item"))))
		for _, h := range c.Hidden {
			b.line(fmt.Sprintf("  line %d  %s  %s", h.Line, b.esc(h.Kind), b.esc(h.Text)))
		}
		b.blank()
	}
	text := c.Body
	if bodyDropped(c) {
		// The text was let go after loading (bodies.go): read it back, checked against
		// the digest of the bytes loaded.
		r, ok := d.bodies.get(c)
		switch {
		case !ok:
			b.dim("Reading…")
			if d.bodyWait[c] {
				return nil
			}
			d.bodyWait[c] = true
			return readBodyCmd(d.pkg, c)
		case errors.Is(r.err, errBodyChanged):
			b.line(s.Warn.Render("⚠ " + b.esc(c.BodyFile) + " changed on disk since vouch loaded it."))
			b.line(s.Warn.Render("What an approval binds is the text vouch loaded, not the file as it is now, so the new text is not shown here as the text under review. Press R to reload and review the new text."))
			return nil
		case r.err != nil:
			b.line(s.Error.Render("Could not read the text again: " + display.Line(r.err.Error())))
			return nil
		}
		text = r.text
	}
	escaped, n := display.Escape(text)
	b.hidden += n
	// References the renderer would decode to hidden characters count too (markdown.go
	// shows them as tokens); the loader's hidden list has them, no need to scan again.
	for _, h := range c.Hidden {
		if h.Kind == skills.HiddenCharacterReference {
			b.hidden++
		}
	}
	slow := d.c.data.slowToRender(c)
	if slow != "" {
		b.line(s.Warn.Render("Shown as raw text only: " + slow + ", a shape that makes markdown renderers take minutes."))
	}
	if d.raw || slow != "" {
		if slow == "" {
			b.dim("raw text (r: rendered)")
		}
		styled, _ := display.EscapeStyled(text, s.token)
		lines := strings.Split(strings.ReplaceAll(styled, "\t", "    "), "\n")
		wd := len(strconv.Itoa(len(lines)))
		for i, l := range lines {
			b.line(s.Gutter.Render(fmt.Sprintf("%*d │ ", wd, i+1)) + l)
		}
		return nil
	}
	b.dim("rendered (r: raw text)")
	k := d.mdKey()
	if r, ok := d.rendered[k]; ok {
		if r.err != nil {
			b.line(s.Error.Render("Could not render: " + display.Line(r.err.Error())))
			b.line(escaped)
		} else {
			b.line(r.out)
		}
		return nil
	}
	b.dim("Rendering…")
	if d.renderWait[k] {
		return nil
	}
	d.renderWait[k] = true
	md, width, dark := d.md, max(10, d.width-2), d.c.styles.IsDark
	return func() tea.Msg {
		out, err := md.render(escaped, width, dark)
		return renderedMsg{key: k, out: out, err: err}
	}
}

func (d *detailPane) changes(b *textBuilder) tea.Cmd {
	p, c := d.pkg, d.comp
	if c == nil {
		b.dim("Select a component to see what changed since its approval.")
		return nil
	}
	st := d.c.data.statusOf(p, c)
	if authOf(st) != model.Changed {
		switch authOf(st) {
		case model.Approved:
			b.line("Not changed since its approval: the contract digest matches.")
		case model.Unreviewed:
			b.line("Never approved, so there is no approved version to compare with. Read the Overview, Capabilities and Content tabs: everything there is new.")
		default:
			b.line("Nothing to compare: this component is " + string(authOf(st)) + ".")
		}
		return nil
	}
	// Keyed by package too: packages of one source may share a name, and so refs.
	ref := fmt.Sprintf("%p|%s", p, p.Ref(c))
	r, ok := d.diffs[ref]
	if !ok {
		b.dim("Computing the difference…")
		if d.diffWait[ref] {
			return nil
		}
		d.diffWait[ref] = true
		box := d.trust
		return func() tea.Msg {
			box.mu.Lock()
			defer box.mu.Unlock()
			if box.t == nil {
				return diffMsg{ref: ref, err: fmt.Errorf("the trust ledger is not open")}
			}
			df, err := box.t.Diff(p, c)
			return diffMsg{ref: ref, diff: df, err: err}
		}
	}
	if r.err != nil {
		b.line(d.c.styles.Error.Render("Could not compute the difference: " + display.Line(r.err.Error())))
		return nil
	}
	writeDiff(b, r.diff)
	return nil
}

// writeDiff shows a trust diff: contract fields, then each file with line numbers and
// +/- signs (colour only repeats the sign). Each line is escaped before it is styled.
func writeDiff(b *textBuilder, df *trust.Diff) {
	s := b.s
	if df == nil {
		b.line("No difference recorded.")
		return
	}
	b.field("Approved digest", df.ApprovedDigest)
	b.field("Current digest", df.CurrentDigest)
	if len(df.Fields) > 0 {
		b.blank()
		b.heading("Contract fields")
		for _, f := range df.Fields {
			if f.Old != "" {
				b.line(s.Removed.Render("- " + b.esc(f.Key) + ": " + b.esc(f.Old)))
			}
			if f.New != "" {
				b.line(s.Added.Render("+ " + b.esc(f.Key) + ": " + b.esc(f.New)))
			}
		}
	}
	for _, f := range df.Files {
		b.blank()
		b.heading(fmt.Sprintf("%s %s", f.Change, b.esc(f.Path)))
		if f.OldLink != "" || f.NewLink != "" {
			b.line(fmt.Sprintf("  %s → %s", linkText(b, f.OldLink, f.OldSHA256), linkText(b, f.NewLink, f.NewSHA256)))
			continue
		}
		if f.OldSHA256 != "" || f.NewSHA256 != "" {
			b.line(s.Dim.Render(fmt.Sprintf("  sha256 %s → %s", short(b.esc(f.OldSHA256)), short(b.esc(f.NewSHA256)))))
		}
		if f.Binary || f.Unified == "" {
			b.line(fmt.Sprintf("  %d → %d bytes", f.OldSize, f.NewSize))
			if f.Binary {
				b.line(fmt.Sprintf("  binary file; first difference at byte %d", f.FirstDifferentOffset))
			}
			continue
		}
		writeUnified(b, f.Unified)
	}
}

func short(h string) string {
	if h == "" {
		return "(none)"
	}
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// writeUnified numbers the lines of a unified diff from its hunk headers.
func writeUnified(b *textBuilder, u string) {
	s := b.s
	oldN, newN := 0, 0
	for _, l := range strings.Split(strings.TrimRight(u, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
			b.line(s.Dim.Render(b.esc(l)))
		case strings.HasPrefix(l, "@@"):
			var a, c int
			fmt.Sscanf(l, "@@ -%d", &a)
			if i := strings.Index(l, "+"); i >= 0 {
				fmt.Sscanf(l[i:], "+%d", &c)
			}
			oldN, newN = a, c
			b.line(s.Hunk.Render(b.esc(l)))
		case strings.HasPrefix(l, "+"):
			b.line(s.Gutter.Render(fmt.Sprintf("%5s %5d ", "", newN)) + s.Added.Render("+ "+b.esc(l[1:])))
			newN++
		case strings.HasPrefix(l, "-"):
			b.line(s.Gutter.Render(fmt.Sprintf("%5d %5s ", oldN, "")) + s.Removed.Render("- "+b.esc(l[1:])))
			oldN++
		default:
			text := strings.TrimPrefix(l, " ")
			b.line(s.Gutter.Render(fmt.Sprintf("%5d %5d ", oldN, newN)) + "  " + b.esc(text))
			oldN++
			newN++
		}
	}
}

func (d *detailPane) diagnostics(b *textBuilder) {
	p, c := d.pkg, d.comp
	var diags []model.Diagnostic
	if c != nil {
		diags = c.Diagnostics
	} else {
		diags = append(diags, d.c.data.sourceDiags...)
		diags = append(diags, p.Diagnostics...)
	}
	if len(diags) == 0 {
		b.line(d.c.styles.Good.Render("✓ No diagnostics."))
	}
	for _, dg := range diags {
		writeDiagnostic(b, dg)
	}
	if c == nil {
		for _, comp := range p.Components {
			if len(comp.Diagnostics) == 0 {
				continue
			}
			b.heading(string(comp.Kind) + ":" + b.esc(comp.ID))
			for _, dg := range comp.Diagnostics {
				writeDiagnostic(b, dg)
			}
		}
	}
}

func writeDiagnostic(b *textBuilder, dg model.Diagnostic) {
	s := b.s
	var head string
	switch dg.Severity {
	case model.SeverityError:
		head = s.Bad.Render("✗ error")
	case model.SeverityWarning:
		head = s.Warn.Render("! warning")
	default:
		head = s.Info.Render("i info")
	}
	head += "  " + s.Bold.Render(b.esc(dg.Code))
	if dg.Spec != "" {
		head += "  " + s.Dim.Render("("+b.esc(dg.Spec)+")")
	}
	b.line(head)
	where := dg.File
	if dg.Line > 0 {
		where += ":" + strconv.Itoa(dg.Line)
	}
	if dg.Pointer != "" {
		where += "  " + dg.Pointer
	}
	if where != "" {
		b.line("  " + s.Dim.Render(b.esc(where)))
	}
	if dg.Boundary != "" {
		b.line("  " + s.Dim.Render("invalidates: "+b.esc(string(dg.Boundary))))
	}
	b.line("  " + b.esc(dg.Message))
	b.blank()
}

// fitDigest shortens a digest in the middle to w cells, keeping its start and end.
func fitDigest(dg string, w int) string {
	if len(dg) <= w || w < 20 {
		return dg
	}
	keep := (w - 1) / 2
	return dg[:keep] + "…" + dg[len(dg)-(w-1-keep):]
}

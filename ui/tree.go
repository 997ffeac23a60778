package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"vouch/model"
	"vouch/ui/display"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// item is one row of the source tree: a package (comp < 0) or one of its components.
type item struct {
	pkg, comp int
}

func (it item) isPackage() bool { return it.comp < 0 }

// treePane is the left pane: packages and their components with the three answers.
type treePane struct {
	c       *common
	all     []item
	visible []int // indices into all that pass the filter
	cursor  int   // index into visible
	top     int   // first visible row on screen
	width   int
	height  int
	filter  textinput.Model
	editing bool // the filter input has focus
	rows    map[rowKey][]string
	hay     []string // per row of all: lowercased static filter text ("" not built)
	bodies  []string // per row of all: lowercased text body, for content search
	content bool     // tab in the filter: match text bodies too
	// flags caches, per row of all, what the row's status says (its authorization and
	// whether it needs review or can be approved now): a filter keystroke or an n press
	// reads it for every row, and computing a status builds the row's ref each time.
	flags []flagByte
	// authScan is whether some record gives an authorization outside rowAuths, found
	// for len(all) rows (otherAuths); dropped with the flags.
	authScan struct {
		known, other bool
		rows         int
	}
	// results keeps recent filter results by query, and last the one shown: a keystroke
	// that narrows the query searches only the rows the last one kept, and a backspace
	// finds its query here. Both are dropped when rows or statuses change.
	results map[string]*filterResult
	last    *filterResult
	used    int // counts filterRows calls: filterResult.used
	// hit marks, per entry of visible, a row that matched the filter by its own text (a
	// package row shown only as the context of its components does not): n/N move
	// between these while a filter is set.
	hit []bool
	// words is the filter query being highlighted in rows (nil without a filter), and
	// wordsKey the same joined, for the row cache.
	words    []string
	wordsKey string
	// rowOf maps global row numbers (the filter index's) to rows of all; cand is the
	// prefilter's reused mark per row (filterindex.go).
	rowOf    []int32
	cand     []bool
	candBody []bool // the same for the text bodies, merged into cand
	// measured and searched count calls of rowHeight and matches: tests assert that a
	// jump or a keystroke does work in proportion to the screen or to the last result.
	measured, searched int
	// appended counts the batches addPackages appended without rebuilding every row.
	appended int
	byRisk   bool    // S: components of each package ordered by risk
	pkgRow   []int32 // package index → its row in all
	// folded packages show their row only; their components are hidden until unfolded.
	folded map[int]bool
}

// rowKey identifies a rendered row; rendering rows is most of the cost of a frame.
type rowKey struct {
	it       item
	selected bool
	width    int
	auth     model.Authorization
	prog     [2]int // a package row: reviewed of approvable
	folded   bool
	query    string // the highlighted filter words
}

// rowFlags is what a row's status says, cached per row (treePane.flags).
type rowFlags struct {
	known  bool
	auth   model.Authorization
	review bool // needs review (needsReview)
	now    bool // can be approved now: needs review, valid, and depends on nothing unapproved
}

// filterResult is what one filter query kept: the component rows shown (in row order),
// whether each matched on its own text, the packages that matched on theirs, and the
// package rows without components that matched.
type filterResult struct {
	words   []string
	content bool
	rows    []int32
	own     []bool
	pkgHit  []bool // by package index
	empty   []int32
	used    int // treePane.used when last asked for: the cache drops the oldest
}

func newTreePane(c *common) *treePane {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "name, kind or status"
	ti.CharLimit = 200
	ti.SetStyles(inputStyles(c.styles.IsDark))
	return &treePane{c: c, filter: ti}
}

func (t *treePane) setItems(items []item) {
	var prev *item
	if sel, ok := t.selected(); ok {
		prev = &sel
	}
	// A streamed batch appends packages: the rows already there keep their filter text,
	// so a load of 10,000 packages does not rebuild it once per batch.
	grown := len(items) >= len(t.all) && len(t.all) > 0
	for i := 0; grown && i < len(t.all); i++ {
		grown = items[i] == t.all[i]
	}
	if grown {
		t.hay = extend(t.hay, len(items))
		t.bodies = extend(t.bodies, len(items))
	} else {
		t.hay, t.bodies = nil, nil
	}
	t.all = items
	t.rows = nil
	t.statusChanged()
	t.pkgRow = make([]int32, len(t.c.data.pkgs))
	for i, it := range items {
		if it.isPackage() && it.pkg < len(t.pkgRow) {
			t.pkgRow[it.pkg] = int32(i)
		}
	}
	t.buildRowOf()
	t.applyFilter()
	if prev != nil {
		t.selectItem(*prev)
	}
}

// addPackages appends the rows of the packages from index from on (a streamed batch)
// to the rows already there, which keep their order, flags, text and position: a load
// of 10,000 packages in a hundred batches then does work (and leaves garbage) in
// proportion to each batch, not to everything loaded so far. A filter that is set is
// applied again to every row, as a new row may match it.
func (t *treePane) addPackages(from int) {
	pkgs := t.c.data.pkgs
	start := len(t.all)
	if from == 0 || start == 0 || from > len(pkgs) || len(t.pkgRow) != from || int(t.all[start-1].pkg) != from-1 {
		t.setItems(t.order(itemsFor(pkgs)))
		return
	}
	if from == len(pkgs) {
		// A batch that brought no package (a stream's last one often does): the rows
		// are all there already.
		return
	}
	sel, hadSel := t.selected()
	t.appended++
	n := 0
	for _, p := range pkgs[from:] {
		n += 1 + len(p.Components)
	}
	added := make([]item, 0, n)
	for i, p := range pkgs[from:] {
		added = append(added, item{pkg: from + i, comp: -1})
		for j := range p.Components {
			added = append(added, item{pkg: from + i, comp: j})
		}
	}
	t.all = append(t.all, t.order(added)...)
	t.hay = extend(t.hay, len(t.all))
	t.bodies = extend(t.bodies, len(t.all))
	if len(t.flags) == start {
		t.flags = append(t.flags, make([]flagByte, len(t.all)-start)...)
	}
	t.results, t.last = nil, nil
	t.rows = nil // a package row shows where it lies once another of its name arrives
	for i := start; i < len(t.all); i++ {
		if it := t.all[i]; it.isPackage() {
			t.pkgRow = append(t.pkgRow, int32(i))
		}
	}
	d := t.c.data
	if len(t.rowOf) == start && len(d.pkgBase) == len(pkgs) && d.nrows == len(t.all) && from < len(d.pkgBase) && int(d.pkgBase[from]) == start {
		t.rowOf = append(t.rowOf, make([]int32, len(t.all)-start)...)
		for i := start; i < len(t.all); i++ {
			it := t.all[i]
			t.rowOf[int(d.pkgBase[it.pkg])+it.comp+1] = int32(i)
		}
	} else {
		t.buildRowOf()
	}
	if t.filter.Value() != "" || len(t.folded) > 0 {
		t.applyFilter()
		if hadSel {
			t.selectItem(sel)
		}
		return
	}
	for i := start; i < len(t.all); i++ {
		t.visible = append(t.visible, i)
	}
	t.scrollToCursor()
}

// extend returns s with n entries, the existing ones kept (nil stays nil: built lazily).
func extend(s []string, n int) []string {
	if s == nil {
		return nil
	}
	if cap(s) >= n {
		return s[:n]
	}
	out := make([]string, n, n+n/4)
	copy(out, s)
	return out
}

// statusChanged forgets what was computed from statuses: the cached row flags and filter
// results (a filter word can match an authorization).
func (t *treePane) statusChanged() {
	t.flags = nil
	t.authScan.known = false
	t.results = nil
	t.last = nil
}

// flagByte is a row's rowFlags in one byte (100,000 rows take 100 KB): bit 7 says it
// is known, bits 0-3 hold the authorization's index in rowAuths, bit 4 review, bit 5 now.
type flagByte uint8

// rowAuths are the authorizations a row can show (the index in flagByte).
var rowAuths = [...]model.Authorization{"", model.Unreviewed, model.Approved, model.Changed, model.Revoked, model.Blocked, authNothing}

// rowFlags is the status of row idx of all, computed once per status change.
func (t *treePane) rowFlags(idx int) rowFlags {
	if len(t.flags) != len(t.all) {
		t.flags = make([]flagByte, len(t.all))
	}
	b := t.flags[idx]
	if b&0x80 == 0 {
		var f rowFlags
		if it := t.all[idx]; !it.isPackage() {
			p := t.c.data.pkgs[it.pkg]
			c := p.Components[it.comp]
			f.auth = t.c.data.authAt(p, it.comp)
			f.review = needsReviewAuth(c, f.auth)
			f.now = f.review && t.c.data.needsAt(p, it.comp) == 0 && (c.Validity == model.Valid || c.Validity == "")
		}
		code := -1
		for i, a := range rowAuths {
			if a == f.auth {
				code = i
			}
		}
		if code < 0 {
			return f // an authorization no byte can hold: asked again each time
		}
		b = 0x80 | flagByte(code)
		if f.review {
			b |= 0x10
		}
		if f.now {
			b |= 0x20
		}
		t.flags[idx] = b
	}
	return rowFlags{known: true, auth: rowAuths[b&0x0f], review: b&0x10 != 0, now: b&0x20 != 0}
}

func (t *treePane) selectItem(it item) {
	for i, idx := range t.visible {
		if t.all[idx] == it {
			t.cursor = i
			t.scrollToCursor()
			return
		}
	}
}

// SetSize sets the pane's inner size (inside its border).
func (t *treePane) SetSize(w, h int) {
	t.width, t.height = w, h
	t.filter.SetWidth(max(1, w-2))
	t.scrollToCursor()
}

// wide reports whether the answers fit on the row's own line.
func (t *treePane) wide() bool { return t.width >= 60 }

func (t *treePane) rowHeight(it item) int {
	t.measured++
	if it.isPackage() {
		return 1
	}
	h := 1
	if !t.wide() {
		h = 2
	}
	if c := t.c.data.pkgs[it.pkg].Components[it.comp]; c.Kind == model.KindHook && hookTag(c) != "" {
		h++ // the hook's event, matcher and effect (buildRow)
	}
	return h
}

func (t *treePane) listHeight() int {
	if t.editing || t.filter.Value() != "" {
		return max(1, t.height-1)
	}
	return t.height
}

func (t *treePane) selected() (item, bool) {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return item{}, false
	}
	return t.all[t.visible[t.cursor]], true
}

func (t *treePane) move(d int) {
	if len(t.visible) == 0 {
		return
	}
	t.cursor = min(max(t.cursor+d, 0), len(t.visible)-1)
	t.scrollToCursor()
}

func (t *treePane) scrollToCursor() {
	if len(t.visible) == 0 {
		t.cursor, t.top = 0, 0
		return
	}
	t.cursor = min(max(t.cursor, 0), len(t.visible)-1)
	if t.cursor < t.top {
		t.top = t.cursor
	}
	h := t.listHeight()
	if t.cursor-t.top >= h {
		// Every row takes a line at least, so the old top cannot stay: lay the screen out
		// upwards from the cursor instead, touching only the rows that will be drawn (a
		// jump to the end of 90,000 rows costs one screen, not one pass over them).
		t.top = t.cursor
		used := t.rowHeight(t.all[t.visible[t.cursor]])
		for t.top > 0 {
			rh := t.rowHeight(t.all[t.visible[t.top-1]])
			if used+rh > h {
				break
			}
			used += rh
			t.top--
		}
		return
	}
	// Fewer rows than lines lie between: slide top down while they do not fit.
	used := 0
	for i := t.top; i <= t.cursor; i++ {
		used += t.rowHeight(t.all[t.visible[i]])
	}
	for t.top < t.cursor && used > h {
		used -= t.rowHeight(t.all[t.visible[t.top]])
		t.top++
	}
}

// scroll moves the view (not the selection) by n rows, for the mouse wheel.
func (t *treePane) scroll(n int) {
	t.move(n)
}

// jumpReview moves to the next (dir 1) or previous (dir -1) component needing review,
// wrapping around.
func (t *treePane) jumpReview(dir int) bool {
	return t.jumpRow(dir, func(idx int) bool { return t.rowFlags(idx).review })
}

// jumpNow moves to the next or previous component that can be approved now.
func (t *treePane) jumpNow(dir int) bool {
	return t.jumpRow(dir, func(idx int) bool { return t.rowFlags(idx).now })
}

// jump moves to the next (dir 1) or previous (dir -1) row for which ok holds, wrapping
// around; false when there is none.
func (t *treePane) jump(dir int, ok func(item) bool) bool {
	return t.jumpRow(dir, func(idx int) bool { return ok(t.all[idx]) })
}

// jumpMatch moves to the next or previous row that matched the filter by its own text.
func (t *treePane) jumpMatch(dir int) bool {
	if len(t.hit) != len(t.visible) {
		return false
	}
	n := len(t.visible)
	for step := 1; step <= n; step++ {
		i := ((t.cursor+dir*step)%n + n) % n
		if t.hit[i] {
			t.cursor = i
			t.scrollToCursor()
			return true
		}
	}
	return false
}

// jumpRow is the one search behind every jump: ok receives a row of all.
func (t *treePane) jumpRow(dir int, ok func(idx int) bool) bool {
	n := len(t.visible)
	for step := 1; step <= n; step++ {
		i := ((t.cursor+dir*step)%n + n) % n
		if ok(t.visible[i]) {
			t.cursor = i
			t.scrollToCursor()
			return true
		}
	}
	return false
}

// matches reports whether an item passes the filter: every word of the query must
// appear in what the row is about: the package name, format and location, the component
// kind and id, its answers, commands and other details (hosts, env names), file names
// and link targets, what is not covered, capability scopes and diagnostic codes. Each
// part is searched on its own: nothing is concatenated per keystroke.
func (t *treePane) matches(idx int, it item, words []string) bool {
	t.searched++
	for _, w := range words {
		if strings.HasPrefix(w, ":") && !t.view(w, it) {
			return false
		}
	}
	var hay, auth, body string
	built := false
	for _, w := range words {
		if strings.HasPrefix(w, ":") {
			continue
		}
		if !built {
			built = true
			hay = t.haystack(idx, it)
			if !it.isPackage() {
				auth = string(t.rowFlags(idx).auth)
				if t.content {
					body = t.body(idx, it)
				}
			}
		}
		if !strings.Contains(hay, w) && !strings.Contains(auth, w) && (body == "" || !strings.Contains(body, w)) &&
			!t.c.data.sharedHas(it.pkg, it.comp, w) {
			return false
		}
	}
	return true
}

// body is the lowercased text body of row idx, for content search: from the command
// that builds them all (lowBodiesCmd), else built here on first use, except while that
// command runs (the keystroke would pay for what it is building).
func (t *treePane) body(idx int, it item) string {
	if lb := t.c.data.lowBodies; it.pkg < len(lb) {
		return lb[it.pkg][it.comp]
	}
	c := t.c.data.pkgs[it.pkg].Components[it.comp]
	if c.Body == "" || t.c.data.indexing {
		return "" // no text, text let go (only the command reads it back), or being built
	}
	if len(t.bodies) != len(t.all) {
		t.bodies = make([]string, len(t.all))
	}
	if t.bodies[idx] == "" {
		t.bodies[idx] = strings.ToLower(c.Body)
	}
	return t.bodies[idx]
}

// views are the cross-package views of the command bar: a word starting with ':' in the
// filter keeps the components it names, across every package.
var views = map[string]string{
	":hooks":      "hooks",
	":changed":    "changed since their approval",
	":mcp":        "MCP servers",
	":exec":       "executable files or code they run",
	":unreviewed": "components that need review",
	":hidden":     "text with hidden content",
	":notcovered": "dependencies an approval cannot bind",
	":net":        "reach the network or fetch code to run",
}

// view reports whether it belongs to view w; an unknown view matches nothing.
func (t *treePane) view(w string, it item) bool {
	if it.isPackage() {
		return false
	}
	p := t.c.data.pkgs[it.pkg]
	c := p.Components[it.comp]
	switch w {
	case ":hooks":
		return c.Kind == model.KindHook
	case ":changed":
		return t.c.data.authAt(p, it.comp) == model.Changed
	case ":mcp":
		return c.Kind == model.KindMCPServer
	case ":exec":
		for _, f := range c.Files {
			if f.Exec {
				return true
			}
		}
		for _, cp := range c.Capabilities {
			if cp.Kind == model.CapSubprocess || cp.Kind == model.CapCodeExecution || cp.Kind == model.CapServerLaunch {
				return true
			}
		}
		return false
	case ":unreviewed":
		return needsReviewAuth(c, t.c.data.authAt(p, it.comp))
	case ":hidden":
		return len(c.Hidden) > 0
	case ":notcovered":
		return len(c.NotCovered) > 0
	case ":net":
		return netBadge(c) != ""
	}
	return false
}

// haystack is the lowercased static text of row idx. The load command builds it for
// every row off the update loop (data.chunks); rows handed in otherwise get it built
// here once. A filter keystroke then costs one substring search per row and word.
func (t *treePane) haystack(idx int, it item) string {
	if h, ok := t.c.data.rowText(it.pkg, it.comp); ok {
		return h
	}
	if len(t.hay) != len(t.all) {
		t.hay = make([]string, len(t.all))
	}
	if h := t.hay[idx]; h != "" {
		return h
	}
	p := t.c.data.pkgs[it.pkg]
	var c *model.Component
	if !it.isPackage() {
		c = p.Components[it.comp]
	}
	h := filterText(p, c)
	t.hay[idx] = h
	return h
}

// filterText is what the filter searches in a package row (c nil) or a component row.
// A word holds no space, so it can only match inside one part: a part that another
// holds whole (the kind and the id inside kind:id, a file path a capability names
// again) is written once, which keeps the index small at 10,000 packages and finds the same.
func filterText(p *model.Package, c *model.Component) string {
	return strings.ToLower(strings.Join(filterParts(p, c), " "))
}

// filterParts are the parts filterText joins, each once, not lowercased.
func filterParts(p *model.Package, c *model.Component) []string {
	hay := []string{p.Name, string(p.Format)}
	if c == nil {
		hay = append(hay, "package", p.Root)
	} else {
		var s Styles // the answers' words, not their colours
		hay = append(hay, string(c.Kind)+":"+c.ID, shownAs(c),
			validityAnswer(&s, c).Word, supportAnswer(&s, c).Word, string(c.Validity))
		for _, f := range c.Details {
			hay = append(hay, f.Key, value(f.Value))
		}
		for _, f := range c.Files {
			hay = append(hay, f.Path, f.Link)
		}
		for _, n := range c.NotCovered {
			hay = append(hay, n.Kind, n.Subject)
		}
		for _, cp := range c.Capabilities {
			hay = append(hay, string(cp.Kind))
			hay = append(hay, cp.Scope...)
		}
		for _, d := range c.Diagnostics {
			hay = append(hay, d.Code)
		}
	}
	kept := hay[:0]
	for i, h := range hay {
		if h != "" && !slices.Contains(hay[:i], h) {
			kept = append(kept, h)
		}
	}
	return kept
}

func (t *treePane) applyFilter() {
	q := strings.Fields(strings.ToLower(t.filter.Value()))
	t.visible = t.visible[:0]
	t.hit = t.hit[:0]
	if len(q) == 0 {
		t.words, t.wordsKey, t.last = nil, "", nil
		for i, it := range t.all {
			if !it.isPackage() && t.folded[it.pkg] {
				continue
			}
			t.visible = append(t.visible, i)
		}
		t.hit = nil
		t.scrollToCursor()
		return
	}
	t.words, t.wordsKey = q, strings.Join(q, " ")
	r := t.filterRows(q)
	t.last = r
	// A package row stays when any of its components is shown, so matches keep context.
	// Packages without components that matched go in their place in the tree, between
	// the others (both lists are in row order).
	pkgShown, e := -1, 0
	for k, idx := range r.rows {
		it := t.all[idx]
		if pkgShown != it.pkg {
			at := t.pkgRow[it.pkg]
			for ; e < len(r.empty) && r.empty[e] < at; e++ {
				t.visible = append(t.visible, int(r.empty[e]))
				t.hit = append(t.hit, true)
			}
			t.visible = append(t.visible, int(at))
			t.hit = append(t.hit, r.pkgHit[it.pkg])
			pkgShown = it.pkg
		}
		t.visible = append(t.visible, int(idx))
		t.hit = append(t.hit, r.own[k])
	}
	for _, idx := range r.empty[e:] {
		t.visible = append(t.visible, int(idx))
		t.hit = append(t.hit, true)
	}
	t.scrollToCursor()
}

// filterKey names a query in the results cache.
func filterKey(q []string, content bool) string {
	k := strings.Join(q, " ")
	if content {
		k = "\x00" + k
	}
	return k
}

// maxResults bounds the results cache: a result holds one int per shown row.
const maxResults = 16

// filterRows computes (or finds) what query q keeps. A query that narrows the last one
// (each of its plain words lies inside a word of q, its view words are all in q) can keep
// only rows the last one kept, so only those are searched: typing a word costs one full
// pass for its first letter and a shrinking one for each letter after.
func (t *treePane) filterRows(q []string) *filterResult {
	key := filterKey(q, t.content)
	t.used++
	if r, ok := t.results[key]; ok {
		r.used = t.used
		return r
	}
	r := &filterResult{words: q, content: t.content, pkgHit: make([]bool, len(t.c.data.pkgs))}
	// Sized for the most the pass can keep: no slice grows (and leaves garbage) row by row.
	most := len(t.all) - len(t.c.data.pkgs)
	if t.last != nil && narrows(t.last.words, q) && t.last.content == t.content {
		most = len(t.last.rows)
	}
	r.rows, r.own = make([]int32, 0, max(most, 0)), make([]bool, 0, max(most, 0))
	view := hasView(q)
	// A pass over every row is cut short by the index: only rows holding the longest
	// word are searched for the rest (cand nil: every row is searched).
	var cand []bool
	var w0 string
	narrowing := t.last != nil && t.last.content == t.content && narrows(t.last.words, q)
	if !narrowing || len(t.last.rows) > len(t.all)/8 {
		// Narrowing a result that kept most rows ("s" keeps nearly all): one scan of the
		// index still beats searching each kept row.
		cand, w0 = t.prefilter(q)
	}
	// A row the index marked holds w0 already: only the other words are searched.
	rest := q
	auth := false
	if cand != nil {
		auth = t.authHolds(w0)
		rest = make([]string, 0, len(q))
		dropped := false
		for _, w := range q {
			if w == w0 && !dropped {
				dropped = true
				continue
			}
			rest = append(rest, w)
		}
	}
	match := func(i int, it item) bool {
		if cand == nil {
			return t.matches(i, it, q)
		}
		// A row holds w0 in its filter text (marked) or, the one thing the index does
		// not hold, in its authorization: either way only the other words are left.
		if cand[i] || t.passes(cand, w0, auth, i, it) {
			return len(rest) == 0 || t.matches(i, it, rest)
		}
		return false
	}
	pkgMemo, pkgMatch := -1, false
	pkgMatches := func(pkg int) bool {
		if pkgMemo != pkg {
			pkgMemo = pkg
			pkgMatch = match(int(t.pkgRow[pkg]), item{pkg: pkg, comp: -1})
			if pkgMatch {
				r.pkgHit[pkg] = true
			}
		}
		return pkgMatch
	}
	consider := func(i int) {
		it := t.all[i]
		own := match(i, it)
		pm := pkgMatches(it.pkg) // also marks the package row as a match of its own
		if own || (!view && pm) {
			r.rows = append(r.rows, int32(i))
			r.own = append(r.own, own)
		}
	}
	considerEmpty := func(i int) {
		if match(i, t.all[i]) {
			r.empty = append(r.empty, int32(i))
		}
	}
	if prev := t.last; narrowing {
		for _, i := range prev.rows {
			consider(int(i))
		}
		for _, i := range prev.empty {
			considerEmpty(int(i))
		}
	} else {
		for i, it := range t.all {
			if it.isPackage() {
				if len(t.c.data.pkgs[it.pkg].Components) == 0 {
					considerEmpty(i)
				}
				continue
			}
			consider(i)
		}
	}
	// Packages without components are listed after the rest, as they always were.
	if cap(r.rows) > 2*len(r.rows)+256 {
		// Sized for the most the pass could keep, it kept far fewer: the cache keeps
		// what it found, not room for every row.
		r.rows, r.own = slices.Clone(r.rows), slices.Clone(r.own)
	}
	if t.results == nil {
		t.results = map[string]*filterResult{}
	}
	if len(t.results) >= maxResults {
		// The query used longest ago goes: a backspace finds every shorter query of the
		// word being typed (emptying the whole cache here once made one miss and pass
		// over every row again).
		oldest, used := "", 0
		for k, c := range t.results {
			if oldest == "" || c.used < used { // no key is "": a query has a word
				oldest, used = k, c.used
			}
		}
		delete(t.results, oldest)
	}
	r.used = t.used
	t.results[key] = r
	return r
}

// narrows reports whether every row query q keeps was kept by query prev: each plain
// word of prev lies inside a plain word of q, and each view word of prev is in q.
func narrows(prev, q []string) bool {
	for _, p := range prev {
		found := false
		for _, w := range q {
			if strings.HasPrefix(p, ":") {
				found = w == p
			} else {
				found = !strings.HasPrefix(w, ":") && strings.Contains(w, p)
			}
			if found {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// startFilter focuses the filter input.
func (t *treePane) startFilter() tea.Cmd {
	t.editing = true
	return t.filter.Focus()
}

// updateFilter handles a key while the filter input has focus.
func (t *treePane) updateFilter(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "tab":
		if w, ok := lastViewWord(t.filter.Value()); ok && views[w] == "" {
			// A view word being typed: tab completes it (as far as the views agree).
			if done := completeView(w); done != w {
				t.filter.SetValue(strings.TrimSuffix(t.filter.Value(), w) + done)
				t.filter.CursorEnd()
				t.cursor = 0
				t.applyFilter()
			}
			return nil
		}
		// The second key: search the text of skills and instructions too. Their
		// lowercased text is built by a command the first time (30,000 skill bodies take
		// a third of a second); until it arrives, text is searched only where built.
		t.content = !t.content
		t.cursor = 0
		cmd := t.indexBodies()
		t.applyFilter()
		t.setPrompt()
		return cmd
	case "enter":
		t.editing = false
		t.filter.Blur()
		t.scrollToCursor()
		return nil
	case "esc":
		t.clearFilter()
		return nil
	}
	var cmd tea.Cmd
	t.filter, cmd = t.filter.Update(msg)
	t.cursor = 0
	t.applyFilter()
	return cmd
}

// indexBodies starts lowBodiesCmd for the packages whose text is not built yet, when
// text search is on and no run is under way (nil otherwise).
func (t *treePane) indexBodies() tea.Cmd {
	d := t.c.data
	if !t.content || d.indexing || len(d.lowBodies) >= len(d.pkgs) {
		return nil
	}
	d.indexing = true
	return lowBodiesCmd(d.pkgs, len(d.lowBodies), d.gen)
}

func (t *treePane) clearFilter() {
	sel, ok := t.selected()
	t.editing = false
	t.filter.Blur()
	t.filter.SetValue("")
	t.content = false
	t.setPrompt()
	t.applyFilter()
	if ok {
		t.selectItem(sel)
	}
}

// View renders the visible rows, each exactly t.width cells wide.
func (t *treePane) View() string {
	s := t.c.styles
	var lines []string
	if t.editing || t.filter.Value() != "" {
		if t.editing {
			lines = append(lines, fit(t.filter.View(), t.width))
		} else {
			lines = append(lines, fit(s.Dim.Render(t.filter.Prompt+display.Line(t.filter.Value())+"  (n/N: matches · esc clears)"), t.width))
		}
	}
	if len(t.visible) == 0 {
		msg := "No packages."
		if t.filter.Value() != "" {
			msg = "Nothing matches the filter."
			if bad := unknownViews(strings.Fields(strings.ToLower(t.filter.Value()))); len(bad) > 0 {
				msg = viewHint(bad[0])
			}
		}
		for _, l := range strings.Split(ansi.Wrap(msg, max(1, t.width), ""), "\n") {
			lines = append(lines, fit(s.Dim.Render(l), t.width))
		}
	}
	h := t.listHeight()
	used := 0
	for i := t.top; i < len(t.visible) && used < h; i++ {
		it := t.all[t.visible[i]]
		row := t.renderRow(it, i == t.cursor)
		for _, l := range row {
			if used >= h {
				break
			}
			lines = append(lines, l)
			used++
		}
	}
	for len(lines) < t.height {
		lines = append(lines, strings.Repeat(" ", t.width))
	}
	return strings.Join(lines[:t.height], "\n")
}

func (t *treePane) renderRow(it item, selected bool) []string {
	k := rowKey{it: it, selected: selected, width: t.width, query: t.wordsKey}
	if !it.isPackage() {
		p := t.c.data.pkgs[it.pkg]
		k.auth = t.c.data.authAt(p, it.comp)
	} else {
		k.prog = t.c.data.progress[t.c.data.pkgs[it.pkg]]
		k.folded = t.folded[it.pkg]
	}
	if r, ok := t.rows[k]; ok {
		return r
	}
	r := t.buildRow(it, selected)
	if t.rows == nil || len(t.rows) > 4096 {
		t.rows = map[rowKey][]string{}
	}
	t.rows[k] = r
	return r
}

func (t *treePane) buildRow(it item, selected bool) []string {
	s := t.c.styles
	p := t.c.data.pkgs[it.pkg]
	mark := "  "
	if selected {
		mark = "▶ "
	}
	// Filter matches are marked in the escaped text and styled once the row is laid out
	// (highlight.go); a selected row is styled as a whole in pad.
	words := t.words
	styled := func(line string, base func(string) string) string {
		if selected {
			return line
		}
		return renderMarked(line, base, s.Match.Styled)
	}
	plain := func(x string) string { return x }
	if it.isPackage() {
		name := markMatches(p.Name, words)
		if name == "" {
			name = "(unnamed)"
		}
		label := name
		if p.Version != "" {
			label += " " + markMatches(p.Version, words)
		}
		label += " · " + string(p.Format)
		va := packageValidityAnswer(s, p)
		right := va.render()
		if pr := t.c.data.progress[p]; pr[1] > 0 {
			right = s.Dim.Render(fmt.Sprintf("%d/%d", pr[0], pr[1])) + " " + right
		}
		if e := t.c.data.enforcedBy(p); e != "" {
			right = s.Good.Render(e) + " " + right
		}
		if t.folded[it.pkg] {
			mark += "▸ "
			label += fmt.Sprintf(" (%d hidden)", len(p.Components))
		}
		if t.c.data.copies(p) > 1 {
			// Copies that share a name share refs: the location tells the rows apart, so
			// a long one keeps its end (the part that differs), not its start.
			where := t.c.data.location(p)
			if filepath.Base(where) == p.Name {
				where = filepath.Dir(where) + string(filepath.Separator) // the folder is named like the package: the parent differs
			}
			loc := []rune(display.Line(where))
			room := t.width - ansi.StringWidth(mark+label+" · ") - ansi.StringWidth(right) - 1
			if len(loc) > room && room > 1 {
				loc = append([]rune("…"), loc[len(loc)-room+1:]...)
			}
			label += " · " + string(loc)
		}
		left := mark + styled(label, with(s.Package))
		return []string{t.pad(left, right, selected)}
	}
	c := p.Components[it.comp]
	st := t.c.data.statusOf(p, c)
	label := mark + "  " + styled(markMatches(string(c.Kind)+":"+c.ID, words), plain)
	if shown := shownAs(c); shown != "" {
		// The name a client lists it under, beside the id refs use.
		label += styled(" · "+markMatches(shown, words), with(s.Dim))
	}
	// A hook's event, matcher and effect get a line of their own under the row, so they
	// are never the part a narrow pane cuts off.
	var tagLine []string
	if tag := hookTag(c); tag != "" {
		tagLine = []string{t.pad("        "+styled(markMatches(tag, words), with(s.Dim)), "", selected)}
	}
	// Padded to the widest word of each answer, so the three columns line up row to row.
	answers := padTo(validityAnswer(s, c).render(), 9) + " " + padTo(supportAnswer(s, c).render(), 13) + " " + padTo(authAnswer(s, authOf(st)).render(), 12)
	// The network badge sits on the right of the row's first line, which pad keeps
	// whole when the pane is narrow: the id is cut before the risk is.
	badge := ""
	if b := netBadge(c); b != "" {
		badge = s.Bad.Render(b)
	}
	if t.wide() {
		if badge != "" {
			answers = badge + " " + answers
		}
		return append([]string{t.pad(label, answers, selected)}, tagLine...)
	}
	return append([]string{t.pad(label, badge, selected), t.pad("   "+answers, "", selected)}, tagLine...)
}

// netBadge is what a row says when its component reaches the network: "! remote code"
// when it fetches code and runs it, "! net" when it reaches hosts; words, so the badge
// reads the same without colour.
func netBadge(c *model.Component) string {
	badge := ""
	for _, cp := range c.Capabilities {
		switch cp.Kind {
		case model.CapRemoteCode:
			return "! remote code"
		case model.CapNetwork, model.CapRemoteConnect:
			badge = "! net"
		}
	}
	return badge
}

// pad lays out left and right parts on one line of exactly t.width cells, cutting the
// left part first so the answers stay visible.
func (t *treePane) pad(left, right string, selected bool) string {
	w := t.width
	rw := ansi.StringWidth(right)
	if rw > 0 && rw+2 > w {
		right = ansi.Truncate(right, max(0, w-2), "…")
		rw = ansi.StringWidth(right)
	}
	room := w - rw
	if rw > 0 {
		room -= 1
	}
	left = ansi.Truncate(left, max(0, room), "…")
	gap := w - ansi.StringWidth(left) - rw
	line := left + strings.Repeat(" ", max(0, gap)) + right
	if selected {
		s := t.c.styles
		line = renderMarked(ansi.Strip(line), with(s.Cursor), s.CursorMatch.Styled)
	}
	return line
}

// fit cuts or pads a styled line to exactly w cells.
func fit(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// itemsFor lists every row of the tree for the given packages.
func itemsFor(pkgs []*model.Package) []item {
	var out []item
	for i, p := range pkgs {
		out = append(out, item{pkg: i, comp: -1})
		for j := range p.Components {
			out = append(out, item{pkg: i, comp: j})
		}
	}
	return out
}

// toggleFold folds or unfolds the package of the selection; the cursor stays on the
// package row.
func (t *treePane) toggleFold() {
	sel, ok := t.selected()
	if !ok {
		return
	}
	if t.folded == nil {
		t.folded = map[int]bool{}
	}
	t.folded[sel.pkg] = !t.folded[sel.pkg]
	t.rows = nil
	t.applyFilter()
	t.selectItem(item{pkg: sel.pkg, comp: -1})
}

// rowAt is the index into visible of the row drawn on line y of the pane (false for none).
func (t *treePane) rowAt(y int) (int, bool) {
	if t.editing || t.filter.Value() != "" {
		y--
	}
	if y < 0 {
		return 0, false
	}
	used := 0
	for i := t.top; i < len(t.visible); i++ {
		used += t.rowHeight(t.all[t.visible[i]])
		if y < used {
			return i, true
		}
		if used >= t.listHeight() {
			break
		}
	}
	return 0, false
}

func (t *treePane) setPrompt() {
	switch {
	case t.content && t.c.data.indexing:
		t.filter.Prompt = "/(+text, reading…) "
	case t.content:
		t.filter.Prompt = "/(+text) "
	default:
		t.filter.Prompt = "/"
	}
}

// viewNames are the views' words in order.
func viewNames() []string {
	names := make([]string, 0, len(views))
	for n := range views {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// unknownViews are the words of a query that start with ':' and name no view.
func unknownViews(words []string) []string {
	var bad []string
	for _, w := range words {
		if strings.HasPrefix(w, ":") && views[w] == "" {
			bad = append(bad, w)
		}
	}
	return bad
}

// lastViewWord is the word being typed at the end of a filter value, when it starts a
// view (':' and no space after it).
func lastViewWord(v string) (string, bool) {
	i := strings.LastIndexAny(v, " \t")
	w := strings.ToLower(v[i+1:])
	return w, strings.HasPrefix(w, ":")
}

// completeView is w completed as far as every view starting with w agrees (a single
// one: its whole word and a space); w itself when none starts with it.
func completeView(w string) string {
	var match []string
	for _, n := range viewNames() {
		if strings.HasPrefix(n, w) {
			match = append(match, n)
		}
	}
	if len(match) == 0 {
		return w
	}
	if len(match) == 1 {
		return match[0] + " "
	}
	common := match[0]
	for _, n := range match[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	return common
}

// viewHint is what the tree says when the filter names no view: the views that start
// with what was typed (tab completes them), or that there is no such view, and every
// view there is.
func viewHint(w string) string {
	var match []string
	for _, n := range viewNames() {
		if strings.HasPrefix(n, w) {
			match = append(match, n)
		}
	}
	if len(match) > 0 {
		return "Views starting " + display.Line(w) + " (tab completes): " + strings.Join(match, " ")
	}
	return "Unknown view " + display.Line(w) + ". The views are " + strings.Join(viewNames(), " ") + "."
}

func hasView(words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, ":") {
			return true
		}
	}
	return false
}

// padTo pads a styled string with spaces to w cells.
func padTo(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// risk ranks a component for the risk order: lower is reviewed first.
func risk(c *model.Component) int {
	r := 6
	for _, cp := range c.Capabilities {
		switch {
		case cp.Kind == model.CapHook:
			r = min(r, 1)
			for _, sc := range cp.Scope {
				if gatingScope(sc) {
					r = 0
				}
			}
		case cp.Kind == model.CapSubprocess || cp.Kind == model.CapCodeExecution || cp.Kind == model.CapServerLaunch || cp.Kind == model.CapRemoteCode:
			r = min(r, 2)
		case cp.Kind == model.CapNetwork || cp.Kind == model.CapRemoteConnect:
			r = min(r, 3)
		case cp.Kind == model.CapInstructionWrite || cp.Kind == model.CapModelContext:
			r = min(r, 4)
		}
	}
	if c.Kind == model.KindHook {
		r = min(r, 1)
	}
	if c.Kind == model.KindInstruction {
		r = min(r, 4)
	}
	return r
}

// order sorts each package's component rows by risk when S asked for it; packages keep
// their order, and a component keeps its index into the package.
func (t *treePane) order(items []item) []item {
	if !t.byRisk {
		return items
	}
	pkgs := t.c.data.pkgs
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && !items[j].isPackage() {
			j++
		}
		comps := items[i+1 : j]
		sort.SliceStable(comps, func(a, b int) bool {
			p := pkgs[comps[a].pkg]
			return risk(p.Components[comps[a].comp]) < risk(p.Components[comps[b].comp])
		})
		i = j
	}
	return items
}

// hookTag is what a hook row says at a glance: its event, its matcher and, where the
// loader names it in one word, its effect ("PreToolUse Bash can-block"), so a reviewer
// scanning the tree sees which hooks gate every tool call. Package text: escaped by the
// caller.
func hookTag(c *model.Component) string {
	if c.Kind != model.KindHook {
		return ""
	}
	var parts []string
	if ev, ok := c.Details.Get("event"); ok {
		if e, ok := ev.(string); ok && e != "" {
			parts = append(parts, strings.ReplaceAll(e, " ", ""))
		}
	}
	if m, ok := c.Details.Get("matcher"); ok {
		if ms, ok := m.(string); ok && ms != "" && !strings.HasPrefix(ms, "(") {
			parts = append(parts, ms)
		}
	}
	for _, cp := range c.Capabilities {
		if cp.Kind != model.CapHook || len(cp.Scope) == 0 {
			continue
		}
		if len(parts) == 0 {
			parts = append(parts, cp.Scope[0]) // no event field: the capability names it
		}
		if eff := cp.Scope[len(cp.Scope)-1]; len(cp.Scope) > 1 && eff != "" && !strings.ContainsAny(eff, " \t") {
			parts = append(parts, eff)
		}
		break
	}
	return strings.Join(parts, " ")
}

// shownOf is comps of p the filter shows (all of them without a filter): a package
// approval offers only what the person is looking at.
func (t *treePane) shownOf(p *model.Package, comps []*model.Component) []*model.Component {
	if t.filter.Value() == "" {
		return comps
	}
	shown := map[*model.Component]bool{}
	for _, idx := range t.visible {
		if it := t.all[idx]; !it.isPackage() && t.c.data.pkgs[it.pkg] == p {
			shown[p.Components[it.comp]] = true
		}
	}
	var out []*model.Component
	for _, c := range comps {
		if shown[c] {
			out = append(out, c)
		}
	}
	return out
}

// gatingScope reports whether a hook capability's scope word says the hook can block
// (gate) what the agent does: the Claude Code loader says "can-block", the Codex loader
// says it in words ("can deny the call", "can block it"), hand-built fixtures "block".
func gatingScope(sc string) bool {
	switch sc {
	case "can-block", "block":
		return true
	}
	return strings.Contains(sc, "can deny") || strings.Contains(sc, "can block") || strings.Contains(sc, "allow or deny")
}

// shownBy are the clients that list c under a name other than its id, in id order.
func shownBy(c *model.Component) []string {
	ids := make([]string, 0, len(c.DisplayNames))
	for id, n := range c.DisplayNames {
		if n != "" && n != c.ID {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// shownAs is the names clients list c under where that is not its id, distinct and
// joined ("" when every client uses the id).
func shownAs(c *model.Component) string {
	var names []string
	for _, id := range shownBy(c) {
		if n := c.DisplayNames[id]; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

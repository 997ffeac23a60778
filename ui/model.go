// Package ui is vouch's interactive review console, a Bubble Tea program. The left pane
// is the source tree with the three answers per component (valid, supported,
// authorized); the right pane shows the selection in tabs; approvals and revocations go
// through trust after a confirmation that lists exactly what is granted or withdrawn.
//
// Rules the code keeps: one root model returns tea.View; panes size themselves from one
// layout function; Update does no I/O (loading, evaluation, hashing, diffing, decisions,
// markdown rendering, file highlighting and reading back the text bodies the console
// let go of, checked against their digests, run in tea.Cmds and come back as messages);
// every string from a package goes through ui/display before it is styled. A dialog
// names what it decides by (root, ref, digest) and the objects it was explained from,
// never by a position in the tree: a reload marks it stale, and trust refuses a digest
// that is not the one shown. Below the size floor no key but q acts.
package ui

import (
	"crypto/x509"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vouch/model"
	"vouch/review"
	"vouch/review/skills"
	"vouch/trust"
	"vouch/trust/instructions"
	"vouch/ui/display"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Options configure the console.
type Options struct {
	// Sources are the paths to review (default ".").
	Sources []string
	// Home is the resolved vouch home (trust ledger and store).
	Home string
	// Packages, when set, are shown instead of loading Sources (tests, benchmarks).
	Packages []*model.Package
	// SourceDiagnostics accompany Packages.
	SourceDiagnostics []model.Diagnostic
	// Enforced names the clients that run p only from bytes vouch staged (their ids,
	// "claude-code", "codex"), none when no client does. The command layer reads the
	// enforcement record, so the console does not depend on how enforcement keeps it.
	Enforced func(p *model.Package) []string
	// SignatureRoots are the certificates MCP Bundle signatures must chain to (nil: none).
	SignatureRoots *x509.CertPool
	// Exclude is what the search below each source leaves out (review.Options.Exclude):
	// the command line's --exclude and the project's config file.
	Exclude func(rel string) bool
	// Width and Height, when known, are the terminal's size at start: the first frame
	// is then the console's own layout saying it is loading, not a bare "Loading…" that
	// waits for the runtime's first size message.
	Width, Height int
	// ClaudeSkillsDir is Claude Code's skills folder when the console reviews what Claude
	// loads (review --claude): its plugins (<name>@skills-dir) are loaded after Sources.
	ClaudeSkillsDir string
}

// Minimum terminal size; below it the console shows a "terminal too small" view.
const (
	MinWidth  = 64
	MinHeight = 18
)

// data is what one load brought and everything worked out from it: packages, their
// statuses, the filter's index and the header's counts. A reload's first batch replaces
// the whole value (nothing of the old load can be left behind); only env and the
// generation's number carry over. Statuses are kept per package: one source may hold
// several packages with the same name (and so the same refs).
type data struct {
	// env is what every load shares: where the console runs and who enforces what.
	env *dataEnv
	// gen numbers the data shown: each load's first batch brings the next number. A
	// dialog explained from an older generation records nothing.
	gen int
	// slowRender caches skills.SlowToRender per body: the key state asks on every key
	// press, and scanning a large body each time is work the answer never needs again.
	slowRender map[*model.Component]string

	pkgs        []*model.Package
	sourceDiags []model.Diagnostic
	status      statusMap
	// active counts, per instruction ref, the files the ledger has it active in: x on an
	// active instruction removes its block instead of revoking an approval.
	active map[string]int
	// files lists, per instruction ref, each file it is in force in and what that file
	// holds (instructions.ListInForce), read with active: the Overview shows it.
	files map[string][]instructions.InForce
	// names counts the packages of each name: copies that share a name share refs, so
	// the tree and every dialog show where each copy lies.
	names map[string]int
	// progress is, per package, how many of its approvable components are reviewed
	// (approved or revoked) and how many there are.
	progress map[*model.Package][2]int
	// lowBodies is, per package and component, the lowercased text body, for the
	// filter's content search (tab): the first packages' bodies, as far as lowBodiesCmd
	// has built them (packages streamed in later get theirs from another run).
	lowBodies [][]string
	// bodyIdx holds the same bodies, one string per run of lowBodiesCmd, for the filter
	// index; bodyRows is the number of global rows they cover.
	bodyIdx  []*bodyIndex
	bodyRows int
	// chunks hold the filter text of every row (filterTexts), one string per batch
	// (filterindex.go), built by the load command so no keystroke builds it; pkgBase is
	// each package's global row number, pkgChunk the chunk holding its rows, and nrows
	// the rows indexed.
	chunks   []*hayChunk
	pkgBase  []int32
	pkgChunk []int32
	pkgLocal []int32 // each package's index in its chunk
	nrows    int
	// scanned is what the last index search found, per chunk (filterindex.go).
	scanned scanRecord
	// indexing is true while lowBodiesCmd runs for this generation.
	indexing bool

	// counts for the header, recomputed when statuses change
	nPackages, nReview, nChanged, nInvalid int
	nReviewed, nReviewable                 int
}

// dataEnv is what the console knows of where it runs, the same for every load.
type dataEnv struct {
	// cwd shortens locations shown in the tree.
	cwd string
	// enforced is Options.Enforced (nil: nothing is shown as enforced).
	enforced func(*model.Package) []string
}

// nextLoad is the data a load's first batch starts: empty but for what the batch read
// of the ledger, numbered after d.
func (d *data) nextLoad(active map[string]int, files map[string][]instructions.InForce) data {
	return data{env: d.env, gen: d.gen + 1, status: statusMap{}, active: active, files: files}
}

// location is where p lies, relative to the working directory when under it.
func (d *data) location(p *model.Package) string {
	if d.env.cwd != "" {
		if rel, err := filepath.Rel(d.env.cwd, p.Root); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return rel
		}
	}
	return p.Root
}

// copies is the number of loaded packages named like p (p included).
func (d *data) copies(p *model.Package) int { return d.names[p.Name] }

// refOf is c's ref as the console prints and copies it: with the package's format in
// front when another loaded package shares its name (one folder read by two clients
// gives two packages of one name), so that the ref names one package wherever it is
// pasted.
func (d *data) refOf(p *model.Package, c *model.Component) string {
	if d.copies(p) > 1 {
		return p.QualifiedRef(c)
	}
	return p.Ref(c)
}

// sameName lists the loaded packages named like p: a decision about p's refs can change
// the status of each of them.
func (d *data) sameName(p *model.Package) []*model.Package {
	var out []*model.Package
	for _, q := range d.pkgs {
		if q.Name == p.Name {
			out = append(out, q)
		}
	}
	return out
}

// slowToRender says why c's body must not be handed to a markdown renderer ("" if it may).
func (d *data) slowToRender(c *model.Component) string {
	why, ok := d.slowRender[c]
	if !ok && bodyDropped(c) {
		return "" // asked when the load command let the text go (dropBodies)
	}
	if !ok {
		why = skills.SlowToRender(c.Body)
		if d.slowRender == nil {
			d.slowRender = map[*model.Component]string{}
		}
		d.slowRender[c] = why
	}
	return why
}

// statusOf is the status trust gave c. A component trust did not rate is "unreviewed",
// or "blocked" when it cannot be approved at all.
func (d *data) statusOf(p *model.Package, c *model.Component) trust.Status {
	if inert(p, c) {
		return trust.Status{Ref: p.Ref(c), Authorization: authNothing, Reason: "It has nothing to approve: it is inert data."}
	}
	for j, pc := range p.Components {
		if pc == c {
			if cs, ok := d.record(p, j); ok {
				return cs.status(p, c)
			}
			break
		}
	}
	if unapprovable(p, c) {
		return trust.Status{Ref: p.Ref(c), Authorization: model.Blocked, Reason: "It cannot be approved: it is invalid, skipped, unsupported or inert data."}
	}
	return trust.Status{Ref: p.Ref(c), Authorization: model.Unreviewed}
}

// common is shared by every pane.
type common struct {
	styles *Styles
	data   *data
	// highlightBudget bounds the file view's lexer on one file (0: no bound).
	highlightBudget time.Duration
}

// trustBox serializes access to trust: commands run on their own goroutines.
type trustBox struct {
	mu sync.Mutex
	t  *trust.Trust
}

// Model is the root model.
type Model struct {
	opts Options
	keys KeyMap
	// actions are the browsing screen's key bindings (browseActions): the dispatcher,
	// the help line and the `?` sheet all read them.
	actions []action
	styles  Styles
	data    data
	common  *common

	width, height int
	loaded        bool // the first batch (or a load error) arrived
	loadErr       error
	// loading is true while a source streams in: more batches will follow.
	loading bool
	// loadGen numbers loads; a batch from an earlier load (before R) is dropped.
	loadGen int
	// reselect is what was selected before a reload, until the batch holding it arrives.
	reselect  *selTarget
	reloading bool // the load in progress is a reload: say so when it ends

	tree   *treePane
	detail *detailPane
	// modals is the stack of layers over the browsing screen (dialogs, the instruction
	// prompt, the note input, the file view, the marketplace table, the `?` sheet, the
	// filter input), the top last: it alone gets keys and is drawn.
	modals []layer
	help   help.Model
	// clipboard receives OSC 52 copies (y); nil writes to the terminal through a command.
	clipboard func(seq string)

	flash      string
	flashIsErr bool
	busy       bool // a decision is being written

	trust *trustBox
	md    *markdownRenderer
}

// New returns the root model.
func New(opts Options) *Model {
	if len(opts.Sources) == 0 {
		opts.Sources = []string{"."}
	}
	m := &Model{
		opts:    opts,
		keys:    DefaultKeyMap(),
		actions: browseActions(),
		styles:  NewStyles(true),
		data:    data{status: statusMap{}},
		trust:   &trustBox{},
		md:      newMarkdownRenderer(),
		help:    help.New(),
	}
	m.data.env = &dataEnv{enforced: opts.Enforced}
	m.data.env.cwd, _ = os.Getwd()
	m.common = &common{styles: &m.styles, data: &m.data, highlightBudget: defaultHighlightBudget}
	m.tree = newTreePane(m.common)
	m.detail = newDetailPane(m.common)
	m.detail.md, m.detail.trust = m.md, m.trust
	m.help.Styles = m.styles.Help
	m.updateKeys()
	if opts.Width > 0 && opts.Height > 0 {
		m.width, m.height = opts.Width, opts.Height
		m.layout()
	}
	return m
}

// Messages returned by commands.
type (
	// loadedMsg is one batch of a load: the first replaces what is shown, the others
	// append. next waits for the following batch; it is nil on the last one.
	loadedMsg struct {
		gen         int
		first, last bool
		pkgs        []*model.Package
		sourceDiags []model.Diagnostic // on the last batch
		status      statusMap
		chunk       *hayChunk                         // filterTexts of each of pkgs, as one string
		slow        map[*model.Component]string       // dropBodies: why a body let go is slow to render
		active      map[string]int                    // on the first batch
		files       map[string][]instructions.InForce // on the first batch
		err         error
		trustErr    error
		stream      *loadStream
		next        tea.Cmd
	}
	explainedMsg struct {
		action  trust.Action
		group   string
		gen     int
		entries []dialogEntry
		offered int // a package approval: how many of its components could be approved
	}
	decidedMsg struct {
		action trust.Action
		refs   []string
		// status holds the statuses of every package the decision can affect: the
		// decided package and each copy that shares its name.
		status    statusMap
		active    map[string]int // nil when unknown: keep what is shown
		files     map[string][]instructions.InForce
		err       error
		decisions []trust.Decision
	}
)

// Init asks for the background colour and starts loading a frame later. The loaders
// take every core there is; started at once, they keep the renderer from writing the
// first frame (at 10,000 packages on two cores it came most of a second after start).
// One frame later the screen already says what is loading.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, tea.Tick(loadDelay, func(time.Time) tea.Msg { return startLoadMsg{} }))
}

// loadDelay is just past the renderer's first frame at its 60 frames a second.
const loadDelay = 20 * time.Millisecond

// startLoadMsg starts the first load.
type startLoadMsg struct{}

// loadCmd starts a load. Sources stream in: the command returns the first packages
// rated as soon as they are loaded, with a command that waits for the next batch, so the
// console draws a large source long before its last package is read.
func (m *Model) loadCmd() tea.Cmd {
	m.loadGen++
	gen, opts, box := m.loadGen, m.opts, m.trust
	return func() tea.Msg {
		msg := loadedMsg{gen: gen, first: true}
		var s *loadStream
		if opts.Packages == nil {
			// Loading starts before the ledger is opened: they overlap.
			s = startStream(review.Options{DataDir: trust.DataDir(opts.Home), Retained: true, SignatureRoots: opts.SignatureRoots, Exclude: opts.Exclude, ClaudeSkillsDir: opts.ClaudeSkillsDir}, opts.Sources)
		}
		t, err := trust.Open(trust.Options{Home: opts.Home})
		box.mu.Lock()
		if err != nil {
			msg.trustErr = err
		} else {
			box.t = t
			msg.active, msg.files = activeCounts(t)
		}
		box.mu.Unlock()
		if s == nil {
			return memBatch(msg, box, opts.Packages, opts.SourceDiagnostics, firstBatch)
		}
		return s.batch(msg, box, firstBatch, firstWait)
	}
}

// The first batch is drawn once it fills a screen (firstBatch packages) or firstWait has
// passed, whichever comes first; later batches come every batchWait at most: each one
// redraws the tree, so they arrive a few times a second, not once per package.
const (
	firstBatch = 32
	firstWait  = 30 * time.Millisecond
	batchWait  = 40 * time.Millisecond
)

// memBatch is a batch of packages handed in memory: they come in as a stream from disk
// would, the first screenful rated and drawn before the rest (trust rates 10,000
// packages in seconds).
func memBatch(msg loadedMsg, box *trustBox, pkgs []*model.Package, diags []model.Diagnostic, n int) tea.Msg {
	n = min(n, len(pkgs))
	rest := pkgs[n:]
	msg.pkgs = pkgs[:n:n]
	msg.status = evaluate(box, msg.pkgs)
	msg.chunk = buildHays(msg.pkgs)
	if len(rest) == 0 {
		msg.last, msg.sourceDiags = true, diags
		return msg
	}
	gen := msg.gen
	msg.next = func() tea.Msg { return memBatch(loadedMsg{gen: gen}, box, rest, diags, memBatchSize) }
	return msg
}

// memBatchSize is the batch after the first for packages handed in memory.
const memBatchSize = 1000

// nextCmd waits for the batch after msg.
func (s *loadStream) nextCmd(gen int, box *trustBox) tea.Cmd {
	return func() tea.Msg { return s.batch(loadedMsg{gen: gen}, box, math.MaxInt, batchWait) }
}

// batch fills msg with the next packages of the stream, rated by trust.
func (s *loadStream) batch(msg loadedMsg, box *trustBox, enough int, wait time.Duration) tea.Msg {
	msg.stream = s
	msg.pkgs, msg.sourceDiags, msg.err, msg.last = s.take(enough, wait)
	if msg.err != nil {
		return msg
	}
	msg.status = evaluate(box, msg.pkgs)
	msg.chunk = buildHays(msg.pkgs)
	// Packages read from disk let go of the text bodies they can read back; packages
	// handed in memory are the caller's and stay as they are.
	msg.slow = dropBodies(msg.pkgs)
	if !msg.last {
		msg.next = s.nextCmd(msg.gen, box)
	} else {
		// The load's garbage (file texts, parse trees, the bodies let go) is several
		// times what the console keeps: once it is all loaded, it goes back to the system
		// rather than staying in the process as free heap for as long as it runs.
		debug.FreeOSMemory()
	}
	return msg
}

// lowBodiesMsg carries the lowercased text bodies of the packages from index from on,
// shown at data generation gen.
type lowBodiesMsg struct {
	gen, from int
	bodiesBuilt
}

// lowBodiesCmd lowercases every text body of pkgs[from:] off the update loop, reading
// back those the load let go (packages are never modified once shown, so reading them
// here is safe).
func lowBodiesCmd(pkgs []*model.Package, from, gen int) tea.Cmd {
	pkgs = pkgs[:len(pkgs):len(pkgs)]
	return func() tea.Msg {
		base := 0
		for _, p := range pkgs[:from] {
			base += 1 + len(p.Components)
		}
		return lowBodiesMsg{gen: gen, from: from, bodiesBuilt: buildBodies(pkgs[from:], base)}
	}
}

// evaluate rates pkgs with the open ledger; without one every status stays unknown.
func evaluate(box *trustBox, pkgs []*model.Package) statusMap {
	box.mu.Lock()
	defer box.mu.Unlock()
	if box.t == nil {
		return statusMap{}
	}
	return compactStatuses(box.t.EvaluateAll(pkgs))
}

// loadStream runs review.Stream on its own goroutine and keeps what it emitted until a
// command takes it: the loaders never wait for the console.
type loadStream struct {
	mu      sync.Mutex
	pending []*model.Package
	done    bool
	diags   []model.Diagnostic
	err     error
	notify  chan struct{} // capacity 1: "something changed"
	stopped atomic.Bool
	ended   chan struct{} // closed when review.Stream has returned
}

func startStream(opts review.Options, sources []string) *loadStream {
	s := &loadStream{notify: make(chan struct{}, 1), ended: make(chan struct{})}
	go func() {
		defer close(s.ended)
		diags, err := review.Stream(opts, sources, func(b []*model.Package) bool {
			s.mu.Lock()
			s.pending = append(s.pending, b...)
			s.mu.Unlock()
			s.signal()
			return !s.stopped.Load()
		})
		s.mu.Lock()
		s.diags, s.err, s.done = diags, err, true
		s.mu.Unlock()
		s.signal()
	}()
	return s
}

func (s *loadStream) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// stop asks the stream to start no further package (a reload replaced it).
func (s *loadStream) stop() { s.stopped.Store(true) }

// take returns every pending package once the stream has ended, at least enough are
// pending, or wait has passed and some are. last is true once the stream has ended and
// nothing is left.
func (s *loadStream) take(enough int, wait time.Duration) (pkgs []*model.Package, diags []model.Diagnostic, err error, last bool) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	waited := false
	for {
		s.mu.Lock()
		n := len(s.pending)
		if s.done || n >= enough || (waited && n > 0) {
			pkgs, s.pending = s.pending, nil
			if s.done {
				diags, err, last = s.diags, s.err, true
			}
			s.mu.Unlock()
			return pkgs, diags, err, last
		}
		s.mu.Unlock()
		select {
		case <-s.notify:
		case <-timer.C:
			waited = true
		}
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, m.detail.refresh()
	case tea.BackgroundColorMsg:
		m.styles = NewStyles(msg.IsDark())
		m.help.Styles = m.styles.Help
		m.tree.filter.SetStyles(inputStyles(m.styles.IsDark))
		m.tree.rows = nil
		m.detail.invalidateRendering()
		return m, m.detail.refresh()
	case startLoadMsg:
		if m.loadGen > 0 {
			return m, nil // R was pressed first: that load is under way
		}
		return m, m.loadCmd()
	case loadedMsg:
		return m, m.onLoaded(msg)
	case explainedMsg:
		m.busy = false
		m.openDialog(msg)
		return m, nil
	case decidedMsg:
		return m, m.onDecided(msg)
	case renderedMsg, diffMsg, bodyReadMsg:
		return m, m.detail.Update(msg)
	case lowBodiesMsg:
		if msg.gen != m.data.gen || msg.from != len(m.data.lowBodies) {
			return m, nil
		}
		m.data.lowBodies = append(m.data.lowBodies, msg.bodies...)
		m.data.bodyIdx = append(m.data.bodyIdx, msg.index)
		m.data.bodyRows += msg.rows
		m.data.indexing = false
		if msg.changed > 0 || msg.unreadable > 0 {
			m.setFlash(bodiesLeftOut(msg.changed, msg.unreadable), true)
		}
		m.tree.statusChanged()       // results found without the text are incomplete
		more := m.tree.indexBodies() // packages streamed in meanwhile
		m.tree.setPrompt()
		if m.tree.filter.Value() != "" {
			m.tree.applyFilter()
			return m, tea.Batch(more, m.selectionChanged())
		}
		return m, more
	case fileLoadedMsg:
		if fv := m.fileView(); fv != nil {
			fv.onLoaded(msg)
		}
		return m, nil
	case pagerReadyMsg:
		if msg.err != nil {
			m.setFlash("Could not prepare the pager copy: "+msg.err.Error(), true)
			return m, nil
		}
		if m.fileView() == nil {
			return m, nil
		}
		return m, pagerCmd(msg.path)
	case pagerDoneMsg:
		if fv := m.fileView(); msg.err != nil && fv != nil {
			fv.flash = display.Line("The pager ended with: " + msg.err.Error())
		}
		return m, nil
	case activationsMsg, previewMsg, committedMsg:
		return m, m.onInstructions(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.MouseWheelMsg:
		m.onWheel(msg)
		return m, nil
	case tea.MouseClickMsg:
		return m, m.onClick(msg)
	case tea.PasteMsg:
		// A paste is text for the input on top; no other layer takes one.
		switch top := m.top().(type) {
		case *targetPrompt:
			return m, top.update(msg)
		case *filterMode:
			var cmd tea.Cmd
			m.tree.filter, cmd = m.tree.filter.Update(msg)
			m.tree.applyFilter()
			return m, tea.Batch(cmd, m.selectionChanged())
		}
	}
	return m, nil
}

// selTarget names a selection by what it is, not by its position.
type selTarget struct {
	// root and format name the package: one folder can hold a package of each of
	// several formats (a plugin that Claude Code and Codex both read).
	root   string
	format model.Format
	kind   model.Kind // "" for a package row
	id     string
}

// onLoaded takes one batch of a load: the first replaces what is shown, later ones append
// without moving the selection.
func (m *Model) onLoaded(msg loadedMsg) tea.Cmd {
	if msg.gen != m.loadGen {
		if msg.stream != nil {
			msg.stream.stop()
		}
		return nil
	}
	m.loaded = true
	if msg.err != nil {
		m.loadErr, m.loading = msg.err, false
		return nil
	}
	if msg.first {
		// On a reload, the selection is found again by what it names, when the batch
		// holding it arrives.
		m.reloading, m.reselect = m.data.pkgs != nil, nil
		if p, c, _, ok := m.selection(); ok {
			m.reselect = &selTarget{root: p.Root, format: p.Format}
			if c != nil {
				m.reselect.kind, m.reselect.id = c.Kind, c.ID
			}
		}
		m.data = m.data.nextLoad(msg.active, msg.files)
		// What an open dialog or prompt shows came from the data just replaced: it can
		// no longer record anything (otherwise R then a then y would approve a tool the
		// reviewer never saw); a file view of the old packages closes.
		m.reloadStack()
		m.tree.setItems(nil)
		m.detail.invalidateRendering()
		m.detail.bodies.reset()
	}
	m.loading = !msg.last
	prev, hadSel := m.tree.selected()
	from := len(m.data.pkgs)
	// Filter texts are kept only while they line up with the packages (a batch built
	// without them, as some tests send, leaves the rest to be built on first use).
	m.data.addHays(msg.pkgs, msg.chunk)
	m.data.pkgs = append(m.data.pkgs, msg.pkgs...)
	for p, st := range msg.status {
		m.data.status[p] = st
	}
	for c, why := range msg.slow {
		if m.data.slowRender == nil {
			m.data.slowRender = map[*model.Component]string{}
		}
		m.data.slowRender[c] = why
	}
	if msg.last {
		m.data.sourceDiags = msg.sourceDiags
	}
	m.tree.addPackages(from)
	if r := m.reselect; r != nil {
		if it := findItem(m.data.pkgs, *r); it.pkg >= 0 {
			m.tree.selectItem(it)
			m.reselect = nil
		}
	}
	m.recountAdd(from)
	if msg.last {
		m.reselect = nil
		if m.reloading {
			m.reloading = false
			m.setFlash(fmt.Sprintf("Reloaded: %d packages, %d changed since approval.", m.data.nPackages, m.data.nChanged), false)
		}
	}
	if msg.trustErr != nil {
		m.setFlash("Could not open the trust ledger: "+msg.trustErr.Error(), true)
	}
	// With text search on, the new packages' bodies are indexed too.
	more := m.tree.indexBodies()
	cur, hasSel := m.tree.selected()
	if msg.first || cur != prev || hasSel != hadSel {
		return tea.Batch(m.selectionChanged(), msg.next, more)
	}
	m.updateKeys()
	return tea.Batch(msg.next, more)
}

// bodiesLeftOut says which text bodies the content filter could not search.
func bodiesLeftOut(changed, unreadable int) string {
	var parts []string
	if changed > 0 {
		parts = append(parts, plural(changed, "text file")+" changed on disk since vouch loaded them")
	}
	if unreadable > 0 {
		parts = append(parts, plural(unreadable, "text file")+" could not be read again")
	}
	return "The text search leaves out what it cannot check: " + strings.Join(parts, ", ") + ". R reloads."
}

// findItem returns the row of the component (or, with an empty kind, the package) r
// names, found by its package's root and format; pkg -1 when that package is not there.
func findItem(pkgs []*model.Package, r selTarget) item {
	for i, p := range pkgs {
		if p.Root != r.root || p.Format != r.format {
			continue
		}
		if r.kind != "" {
			for j, c := range p.Components {
				if c.Kind == r.kind && c.ID == r.id {
					return item{pkg: i, comp: j}
				}
			}
		}
		return item{pkg: i, comp: -1}
	}
	return item{pkg: -1, comp: -1}
}

func (m *Model) recount() {
	m.tree.statusChanged()
	m.data.nPackages, m.data.nReview, m.data.nChanged, m.data.nInvalid = 0, 0, 0, 0
	m.data.names = make(map[string]int, len(m.data.pkgs))
	m.data.progress = make(map[*model.Package][2]int, len(m.data.pkgs))
	m.data.nReviewable, m.data.nReviewed = 0, 0
	m.recountAdd(0)
}

// recountAdd adds the packages from index from on to the header's counts: a streamed
// batch counts its own packages only (statuses of those already shown do not change).
func (m *Model) recountAdd(from int) {
	if m.data.names == nil || m.data.progress == nil || from > len(m.data.pkgs) || from != m.data.nPackages {
		m.recount()
		return
	}
	m.data.nPackages = len(m.data.pkgs)
	// One pass, one status per component: the counts all come from it.
	for _, p := range m.data.pkgs[from:] {
		m.data.names[p.Name]++
		if !p.Valid() {
			m.data.nInvalid++
		}
		var pr [2]int
		for j, c := range p.Components {
			a := m.data.authAt(p, j)
			if needsReviewAuth(c, a) {
				m.data.nReview++
			}
			if a == model.Changed {
				m.data.nChanged++
			}
			if c.Contract == nil {
				continue
			}
			pr[1]++
			if a == model.Approved || a == model.Revoked {
				pr[0]++
			}
		}
		m.data.progress[p] = pr
		m.data.nReviewed += pr[0]
		m.data.nReviewable += pr[1]
	}
}

// setFlash shows a one-line message. Messages wrap errors that carry package text (refs,
// file names), so it is escaped here, at the sink; escaping is idempotent.
func (m *Model) setFlash(s string, isErr bool) { m.flash, m.flashIsErr = display.Line(s), isErr }

// selection returns the selected package and component (nil for a package row).
func (m *Model) selection() (*model.Package, *model.Component, item, bool) {
	it, ok := m.tree.selected()
	if !ok {
		return nil, nil, it, false
	}
	p := m.data.pkgs[it.pkg]
	if it.isPackage() {
		return p, nil, it, true
	}
	return p, p.Components[it.comp], it, true
}

// selectionChanged points the detail pane at the selection and refreshes key states.
func (m *Model) selectionChanged() tea.Cmd {
	p, c, _, _ := m.selection()
	m.detail.setSelection(p, c)
	m.updateKeys()
	return m.detail.refresh()
}

// updateKeys enables the modal layers' keys that can apply now, so their help tells the
// truth; the browsing screen's actions say so themselves (keys.go).
func (m *Model) updateKeys() {
	k := &m.keys
	k.Confirm.SetEnabled(!m.busy && (m.dialog().canConfirm() || m.prompt().ready()))
	k.Overwrite.SetEnabled(!m.busy && m.prompt().needsOverwrite())
	k.Cancel.SetEnabled(m.dialog() != nil || m.prompt() != nil)
}

// approveReason says why `a` cannot apply to the selection, "" when it can.
func (m *Model) approveReason() string {
	p, c, _, ok := m.selection()
	switch {
	case !ok:
		return "Nothing is selected."
	case c == nil:
		return "Packages are approved component by component: select a component."
	case c.Contract == nil:
		return "This component has nothing to approve (it is invalid or inert data)."
	case m.busy:
		return "A decision is being recorded."
	}
	if authOf(m.data.statusOf(p, c)) == model.Approved {
		return "Already approved at its current digest."
	}
	return ""
}

// revokeReason says why `x` cannot apply, "" when it can.
func (m *Model) revokeReason() string {
	p, c, _, ok := m.selection()
	switch {
	case !ok:
		return "Nothing is selected."
	case c == nil:
		return "Packages are revoked component by component: select a component."
	case m.busy:
		return "A decision is being recorded."
	case m.removalApplies():
		return ""
	}
	switch authOf(m.data.statusOf(p, c)) {
	case model.Approved, model.Changed:
		return ""
	case model.Revoked:
		if c.Kind == model.KindInstruction {
			return "Already revoked, and the ledger has it active in no file."
		}
		return "Already revoked."
	}
	if c.Kind == model.KindInstruction {
		return "This instruction is active in no file and was never approved."
	}
	return "Only an approved component can be revoked."
}

// pressed matches a key against a binding's keys whether or not it is enabled, so a
// disabled key can say why it does nothing.
func pressed(msg tea.KeyPressMsg, b key.Binding) bool {
	s := msg.String()
	for _, k := range b.Keys() {
		if k == s {
			return true
		}
	}
	return false
}

// afterDecision redraws what depends on statuses.
func (m *Model) afterDecision() tea.Cmd {
	m.recount()
	if m.tree.filter.Value() != "" {
		m.tree.applyFilter()
	}
	return m.selectionChanged()
}

// View renders the whole screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "vouch review " + display.Line(strings.Join(m.opts.Sources, " "))
	return v
}

// render is the screen content; View wraps it.
func (m *Model) render() string {
	if m.width == 0 || m.height == 0 {
		return "Loading…"
	}
	if m.width < MinWidth || m.height < MinHeight {
		return m.tooSmall()
	}
	header := m.headerView()
	status := m.statusLine()
	helpView := m.helpView()
	body := m.bodyView()
	out := header + "\n" + body + "\n" + status + "\n" + helpView
	return clampLines(out, m.width, m.height)
}

func (m *Model) tooSmall() string {
	lines := []string{
		"Terminal too small",
		fmt.Sprintf("vouch needs at least %d×%d,", MinWidth, MinHeight),
		fmt.Sprintf("this one is %d×%d.", m.width, m.height),
		"Enlarge the window, or q to quit.",
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	if len(lines) > m.height {
		lines = lines[:max(m.height, 0)]
	}
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
}

func (m *Model) headerView() string {
	s := &m.styles
	src := display.Line(strings.Join(m.opts.Sources, " "))
	var parts []string
	switch {
	case !m.loaded:
		parts = append(parts, "loading…")
	case m.loading:
		parts = append(parts,
			"loading… "+plural(m.data.nPackages, "package")+" so far",
			fmt.Sprintf("%d need review", m.data.nReview),
			fmt.Sprintf("%d changed", m.data.nChanged),
			fmt.Sprintf("%d invalid", m.data.nInvalid))
	default:
		parts = append(parts,
			plural(m.data.nPackages, "package"),
			fmt.Sprintf("%d of %d reviewed", m.data.nReviewed, m.data.nReviewable),
			fmt.Sprintf("%d need review", m.data.nReview),
			fmt.Sprintf("%d changed", m.data.nChanged),
			fmt.Sprintf("%d invalid", m.data.nInvalid))
	}
	line := s.Header.Render("vouch review") + " " + s.HeaderDim.Render(src) + "  " + strings.Join(parts, " · ")
	return fit(line, m.width)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (m *Model) statusLine() string {
	s := &m.styles
	switch {
	case m.busy:
		return fit(s.Dim.Render("Working…"), m.width)
	case m.flash != "":
		st := s.Flash
		if m.flashIsErr {
			st = s.Error
		}
		return fit(st.Render(m.flash), m.width)
	}
	if n := len(m.tree.visible); n > 0 && m.fileView() == nil {
		// Where the selection is in a long list: "row 312 of 10,000".
		return fit(s.Dim.Render("row "+thousands(m.tree.cursor+1)+" of "+thousands(n)), m.width)
	}
	return fit("", m.width)
}

func (m *Model) helpView() string { return strings.Join(m.helpLines(), "\n") }

// helpLines is the one-line help at the bottom, for the layer on top (the `?` sheet
// lists every key).
func (m *Model) helpLines() []string {
	var km help.KeyMap = browseKeys{m}
	if top := m.top(); top != nil {
		km = top.keyMap(m)
	}
	m.help.SetWidth(m.width)
	out := m.help.ShortHelpView(km.ShortHelp())
	lines := strings.Split(out, "\n")
	for i := range lines {
		lines[i] = fit(lines[i], m.width)
	}
	return lines
}

func (m *Model) helpHeight() int { return len(m.helpLines()) }

func (m *Model) bodyView() string {
	bw, bh := m.width, m.bodyHeight()
	if !m.loaded {
		return lipgloss.Place(bw, bh, lipgloss.Center, lipgloss.Center, "Loading packages…")
	}
	if m.loadErr != nil {
		msg := ansi.Wrap(display.String("Could not load: "+m.loadErr.Error()), bw-4, "")
		return lipgloss.Place(bw, bh, lipgloss.Center, lipgloss.Center, m.styles.Error.Render(msg))
	}
	return m.bodyOf(len(m.modals)-1, bw, bh)
}

// baseView is the browsing screen under every layer: the tree and the detail pane.
func (m *Model) baseView() string {
	left := frame(m.styles.PaneFocused, m.tree.View(), m.tree.width)
	right := frame(m.styles.Pane, m.detail.View(), m.detail.width)
	lines := make([]string, len(left))
	for i := range left {
		lines[i] = left[i] + right[i]
	}
	return strings.Join(lines, "\n")
}

// frame draws a rounded border around content whose lines are exactly w cells wide.
// It does by hand what lipgloss would, without measuring every line again: the panes
// already guarantee their widths, and this runs on every key press.
func frame(st lipgloss.Style, content string, w int) []string {
	bs := lipgloss.NewStyle().Foreground(st.GetBorderTopForeground())
	b := lipgloss.RoundedBorder()
	side := bs.Render(b.Left)
	rside := bs.Render(b.Right)
	body := strings.Split(content, "\n")
	out := make([]string, 0, len(body)+2)
	out = append(out, bs.Render(b.TopLeft+strings.Repeat(b.Top, w)+b.TopRight))
	for _, l := range body {
		out = append(out, side+l+rside)
	}
	out = append(out, bs.Render(b.BottomLeft+strings.Repeat(b.Bottom, w)+b.BottomRight))
	return out
}

// clampLines guarantees the frame: exactly h lines, none wider than w.
func clampLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// enforcedBy is what the tree row and the Overview say of a package a client enforces,
// "enforced (claude-code)" or "enforced (claude-code, codex)", and "" when none does.
// The client ids come from a file on disk, so they are escaped like package text.
func (d *data) enforcedBy(p *model.Package) string {
	if d.env.enforced == nil {
		return ""
	}
	ids := d.env.enforced(p)
	if len(ids) == 0 {
		return ""
	}
	return "enforced (" + display.Line(strings.Join(ids, ", ")) + ")"
}

package ui

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vouch/model"
	"vouch/ui/display"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Bounds of the file view: what is read, highlighted and dumped. Past them the view says
// how much it left out; the hashes in the Overview cover every byte.
const (
	maxViewBytes      = 4 << 20
	maxHighlightBytes = 64 << 10
	// defaultHighlightBudget bounds the lexer (chroma's backtracking regexps) on a hostile
	// file: past it the text is shown plain. Display only: no answer depends on it. Tests
	// set the console's budget to 0 (no bound), so what they see does not depend on how
	// busy the machine is.
	defaultHighlightBudget = 2 * time.Second
	maxHexBytes            = 64 << 10
)

// fileView shows one closure file full-screen: line numbers, syntax colours (chroma),
// every line escaped before it is styled, search, go to line, a hexdump for binaries, the
// mode bits and link targets. Package bytes never reach the terminal: each line is built
// from display.Escape output and colour sequences vouch writes itself.
type fileView struct {
	c     *common
	pkg   *model.Package
	comp  *model.Component
	files []model.File
	idx   int
	// closure is how many of files are the component's closure (they come first); the
	// rest are the file that declares a hook and the package's other bound files.
	closure int

	// wrap folds long lines at the edge; without it left is the first column shown.
	wrap bool
	left int
	// listing shows the file list; pick is its cursor.
	listing bool
	pick    int
	// at is the line the view opened on (a hook's handler), marked until the next file.
	at int

	loading bool
	err     string
	loaded  *fileLoadedMsg

	top           int
	width, height int

	input    textinput.Model
	inputFor string // "search" or "goto" while the input has focus
	query    string
	matches  []int // line indexes matching query
	match    int
	hiddenAt int // index of the hidden item last jumped to (-1 none)
	flash    string
}

// fileLoadedMsg is a file read, escaped and highlighted in a command.
type fileLoadedMsg struct {
	pkg    *model.Package
	path   string
	lines  []string // styled, escaped lines
	plain  []string // escaped lines without colour, for search
	binary bool
	size   int64
	cut    string // what the bounds left out ("" when nothing)
	hidden int    // hidden characters shown as tokens
	lexer  string
	err    error
	// at is the line to open on (0: the top), found by the view's locator.
	at int
	// data is the bytes read, for the locator only: dropped before the message is sent.
	data []byte
	// width is the widest line, in cells, for horizontal scrolling.
	width int
}

// pagerReadyMsg carries the read-only escaped copy $PAGER gets.
type pagerReadyMsg struct {
	path string
	err  error
}

// openFileReason says why f cannot apply, "" when it can.
func (m *Model) openFileReason() string {
	p, c, _, ok := m.selection()
	switch {
	case !ok || c == nil:
		return "select a component: its closure files open here."
	case !hasViewFiles(p, c):
		return "this component has no files in its closure."
	}
	return ""
}

// closureFiles is every file of c's closure, the body file first.
func closureFiles(c *model.Component) []model.File {
	files := c.Files
	if len(files) == 0 && c.Contract != nil {
		files = c.Contract.Files
	}
	out := make([]model.File, 0, len(files))
	for _, f := range files {
		if f.Path == c.BodyFile {
			out = append([]model.File{f}, out...)
		} else {
			out = append(out, f)
		}
	}
	return out
}

func (m *Model) openFileView(idx int) tea.Cmd {
	p, c, _, ok := m.selection()
	if !ok || c == nil || m.openFileReason() != "" {
		return nil
	}
	fv := &fileView{c: m.common, pkg: p, comp: c, hiddenAt: -1}
	fv.files, fv.closure = viewFiles(p, c)
	fv.input = textinput.New()
	fv.input.CharLimit = 200
	fv.input.SetStyles(inputStyles(m.styles.IsDark))
	m.push(fv)
	if c.Kind == model.KindHook && idx == 0 {
		if i, locate, ok := hookTarget(c, fv.files); ok {
			return fv.loadAt(i, locate)
		}
	}
	return fv.load(idx)
}

// load starts reading file idx.
func (fv *fileView) load(idx int) tea.Cmd { return fv.loadAt(idx, nil) }

// loadAt starts reading file idx; locate, when set, finds the line to open on.
func (fv *fileView) loadAt(idx int, locate func([]byte) int) tea.Cmd {
	fv.idx = (idx%len(fv.files) + len(fv.files)) % len(fv.files)
	fv.loading, fv.err, fv.loaded, fv.top, fv.query, fv.matches, fv.flash, fv.hiddenAt = true, "", nil, 0, "", nil, "", -1
	fv.left, fv.at, fv.listing = 0, 0, false
	p, f, dark, budget := fv.pkg, fv.files[fv.idx], fv.c.styles.IsDark, fv.c.highlightBudget
	return func() tea.Msg {
		msg := readForView(p, f, dark, budget)
		msg.width = widest(msg.plain)
		if locate != nil && msg.err == nil && !msg.binary && msg.data != nil {
			msg.at = locate(msg.data)
		}
		msg.data = nil
		return msg
	}
}

// readForView reads f through the package's bounded reader and prepares its lines.
// budget bounds the lexer's time (0: no bound).
func readForView(p *model.Package, f model.File, dark bool, budget time.Duration) fileLoadedMsg {
	msg := fileLoadedMsg{pkg: p, path: f.Path, size: f.Size}
	if f.IsLink() {
		return msg
	}
	if p.Reader == nil {
		msg.err = fmt.Errorf("the package's files cannot be read back")
		return msg
	}
	data, err := p.Reader.ReadFile(f.Path)
	if err != nil {
		msg.err = err
		return msg
	}
	if len(data) > maxViewBytes {
		msg.cut = fmt.Sprintf("first %d of %d bytes shown", maxViewBytes, len(data))
		data = data[:maxViewBytes]
	}
	msg.data = data
	if looksBinary(data) {
		msg.binary = true
		if len(data) > maxHexBytes {
			msg.cut = fmt.Sprintf("first %d of %d bytes shown as hex", maxHexBytes, len(data))
			data = data[:maxHexBytes]
		}
		msg.lines = hexdump(data)
		msg.plain = msg.lines
		return msg
	}
	text := string(data)
	if len(data) > maxHighlightBytes {
		msg.lines, msg.plain, msg.hidden, _ = highlight(f.Path, text, dark)
		msg.lexer = "not highlighted: larger than 64 KiB"
		return msg
	}
	type result struct {
		lines, plain []string
		hidden       int
		lexer        string
	}
	done := make(chan result, 1)
	go func() {
		var r result
		r.lines, r.plain, r.hidden, r.lexer = highlight(f.Path, text, dark)
		done <- r
	}()
	var timeout <-chan time.Time
	if budget > 0 {
		timer := time.NewTimer(budget)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case r := <-done:
		msg.lines, msg.plain, msg.hidden, msg.lexer = r.lines, r.plain, r.hidden, r.lexer
	case <-timeout:
		msg.lines, msg.plain, msg.hidden = plainLines(text)
		msg.lexer = "not highlighted: the lexer took too long"
	}
	return msg
}

// looksBinary: a NUL byte, or more than a few invalid UTF-8 sequences (one stray byte in
// a script is shown as a token in its text, where a reviewer reads it).
func looksBinary(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	if utf8.Valid(data) {
		return false
	}
	bad := 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			bad++
		}
		i += max(n, 1)
	}
	return bad > 8 && bad*100 > len(data)
}

// hexdump is the classic 16-bytes-a-line dump; the text column shows printable ASCII
// only, so it is safe to print as it is.
func hexdump(data []byte) []string {
	var out []string
	for off := 0; off < len(data); off += 16 {
		end := min(off+16, len(data))
		var hex, txt strings.Builder
		for i := off; i < off+16; i++ {
			if i < end {
				fmt.Fprintf(&hex, "%02x ", data[i])
				if c := data[i]; c >= 0x20 && c < 0x7f {
					txt.WriteByte(c)
				} else {
					txt.WriteByte('.')
				}
			} else {
				hex.WriteString("   ")
			}
			if i == off+7 {
				hex.WriteByte(' ')
			}
		}
		out = append(out, fmt.Sprintf("%08x  %s |%s|", off, hex.String(), txt.String()))
	}
	if len(out) == 0 {
		out = []string{"(empty file)"}
	}
	return out
}

// highlight escapes and colours text line by line. Each token piece is escaped first;
// a piece that held hidden characters is shown in the token style, so the colour of code
// never hides that something was replaced.
func highlight(path, text string, dark bool) (lines, plain []string, hidden int, lexerName string) {
	text = strings.ReplaceAll(text, "\t", "    ")
	var lx chroma.Lexer
	if len(text) <= maxHighlightBytes && path != "" {
		lx = lexers.Match(path)
		if lx == nil {
			lx = lexers.Analyse(text)
		}
	}
	tokenStyle := NewStyles(dark).Token
	var cur, curPlain strings.Builder
	flush := func() {
		lines = append(lines, cur.String())
		plain = append(plain, curPlain.String())
		cur.Reset()
		curPlain.Reset()
	}
	emit := func(piece string, st *sgrPair) {
		if piece == "" {
			return
		}
		esc, n := display.EscapeLine(piece)
		hidden += n
		curPlain.WriteString(esc)
		switch {
		case n > 0:
			cur.WriteString(tokenStyle.Render(esc))
		case st != nil:
			cur.WriteString(st.open + esc + st.close)
		default:
			cur.WriteString(esc)
		}
	}
	split := func(v string, st *sgrPair) {
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				emit(v, st)
				return
			}
			emit(v[:i], st)
			flush()
			v = v[i+1:]
		}
	}
	trim := func() {
		// A trailing newline ends the last line; it does not start an empty one.
		if n := len(lines); n > 1 && plain[n-1] == "" && strings.HasSuffix(text, "\n") {
			lines, plain = lines[:n-1], plain[:n-1]
		}
	}
	if lx == nil {
		split(text, nil)
		flush()
		trim()
		return lines, plain, hidden, ""
	}
	lexerName = lx.Config().Name
	it, err := chroma.Coalesce(lx).Tokenise(nil, text)
	if err != nil {
		lines, plain = nil, nil
		split(text, nil)
		flush()
		trim()
		return lines, plain, hidden, ""
	}
	name := "github"
	if dark {
		name = "monokai"
	}
	cs := styles.Get(name)
	cache := map[chroma.TokenType]*sgrPair{}
	for tok := it(); tok != chroma.EOF; tok = it() {
		st, ok := cache[tok.Type]
		if !ok {
			e := cs.Get(tok.Type)
			if e.Colour.IsSet() {
				st = sgrOf(lipgloss.NewStyle().Foreground(lipgloss.Color(e.Colour.String())).Bold(e.Bold == chroma.Yes))
			}
			cache[tok.Type] = st
		}
		split(tok.Value, st)
	}
	flush()
	trim()
	return lines, plain, hidden, lexerName
}

// sgrPair is a style as the sequences around its text: rendering each token through
// lipgloss costs more than the lexer; the sequences are vouch's own, computed once a style.
type sgrPair struct{ open, close string }

func sgrOf(st lipgloss.Style) *sgrPair {
	r := st.Render("\x00")
	i := strings.IndexByte(r, 0)
	if i < 0 {
		return nil
	}
	return &sgrPair{open: r[:i], close: r[i+1:]}
}

// plainLines is highlight without colours.
func plainLines(text string) (lines, plain []string, hidden int) {
	lines, plain, hidden, _ = highlight("", text, true)
	return lines, plain, hidden
}

func (fv *fileView) SetSize(w, h int) {
	fv.width, fv.height = w, h
	fv.input.SetWidth(max(1, w-12))
	fv.clamp()
}

// bodyHeight is the number of file lines on screen: the header takes three, the footer one.
func (fv *fileView) bodyHeight() int { return max(1, fv.height-4) }

func (fv *fileView) lineCount() int {
	if fv.loaded == nil {
		return 0
	}
	return len(fv.loaded.lines)
}

func (fv *fileView) clamp() {
	fv.top = min(fv.top, max(0, fv.lineCount()-fv.bodyHeight()))
	fv.top = max(fv.top, 0)
}

func (fv *fileView) scrollBy(n int) {
	fv.top += n
	fv.clamp()
}

// gotoLine shows line n (1-based) near the top.
func (fv *fileView) gotoLine(n int) {
	fv.top = n - 1 - fv.bodyHeight()/3
	fv.clamp()
}

func (fv *fileView) onLoaded(msg fileLoadedMsg) {
	if fv.pkg != msg.pkg || fv.files[fv.idx].Path != msg.path {
		return
	}
	fv.loading = false
	if msg.err != nil {
		fv.err = msg.err.Error()
		return
	}
	fv.loaded = &msg
	fv.clamp()
	if msg.at > 0 {
		fv.at = msg.at
		fv.gotoLine(msg.at)
		fv.flash = fmt.Sprintf("line %d declares %s", msg.at, display.Line(fv.pkg.Ref(fv.comp)))
	}
}

// hiddenHere lists the component's hidden items that lie in the file shown.
func (fv *fileView) hiddenHere() []model.HiddenContent {
	if fv.comp.BodyFile == "" || fv.files[fv.idx].Path != fv.comp.BodyFile {
		return nil
	}
	return fv.comp.Hidden
}

func (fv *fileView) search(q string) {
	fv.query, fv.matches, fv.match = q, nil, 0
	if q == "" || fv.loaded == nil {
		return
	}
	lq := strings.ToLower(q)
	for i, l := range fv.loaded.plain {
		if strings.Contains(strings.ToLower(l), lq) {
			fv.matches = append(fv.matches, i)
		}
	}
	if len(fv.matches) == 0 {
		fv.flash = "No line contains " + display.Line(q) + "."
		return
	}
	// The first match at or below the top.
	for i, l := range fv.matches {
		if l >= fv.top {
			fv.match = i
			break
		}
	}
	fv.showMatch()
}

func (fv *fileView) showMatch() {
	if len(fv.matches) == 0 {
		return
	}
	fv.gotoLine(fv.matches[fv.match] + 1)
	fv.showMatchColumn()
	fv.flash = fmt.Sprintf("match %d of %d: line %d", fv.match+1, len(fv.matches), fv.matches[fv.match]+1)
}

func (m *Model) fileViewKey(msg tea.KeyPressMsg) tea.Cmd {
	fv := m.fileView()
	if fv.inputFor != "" {
		switch msg.String() {
		case "esc":
			fv.inputFor = ""
			fv.input.Blur()
		case "enter":
			v := fv.input.Value()
			what := fv.inputFor
			fv.inputFor = ""
			fv.input.Blur()
			if what == "search" {
				fv.search(v)
			} else if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 1 {
				fv.gotoLine(min(n, max(1, fv.lineCount())))
				fv.flash = fmt.Sprintf("line %d", min(n, max(1, fv.lineCount())))
			} else {
				fv.flash = "Go to line: type a line number."
			}
		default:
			var cmd tea.Cmd
			fv.input, cmd = fv.input.Update(msg)
			return cmd
		}
		return nil
	}
	fv.flash = ""
	if fv.listing {
		if fv.listKey(msg.String()) {
			return fv.load(fv.pick)
		}
		return nil
	}
	return m.fileKey(fv, msg)
}

// pagerCopyCmd writes the escaped lines (never the package's bytes: a pager would send
// them to the terminal) to a read-only temporary file.
func pagerCopyCmd(l *fileLoadedMsg) tea.Cmd {
	plain := l.plain
	return func() tea.Msg {
		f, err := os.CreateTemp("", "vouch-view-*.txt")
		if err != nil {
			return pagerReadyMsg{err: err}
		}
		_, werr := f.WriteString(strings.Join(plain, "\n") + "\n")
		cerr := f.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(f.Name(), 0o400)
		}
		if werr != nil {
			os.Remove(f.Name())
			return pagerReadyMsg{err: werr}
		}
		return pagerReadyMsg{path: f.Name()}
	}
}

type pagerDoneMsg struct{ err error }

// pagerCmd runs $PAGER (less by default) on the copy and removes it afterwards.
func pagerCmd(path string) tea.Cmd {
	args := strings.Fields(os.Getenv("PAGER"))
	if len(args) == 0 {
		args = []string{"less"}
	}
	c := exec.Command(args[0], append(args[1:], path)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		os.Remove(path)
		return pagerDoneMsg{err: err}
	})
}

// View renders the file view in exactly width × height.
func (fv *fileView) View() string {
	s := fv.c.styles
	w := fv.width
	f := fv.files[fv.idx]
	var out []string
	title := fmt.Sprintf("%s  (file %d of %d of %s)", display.Line(f.Path), fv.idx+1, fv.closure, display.Line(fv.pkg.Ref(fv.comp)))
	if fv.idx >= fv.closure {
		title = fmt.Sprintf("%s  (not in the closure of %s)", display.Line(f.Path), display.Line(fv.pkg.Ref(fv.comp)))
	}
	out = append(out, fit(s.DialogTitle.Render(title), w))
	var meta []string
	switch {
	case f.IsLink():
		meta = append(meta, s.Warn.Render("symlink → "+display.Line(f.Link)))
	case f.SHA256 == "":
		meta = append(meta, "declares this hook; its approval binds the handler's fields, not this file")
	default:
		meta = append(meta, fmt.Sprintf("%d bytes", f.Size))
		// The mode bit the approval binds (the contract records the executable bit).
		if f.Exec {
			meta = append(meta, s.Bad.Render("mode +x ! executable"))
		} else {
			meta = append(meta, "mode -x not executable")
		}
	}
	if f.SHA256 != "" {
		meta = append(meta, "sha256:"+display.Line(f.SHA256))
	}
	out = append(out, fit(s.Dim.Render(strings.Join(meta, " · ")), w))
	var info []string
	if l := fv.loaded; l != nil {
		if l.binary {
			info = append(info, "binary: hexdump")
		} else if l.lexer != "" {
			info = append(info, l.lexer)
		}
		info = append(info, plural(len(l.lines), "line"))
		if l.hidden > 0 {
			info = append(info, s.Token.Render(plural(l.hidden, "hidden character")+" shown as tokens"))
		}
		if hs := fv.hiddenHere(); len(hs) > 0 {
			info = append(info, s.Warn.Render(fmt.Sprintf("%d hidden items (! jumps)", len(hs))))
		}
		if l.cut != "" {
			info = append(info, s.Warn.Render(l.cut))
		}
		if n := len(l.lines); n > fv.bodyHeight() {
			info = append(info, fmt.Sprintf("lines %d-%d", fv.top+1, min(fv.top+fv.bodyHeight(), n)))
		}
	}
	out = append(out, fit(strings.Join(info, " · "), w))
	body := fv.bodyHeight()
	switch {
	case fv.listing:
		out = append(out, fv.listRows(body, w)...)
	case fv.loading:
		out = append(out, fit(s.Dim.Render("Reading…"), w))
	case fv.err != "":
		out = append(out, fit(s.Error.Render("Cannot show this file: "+display.Line(fv.err)), w))
	case f.IsLink():
		out = append(out, fit("A symbolic link: the approval binds its target text, "+display.Line(f.Link)+".", w))
	default:
		out = append(out, fv.bodyRows(body, w)...)
	}
	for len(out) < fv.height-1 {
		out = append(out, strings.Repeat(" ", w))
	}
	out = out[:max(0, fv.height-1)]
	var foot string
	switch {
	case fv.inputFor != "":
		foot = fv.input.View()
	case fv.flash != "":
		foot = s.Flash.Render(fv.flash)
	default:
		foot = s.Dim.Render(fv.footerText(w))
	}
	out = append(out, fit(foot, w))
	return strings.Join(out, "\n")
}

package skills

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/unicode/runenames"

	"vouch/internal/lazyre"
	"vouch/model"
)

// Kinds of hidden content.
const (
	HiddenComment   = "html-comment"
	HiddenTag       = "html-tag"
	HiddenLinkDef   = "link-definition"
	HiddenInvisible = "invisible-character"
	// HiddenCharacterReference (charref.go): "&#x202E;" decodes to a hidden code point.
)

// ScanHidden lists HTML comments, raw HTML tags, link reference definitions, invisible
// or bidi characters, and character references that decode to such characters (a
// renderer decodes &#x202E; after any escaping of the raw text), in markdown, with
// 1-based line numbers offset by firstLine-1.
//
// The markdown is parsed with goldmark configured as glamour configures it (GFM and
// definition lists), so "hidden" means exactly what the console's renderer drops: code
// spans and code blocks are shown verbatim and are not reported, except for invisible
// characters, which are reported wherever they occur.
func ScanHidden(markdown string, firstLine int) []model.HiddenContent {
	out, _ := scanHidden(markdown, firstLine)
	return out
}

// Thresholds past which goldmark's cost grows quadratically (nesting depth, link
// definitions cut from one paragraph); above them the scan switches to a conservative
// pattern match that reports more, never less.
const (
	maxNesting  = 100
	maxLinkDefs = 2000
	maxPipes    = 1000 // table columns on one line
	maxOpeners  = 2000 // "<!" and "<?": each unclosed one makes goldmark scan to the end
)

// scanHidden is ScanHidden that also reports whether it fell back to the conservative
// scan because the markdown is built to make a parser slow.
func scanHidden(markdown string, firstLine int) ([]model.HiddenContent, bool) {
	return scanHiddenWith(markdown, firstLine, false)
}

// mayHide reports whether markdown holds a construct the renderer can hide. Everything
// scanHidden reports besides invisible characters needs a '<' (HTML blocks, raw HTML and
// autolinks are all triggered by it, in goldmark and in the conservative patterns) or a
// "]:" (a link reference definition's label is followed immediately by its colon, and a
// label never ends at a line break, which would put a newline before the colon).
// Without either, the parse can only find nothing, so most skills skip it.
func mayHide(md string) bool {
	return strings.IndexByte(md, '<') >= 0 || strings.Contains(md, "]:")
}

// scanHiddenWith is scanHidden; forceParse skips the mayHide and plainHidden shortcuts
// (for tests that prove the shortcuts change nothing).
func scanHiddenWith(markdown string, firstLine int, forceParse bool) ([]model.HiddenContent, bool) {
	s := newHiddenScan(markdown, firstLine)
	if out, ok := s.withoutParse(forceParse); ok {
		return out, s.degraded
	}
	return s.parse(), s.degraded
}

// hiddenScan is one text being scanned: its line index, and whether it is built to make
// a parser slow, so that the conservative patterns stand in for the parse.
type hiddenScan struct {
	md       string
	lines    *lineIndex
	degraded bool
}

func newHiddenScan(markdown string, firstLine int) *hiddenScan {
	if firstLine < 1 {
		firstLine = 1
	}
	depth, defs, pipes := shape(markdown)
	return &hiddenScan{md: markdown, lines: newLineIndex(markdown, firstLine),
		degraded: depth > maxNesting || defs > maxLinkDefs || pipes > maxPipes ||
			strings.Count(markdown, "<!")+strings.Count(markdown, "<?") > maxOpeners}
}

// withoutParse is the scan's answer when it needs no markdown parse: the text holds
// nothing a renderer hides but what the text scans find (mayHide), or it is in the
// shape plainHidden reads in one pass.
func (s *hiddenScan) withoutParse(forceParse bool) ([]model.HiddenContent, bool) {
	markdown, lines := s.md, s.lines
	if !forceParse && !mayHide(markdown) {
		out := scanInvisible(markdown, lines)
		refs := append(scanCharRefs(markdown, lines), scanDropped(markdown, lines)...)
		if len(refs) > 0 {
			out = append(out, refs...)
			sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
		}
		return out, true
	}
	if !forceParse && !s.degraded {
		if out, ok := plainHidden(markdown, lines); ok {
			return withTextScans(out, markdown, lines), true
		}
	}
	return nil, false
}

// parse is the scan through the goldmark parse, or for a degraded text the conservative
// patterns.
func (s *hiddenScan) parse() []model.HiddenContent {
	markdown, lines := s.md, s.lines
	if s.degraded {
		return withTextScans(conservative(markdown, lines), markdown, lines)
	}
	src := []byte(markdown)
	var out []model.HiddenContent

	hp := parsers.Get().(*hiddenParser)
	defer hp.release()
	before, after := hp.before, hp.after
	doc := hp.p.Parse(text.NewReader(src))

	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			var b strings.Builder
			start := -1
			segs := n.Lines()
			for i := 0; i < segs.Len(); i++ {
				s := segs.At(i)
				if start < 0 {
					start = s.Start
				}
				b.Write(s.Value(src))
			}
			if n.HasClosure() {
				if start < 0 {
					start = n.ClosureLine.Start
				}
				b.Write(n.ClosureLine.Value(src))
			}
			if start < 0 {
				return ast.WalkContinue, nil
			}
			t := strings.TrimRight(b.String(), "\r\n")
			kind := HiddenTag
			if n.HTMLBlockType == ast.HTMLBlockType2 || strings.HasPrefix(strings.TrimSpace(t), "<!--") {
				kind = HiddenComment
			}
			out = append(out, model.HiddenContent{Kind: kind, Line: lines.line(start), Text: t})
		case *ast.RawHTML:
			segs := n.Segments
			if segs == nil || segs.Len() == 0 {
				return ast.WalkContinue, nil
			}
			start, stop := segs.At(0).Start, segs.At(segs.Len()-1).Stop
			if start < 0 || stop > len(src) || start > stop {
				return ast.WalkContinue, nil
			}
			t := string(src[start:stop])
			kind := HiddenTag
			if strings.HasPrefix(t, "<!--") {
				kind = HiddenComment
			}
			out = append(out, model.HiddenContent{Kind: kind, Line: lines.line(start), Text: t})
		}
		return ast.WalkContinue, nil
	})

	for _, d := range linkDefs(src, before, after) {
		out = append(out, model.HiddenContent{Kind: HiddenLinkDef, Line: lines.line(d.start), Text: d.text})
	}
	return withTextScans(out, markdown, lines)
}

// withTextScans adds to the markup findings what every path scans the text for
// (invisible characters, character references, dropped titles and fence info) and sorts
// them all by line, markup first within a line.
func withTextScans(out []model.HiddenContent, markdown string, lines *lineIndex) []model.HiddenContent {
	out = append(out, scanInvisible(markdown, lines)...)
	out = append(out, scanCharRefs(markdown, lines)...)
	out = append(out, scanDropped(markdown, lines)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// hiddenParser is a goldmark parser with its two paragraph recorders. Building one
// costs more than parsing a typical SKILL.md, and goldmark parsers hold no per-document
// state, so they are pooled; the recorders are reset between documents.
type hiddenParser struct {
	p             parser.Parser
	before, after *paraRecorder
}

func (h *hiddenParser) release() {
	h.before.reset()
	h.after.reset()
	parsers.Put(h)
}

var parsers = sync.Pool{New: func() any {
	h := &hiddenParser{before: &paraRecorder{}, after: &paraRecorder{}}
	// Block structure, paragraph transformers and the inline parsers that decide what is
	// raw HTML are glamour's (goldmark with GFM tables and definition lists). Links,
	// emphasis, strikethrough and linkify are left out: without them more text is a raw
	// HTML candidate, never less (a "<b>" link destination is reported as a tag), and
	// goldmark's link and emphasis handling is quadratic on hostile input.
	h.p = parser.NewParser(
		parser.WithBlockParsers(append(parser.DefaultBlockParsers(),
			util.Prioritized(extension.NewDefinitionListParser(), 101),
			util.Prioritized(extension.NewDefinitionDescriptionParser(), 102))...),
		parser.WithInlineParsers(
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(parser.NewAutoLinkParser(), 300),
			util.Prioritized(parser.NewRawHTMLParser(), 400),
		),
		// Lower priorities run first: snapshot each paragraph before and after the link
		// reference transformer (100), before the table transformer (200) takes lines.
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(h.before, 50),
			util.Prioritized(h.after, 150),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200))...),
	)
	return h
}}

// shape estimates the deepest container nesting (block quote and list markers and
// indentation at the start of a line), counts lines that look like link definitions and
// finds the most pipes on one line.
func shape(md string) (depth, defs, pipes int) {
	for len(md) > 0 {
		line := md
		if i := strings.IndexByte(md, '\n'); i >= 0 {
			line, md = md[:i], md[i+1:]
		} else {
			md = ""
		}
		d, spaces := 0, 0
		j := 0
	prefix:
		for j < len(line) {
			switch c := line[j]; {
			case c == ' ':
				spaces++
			case c == '\t':
				spaces += 4
			case c == '>':
				d++
			case (c == '-' || c == '*' || c == '+') && j+1 < len(line) && (line[j+1] == ' ' || line[j+1] == '\t'):
				d++
			case c >= '0' && c <= '9':
				k := j
				for k < len(line) && line[k] >= '0' && line[k] <= '9' {
					k++
				}
				if k < len(line) && (line[k] == '.' || line[k] == ')') {
					d++
					j = k
				} else {
					break prefix
				}
			default:
				break prefix
			}
			j++
		}
		if n := strings.Count(line, "|"); n > pipes {
			pipes = n
		}
		if d += spaces / 2; d > depth {
			depth = d
		}
		if rest := line[j:]; strings.HasPrefix(rest, "[") && strings.Contains(rest, "]:") {
			defs++
		}
	}
	return depth, defs, pipes
}

var (
	reComment = lazyre.New(`(?s)<!--.*?(?:-->|$)`)
	reTag     = lazyre.New(`</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<\?.*?\?>|<![A-Za-z][^>]*>|<!\[CDATA\[.*?\]\]>`)
	reLinkDef = lazyre.New(`(?m)^[ \t>*+\-0-9.)]*\[[^\]\n]+\]:.*$`)
)

// conservative lists everything that looks like an HTML comment, tag or link definition,
// code or not: the fallback for markdown built to make the real parser slow.
func conservative(md string, lines *lineIndex) []model.HiddenContent {
	var out []model.HiddenContent
	comments := reComment.FindAllStringIndex(md, -1)
	for _, m := range comments {
		out = append(out, model.HiddenContent{Kind: HiddenComment, Line: lines.line(m[0]), Text: md[m[0]:m[1]]})
	}
	inComment := func(off int) bool {
		i := sort.Search(len(comments), func(i int) bool { return comments[i][1] > off })
		return i < len(comments) && comments[i][0] <= off
	}
	for _, m := range reTag.FindAllStringIndex(md, -1) {
		if !inComment(m[0]) {
			out = append(out, model.HiddenContent{Kind: HiddenTag, Line: lines.line(m[0]), Text: md[m[0]:m[1]]})
		}
	}
	for _, m := range reLinkDef.FindAllStringIndex(md, -1) {
		out = append(out, model.HiddenContent{Kind: HiddenLinkDef, Line: lines.line(m[0]), Text: strings.TrimRight(md[m[0]:m[1]], "\r")})
	}
	return out
}

// paraRecorder snapshots the lines of every paragraph it sees. Two of them bracket
// goldmark's link reference transformer; the lines it cut are exactly the definitions the
// renderer swallows, duplicates included (goldmark keeps only the first definition of a
// label in its context but hides all of them).
type paraRecorder struct {
	order []*ast.Paragraph
	lines map[*ast.Paragraph][]text.Segment
}

// reset forgets the last document (the pooled parser is reused for the next one).
func (r *paraRecorder) reset() {
	clear(r.order)
	r.order = r.order[:0]
	clear(r.lines)
}

func (r *paraRecorder) Transform(node *ast.Paragraph, _ text.Reader, _ parser.Context) {
	if r.lines == nil {
		r.lines = map[*ast.Paragraph][]text.Segment{}
	}
	segs := node.Lines()
	cp := make([]text.Segment, segs.Len())
	for i := range cp {
		cp[i] = segs.At(i)
	}
	if _, ok := r.lines[node]; !ok {
		r.order = append(r.order, node)
	}
	r.lines[node] = cp
}

type linkDef struct {
	start int
	text  string
}

func linkDefs(src []byte, before, after *paraRecorder) []linkDef {
	var out []linkDef
	for _, node := range before.order {
		// A paragraph that consisted only of definitions was removed from the tree and
		// never reached the second recorder: all of its lines were cut.
		kept := map[int]bool{}
		for _, s := range after.lines[node] {
			kept[s.Start] = true
		}
		var cur *linkDef
		flush := func() {
			if cur != nil {
				cur.text = strings.TrimRight(cur.text, "\r\n")
				out = append(out, *cur)
				cur = nil
			}
		}
		for _, s := range before.lines[node] {
			if kept[s.Start] {
				flush()
				continue
			}
			v := string(s.Value(src))
			// A cut run can hold several definitions; each starts with '['.
			if cur == nil || strings.HasPrefix(strings.TrimLeft(v, " \t"), "[") {
				flush()
				cur = &linkDef{start: s.Start}
			}
			cur.text += v
		}
		flush()
	}
	return out
}

// lineIndex maps byte offsets to 1-based line numbers of the whole file. The line starts
// are found on the first lookup: most files have nothing to report and never need them.
type lineIndex struct {
	src    string
	starts []int
	first  int
}

func newLineIndex(src string, firstLine int) *lineIndex {
	return &lineIndex{src: src, first: firstLine}
}

func (l *lineIndex) line(off int) int {
	if l.starts == nil {
		l.starts = append(make([]int, 0, strings.Count(l.src, "\n")+1), 0)
		for i := 0; i < len(l.src); i++ {
			if l.src[i] == '\n' {
				l.starts = append(l.starts, i+1)
			}
		}
	}
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off })
	return i - 1 + l.first
}

// IsInvisible reports whether r is a character a reader cannot see or that reorders what
// they see; the definition is model.IsHiddenRune, shared with the console's escaping.
func IsInvisible(r rune) bool { return model.IsHiddenRune(r) }

// DescribeRune names a character for a reviewer: "U+202E RIGHT-TO-LEFT OVERRIDE".
func DescribeRune(r rune) string {
	name := runenames.Name(r)
	if name == "" || strings.HasPrefix(name, "<") {
		switch {
		case r < 0x20 || r == 0x7f:
			name = "CONTROL CHARACTER"
		case r >= 0x80 && r <= 0x9f:
			name = "C1 CONTROL CHARACTER"
		case r >= 0xe0100 && r <= 0xe01ef:
			name = fmt.Sprintf("VARIATION SELECTOR-%d", r-0xe0100+17)
		default:
			name = "UNNAMED CHARACTER"
		}
	}
	return fmt.Sprintf("U+%04X %s", r, name)
}

// plainByte marks the bytes scanInvisible skips one table lookup at a time: printable
// ASCII, tab and newline.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\n'], t['\t'] = true, true
	return t
}()

// scanInvisible reports runs of invisible characters, one entry per run and line, so a
// thousand smuggled tag characters make one readable finding instead of a thousand.
// Tag characters (U+E0020–U+E007E) mirror ASCII; their decoded text is shown because
// that is what a model may read.
func scanInvisible(s string, lines *lineIndex) []model.HiddenContent {
	var out []model.HiddenContent
	for i := nextInvisible(s, 0); i < len(s); i = nextInvisible(s, i) {
		end, text := invisibleRun(s, i)
		out = append(out, model.HiddenContent{Kind: HiddenInvisible, Line: lines.line(i), Text: text})
		i = end
	}
	return out
}

// nextInvisible is the index of the first invisible character or invalid UTF-8 byte at or
// after i, len(s) when there is none.
func nextInvisible(s string, i int) int {
	for i < len(s) {
		// Fast path: printable ASCII, tab, newline and CRLF are what almost every byte is.
		for i < len(s) && plainByte[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' || c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1
		if r == '\r' && i+1 < len(s) && s[i+1] == '\n' || !bad && !IsInvisible(r) {
			i += size
			continue
		}
		return i
	}
	return len(s)
}

// invisibleRun reads the run of invisible characters that starts at i, up to a line
// break or a visible character, and returns where it ends and its description: up to
// eight kinds of character, how many there are, and what tag characters spell.
func invisibleRun(s string, i int) (int, string) {
	var descs []string
	seen := map[string]bool{}
	var tags strings.Builder
	count := 0
	more := false
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		bad := r == utf8.RuneError && size == 1
		if r == '\n' || (r == '\r' && i+1 < len(s) && s[i+1] == '\n') || (!bad && !IsInvisible(r)) {
			break
		}
		var d string
		if bad {
			d = fmt.Sprintf("invalid UTF-8 byte 0x%02X", s[i])
		} else {
			d = DescribeRune(r)
			if r >= 0xe0020 && r <= 0xe007e {
				tags.WriteRune(r - 0xe0000)
			}
		}
		if !seen[d] {
			if len(descs) < 8 {
				seen[d] = true
				descs = append(descs, d)
			} else {
				more = true
			}
		}
		count++
		i += size
	}
	t := strings.Join(descs, ", ")
	if more {
		t += ", …"
	}
	if count > 1 {
		t = fmt.Sprintf("%d invisible characters: %s", count, t)
	}
	if tags.Len() > 0 {
		t += fmt.Sprintf(" (tag characters spell %q)", tags.String())
	}
	return i, t
}

// renderLimits bound what the console hands to a markdown renderer. goldmark (under
// glamour) spends time quadratic in some shapes: deep nesting, many link definitions or
// table cells, unclosed "<!" openers, and long runs of emphasis delimiters or brackets
// (`*a_` repeated 100k times took minutes). Past these, the text is shown raw.
const (
	maxRenderBytes      = 256 << 10
	maxRenderDelimiters = 4096
)

// SlowToRender says why markdown should not be given to a renderer ("" when it may be):
// a hostile SKILL.md must not keep a reviewer's console busy for minutes.
func SlowToRender(md string) string {
	if len(md) > maxRenderBytes {
		return fmt.Sprintf("it is larger than %d KiB", maxRenderBytes>>10)
	}
	depth, defs, pipes := shape(md)
	switch {
	case depth > maxNesting:
		return fmt.Sprintf("it nests more than %d levels deep", maxNesting)
	case defs > maxLinkDefs:
		return fmt.Sprintf("it has more than %d link definitions", maxLinkDefs)
	case pipes > maxPipes:
		return fmt.Sprintf("a table row has more than %d cells", maxPipes)
	case strings.Count(md, "<!")+strings.Count(md, "<?") > maxOpeners:
		return fmt.Sprintf("it opens more than %d HTML comments or declarations", maxOpeners)
	case strings.Count(md, "*")+strings.Count(md, "_") > maxRenderDelimiters:
		return fmt.Sprintf("it has more than %d emphasis delimiters (* and _)", maxRenderDelimiters)
	case strings.Count(md, "[")+strings.Count(md, "`") > maxRenderDelimiters:
		return fmt.Sprintf("it has more than %d brackets and backticks", maxRenderDelimiters)
	}
	return ""
}

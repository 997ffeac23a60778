package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"vouch/model"
	"vouch/review/skills"

	tea "charm.land/bubbletea/v2"
)

// Text bodies on demand, to keep the console's memory small. The console shows one body at
// a time, yet loaders hand over every skill's and command's text: at 10,000 packages that
// is most of the memory the console keeps. So the load command lets go of each body the
// loader says lies verbatim in its file (Component.BodyStart/BodyEnd) when that file's
// SHA-256 is among the component's files, and the Content tab and the content filter read
// it back in a command, through the package's bounded reader, checked against that digest.
// A file edited since the load is never shown as the reviewed text: the approval binds the
// bytes vouch loaded, so the tab says the file changed and R reloads it.

// errBodyChanged says a body's file no longer holds the bytes vouch loaded.
var errBodyChanged = errors.New("the file changed on disk since vouch loaded it")

// hasText reports whether c has a text body, held or let go.
func hasText(c *model.Component) bool { return c.Body != "" || bodyDropped(c) }

// bodyDropped reports whether c's body was let go, to be read back from its file.
func bodyDropped(c *model.Component) bool { return c.Body == "" && c.BodyEnd > c.BodyStart }

// bodyEntry is the file entry of c's body file: its digest is what a read-back is
// checked against. false when c has no such entry (or a link in its place).
func bodyEntry(c *model.Component) (model.File, bool) {
	if c.BodyFile == "" {
		return model.File{}, false
	}
	for _, f := range c.Files {
		if f.Path == c.BodyFile {
			return f, f.Link == "" && f.SHA256 != "" && f.Size >= int64(c.BodyEnd)
		}
	}
	return model.File{}, false
}

// dropBodies lets go of every body of pkgs that can be read back, and returns why each
// of them must not be handed to a markdown renderer (skills.SlowToRender, asked now,
// while the text is here; only the bodies with a reason are listed). It runs in the load
// command, before any other goroutine sees the packages.
func dropBodies(pkgs []*model.Package) map[*model.Component]string {
	var slow map[*model.Component]string
	for _, p := range pkgs {
		compactLists(p)
		if p.Reader == nil {
			continue
		}
		for _, c := range p.Components {
			if c.Body == "" || c.BodyEnd-c.BodyStart != len(c.Body) || c.BodyStart < 0 {
				continue
			}
			if _, ok := bodyEntry(c); !ok {
				continue
			}
			if why := skills.SlowToRender(c.Body); why != "" {
				if slow == nil {
					slow = map[*model.Component]string{}
				}
				slow[c] = why
			}
			c.Body = ""
		}
	}
	return slow
}

// readBody reads c's body back from its file through p's reader: the file must still
// hash to the digest recorded when it was loaded (errBodyChanged otherwise).
func readBody(p *model.Package, c *model.Component) (string, error) {
	f, ok := bodyEntry(c)
	if !ok || p.Reader == nil {
		return "", errors.New("its file is not recorded, so it cannot be read again")
	}
	data, err := p.Reader.ReadFile(c.BodyFile)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", c.BodyFile, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != f.SHA256 || len(data) < c.BodyEnd {
		return "", errBodyChanged
	}
	return string(data[c.BodyStart:c.BodyEnd]), nil
}

// bodyReadMsg is a body read back for the Content tab.
type bodyReadMsg struct {
	comp *model.Component
	text string
	err  error
}

// readBodyCmd reads c's body off the update loop.
func readBodyCmd(p *model.Package, c *model.Component) tea.Cmd {
	return func() tea.Msg {
		text, err := readBody(p, c)
		return bodyReadMsg{comp: c, text: text, err: err}
	}
}

// bodyCacheSize is how many bodies read back the detail pane keeps: the last few a
// reviewer went through, never all of them.
const bodyCacheSize = 32

// bodyCache keeps the most recently used bodies read back, the newest last.
type bodyCache struct {
	entries []bodyReadMsg
}

func (b *bodyCache) get(c *model.Component) (bodyReadMsg, bool) {
	for i, e := range b.entries {
		if e.comp == c {
			copy(b.entries[i:], b.entries[i+1:])
			b.entries[len(b.entries)-1] = e
			return e, true
		}
	}
	return bodyReadMsg{}, false
}

func (b *bodyCache) put(e bodyReadMsg) {
	for i, old := range b.entries {
		if old.comp == e.comp {
			b.entries = append(b.entries[:i], b.entries[i+1:]...)
			break
		}
	}
	if len(b.entries) >= bodyCacheSize {
		b.entries = append(b.entries[:0], b.entries[1:]...)
	}
	b.entries = append(b.entries, e)
}

func (b *bodyCache) reset() { b.entries = nil }

// compactLists gives the lists a loader built by appending (a package's components, each
// component's summary, details, capabilities and diagnostics) their exact size: the
// console keeps them for as long as it runs, and growth left up to half of each unused.
// The lists are copied, never changed; a shared one (a support list) is not touched.
func compactLists(p *model.Package) {
	p.Components = exact(p.Components)
	for _, c := range p.Components {
		c.Summary = exact(c.Summary)
		c.Details = exact(c.Details)
		c.Capabilities = exact(c.Capabilities)
		c.Diagnostics = exact(c.Diagnostics)
	}
}

// exact is s in a slice of its length, or s when it is that already.
func exact[S ~[]E, E any](s S) S {
	if cap(s) == len(s) {
		return s
	}
	return append(S(nil), s...)
}

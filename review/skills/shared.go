package skills

import (
	"path"
	"slices"
	"strings"
	"sync"

	"vouch/model"
	"vouch/review/fsguard"
)

// Shared holds the skills one folder's loaders have read, so that the formats of a folder
// read and parse each skill once: a plugin with both a .claude-plugin/ and a
// .codex-plugin/ manifest has its skills/ loaded by the Claude Code and the Codex reader,
// often at the same time on two goroutines. The first to ask for a skill reads it; the
// other waits for that read and gets a copy of its own, with its own tolerance applied
// and the read's cost counted against its own root's limits, as if it had read the files
// itself. A nil *Shared reads every skill afresh. It is safe for concurrent use.
type Shared struct {
	mu     sync.Mutex
	skills map[sharedKey]*sharedSkill // nil once every reader is done
	// readers is how many loaders have yet to call Done.
	readers int
}

// NewShared returns an empty cache for the n loaders of one folder.
func NewShared(n int) *Shared { return &Shared{skills: map[sharedKey]*sharedSkill{}, readers: n} }

// Done says one loader has finished with the cache. Once every one has, the cache lets go
// of what it holds (each skill's text and bytes), which a search of many folders would
// otherwise keep until its end; a later reader reads afresh.
func (s *Shared) Done() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers--; s.readers <= 0 {
		s.skills = nil
	}
}

// sharedKey names one skill: the real root it was read under, with the limits that
// bounded the read, and its directory there.
type sharedKey struct {
	root   string
	limits fsguard.Limits
	dir    string
}

type sharedSkill struct {
	done chan struct{} // closed once r and reads are set
	r    *readSkill    // as read; never handed out, only copies of it
	// reads is what reading it cost the root it was read through.
	reads fsguard.Reads
	// by is the root it was read through, which has counted the read already.
	by *fsguard.Root
	// own: the read met a limit of its root's package, which another package's budget
	// need not share; every other reader reads the skill itself.
	own bool
}

// Load is LoadTolerant through the cache.
func (s *Shared) Load(root *fsguard.Root, dir string, tolerated func(code string) bool, note string) *model.Component {
	c, _ := s.LoadText(root, dir, tolerated, note)
	return c
}

// LoadText is Load that also returns SKILL.md's bytes as read (nil when it was not read),
// for a reader that parses the file in its own way as well. The bytes are shared: do
// not modify them.
func (s *Shared) LoadText(root *fsguard.Root, dir string, tolerated func(code string) bool, note string) (*model.Component, []byte) {
	r := s.read(root, dir)
	r.finish(tolerated, note)
	return r.c, r.data
}

// Prepare reads, through root, each skill of dirs that no reader of the folder has
// started on, leaving those another reader is reading to it: two readers that prepare
// the same list at once share the reading between them instead of one waiting for the
// other skill by skill. The Load calls that follow take every skill from the cache.
func (s *Shared) Prepare(root *fsguard.Root, dirs []string) {
	if s == nil {
		return
	}
	for _, dir := range dirs {
		if e, mine := s.claim(root, dir); mine {
			e.fill(root, dir)
		}
	}
}

// claim returns the entry of dir under root, and whether it is new, so that the caller
// must fill it.
func (s *Shared) claim(root *fsguard.Root, dir string) (*sharedSkill, bool) {
	k := sharedKey{root: root.Path(), limits: root.Limits(), dir: path.Clean(strings.TrimPrefix(dir, "./"))}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.skills[k]; ok {
		return e, false
	}
	e := &sharedSkill{done: make(chan struct{})}
	if s.skills != nil {
		s.skills[k] = e
	}
	return e, true
}

// read returns a copy of the skill at dir as read through root, or as another root of
// the same folder read it.
func (s *Shared) read(root *fsguard.Root, dir string) *readSkill {
	if s == nil {
		return read(root, dir)
	}
	e, mine := s.claim(root, dir)
	if mine {
		return e.fill(root, dir)
	}
	<-e.done
	if e.by == root {
		return e.r.copy() // read through this root, which counted it then
	}
	if e.own || root.Charge(dir, e.reads) != nil {
		// What this root's budget allows is its own question: reading the skill through
		// it answers it with the diagnostic the limit gives.
		return read(root, dir)
	}
	return e.r.copy()
}

// fill reads the skill for every reader of the folder and returns this reader's copy.
func (e *sharedSkill) fill(root *fsguard.Root, dir string) *readSkill {
	// A reader waiting for this one must never wait for ever: had the read no result,
	// every other reader reads the skill itself.
	e.own = true
	defer close(e.done)
	mark := root.Mark()
	r := read(root, dir)
	e.r, e.reads, e.by, e.own = r, root.ReadsSince(mark), root, limited(r.c)
	return r.copy()
}

// limited reports whether a limit of the package cut the read of the skill short.
func limited(c *model.Component) bool {
	for _, d := range c.Diagnostics {
		if d.Code == "skill-files-limit" {
			return true
		}
	}
	return false
}

// copy returns a readSkill whose component a reader may change (finish does, and so do
// the format loaders after it) without touching the cached one. Files and the bytes
// read are shared: nothing changes them.
func (r *readSkill) copy() *readSkill {
	cp := *r
	c := *r.c
	c.Support = slices.Clone(c.Support)
	c.Capabilities = slices.Clone(c.Capabilities)
	c.Summary = slices.Clone(c.Summary)
	c.Details = slices.Clone(c.Details)
	c.Hidden = slices.Clone(c.Hidden)
	c.DependsOn = slices.Clone(c.DependsOn)
	c.NotCovered = slices.Clone(c.NotCovered)
	c.Diagnostics = slices.Clone(c.Diagnostics)
	if c.Contract != nil {
		ct := *c.Contract
		ct.Fields = slices.Clone(ct.Fields)
		c.Contract = &ct
	}
	cp.c = &c
	return &cp
}

// ReadCount is how many skills have been read from their files since the program
// started: a test of a folder's loaders tells one read per skill from one per format.
func ReadCount() int64 { return reads.Load() }

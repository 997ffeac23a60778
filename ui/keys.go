package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every binding the console answers to. Bindings that cannot apply to the
// current selection are disabled, so the help line only offers what will work.
type KeyMap struct {
	Up, Down         key.Binding
	Top, Bottom      key.Binding
	PageUp, PageDown key.Binding
	NextTab, PrevTab key.Binding
	Tab              key.Binding // 1-5
	NextReview       key.Binding
	// NextMatch and PrevMatch take over n and N while a filter is set: they move between
	// the rows that matched it, as n and N do after / in less, vim and the file view.
	NextMatch, PrevMatch key.Binding
	NextPkg, PrevPkg     key.Binding
	Fold                 key.Binding
	Sort                 key.Binding // components in package order, or by risk
	PrevReview           key.Binding
	Filter               key.Binding
	Views                key.Binding // the command bar: ':' starts the filter with a view
	ClearFilter          key.Binding
	Approve, Revoke      key.Binding
	ApproveAll           key.Binding // every approvable component of the package, one dialog
	OpenFile             key.Binding // the file view of the selection's closure files
	Market               key.Binding // the table of a marketplace's entries
	Copy, CopyDigest     key.Binding // OSC 52: the REF (a package's location), the digest
	Instructions         key.Binding
	Raw                  key.Binding
	Reload               key.Binding // read the sources from disk again
	Help                 key.Binding
	Quit                 key.Binding
	Confirm, Cancel      key.Binding
	Overwrite            key.Binding // a hand-edited instruction block: o, then y
	AcceptFilter         key.Binding
}

// DefaultKeyMap returns the console's bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:           key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:          key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first")),
		Bottom:       key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last")),
		PageUp:       key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "scroll pane up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn", "scroll pane down")),
		NextTab:      key.NewBinding(key.WithKeys("tab", "l", "right"), key.WithHelp("tab", "next tab")),
		PrevTab:      key.NewBinding(key.WithKeys("shift+tab", "h", "left"), key.WithHelp("shift+tab", "previous tab")),
		Tab:          key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-5", "tab")),
		NextReview:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next approvable")),
		PrevReview:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous to review")),
		NextMatch:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match"), key.WithDisabled()),
		PrevMatch:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match"), key.WithDisabled()),
		NextPkg:      key.NewBinding(key.WithKeys("}", "J"), key.WithHelp("}", "next package")),
		PrevPkg:      key.NewBinding(key.WithKeys("{", "K"), key.WithHelp("{", "previous package")),
		Fold:         key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "fold/unfold package")),
		Sort:         key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sort by risk / package order")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Views:        key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "views (:hooks :changed :mcp :exec :unreviewed)")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"), key.WithDisabled()),
		Approve:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Revoke:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "revoke")),
		ApproveAll:   key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "approve package")),
		OpenFile:     key.NewBinding(key.WithKeys("f", "o"), key.WithHelp("f", "open files")),
		Market:       key.NewBinding(key.WithKeys("M", "enter"), key.WithHelp("M/enter", "marketplace table"), key.WithDisabled()),
		Copy:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy REF")),
		CopyDigest:   key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy digest")),
		Instructions: key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "activate instruction")),
		Raw:          key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "raw/rendered")),
		Reload:       key.NewBinding(key.WithKeys("R", "ctrl+r"), key.WithHelp("R", "reload from disk")),
		Help:         key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Quit:         key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Confirm:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "confirm")), // Y copies a digest: never a confirmation
		Cancel:       key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "cancel")),
		Overwrite:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "overwrite hand edits"), key.WithDisabled()),
		AcceptFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
	}
}

// ShortHelp is the one-line help of the browsing state.
func (k KeyMap) ShortHelp() []key.Binding {
	// Actions and the way out first: a narrow window cuts the tail of this line.
	return []key.Binding{k.Approve, k.Revoke, k.Instructions, k.NextMatch, k.NextReview, k.Help, k.Quit, k.OpenFile, k.ApproveAll, k.Down, k.NextTab, k.Filter, k.Raw}
}

// FullHelp is the help that `?` opens.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.NextMatch, k.PrevMatch, k.NextReview, k.PrevReview, k.NextPkg, k.PrevPkg, k.Fold},
		{k.NextTab, k.PrevTab, k.Tab, k.PageUp, k.PageDown, k.Raw},
		{k.Approve, k.ApproveAll, k.Revoke, k.Instructions, k.OpenFile, k.Market, k.Copy, k.CopyDigest},
		{k.Filter, k.ClearFilter, k.Reload, k.Help, k.Quit},
	}
}

// dialogKeys is the help of a confirmation dialog: only y and n/esc.
type dialogKeys struct{ k *KeyMap }

func (d dialogKeys) ShortHelp() []key.Binding {
	return []key.Binding{d.k.Confirm, d.k.Cancel, d.k.PageDown}
}
func (d dialogKeys) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// filterKeys is the help while typing a filter.
type filterKeys struct{ k *KeyMap }

func (f filterKeys) ShortHelp() []key.Binding {
	esc := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))
	text := key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "search text too"))
	return []key.Binding{f.k.AcceptFilter, esc, text}
}
func (f filterKeys) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }

// closeKeys is the help of a full-screen view (file view, key list): its own footer
// lists its keys; the help line says how to leave.
type closeKeys struct{}

func (closeKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q/esc", "back")), key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))}
}
func (c closeKeys) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

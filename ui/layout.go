package ui

// layout sizes every pane from the window size. It is the only place sizes are set.
func (m *Model) layout() {
	if m.width < MinWidth || m.height < MinHeight {
		return
	}
	bh := m.bodyHeight()
	tw := m.treeOuterWidth()
	frame := m.styles.Pane.GetHorizontalFrameSize()
	vframe := m.styles.Pane.GetVerticalFrameSize()
	m.tree.SetSize(tw-frame, bh-vframe)
	m.detail.SetSize(m.width-tw-frame, bh-vframe)
	if m.dialog != nil {
		m.dialog.SetSize(min(m.width-2, 100), bh)
	}
	if m.prompt != nil {
		m.prompt.SetSize(min(m.width-2, 100), bh)
	}
	if m.fileView != nil {
		m.fileView.SetSize(m.width, bh)
	}
	if m.marketView != nil {
		m.marketView.SetSize(m.width, bh)
	}
	m.help.SetWidth(m.width)
}

// bodyHeight is the height between the header and the status and help lines.
func (m *Model) bodyHeight() int { return m.height - 2 - m.helpHeight() }

// treeOuterWidth is the tree pane's width, border included: two fifths of the window,
// never so narrow that a row loses its answers.
func (m *Model) treeOuterWidth() int {
	return min(max(m.width*2/5, 38), 72)
}

package instructions

// Revert undoes a committed preview: it puts Before back (or deletes a file the apply
// created) if the file still holds exactly what Commit wrote. Callers use it when the
// ledger decision that should accompany the write cannot be recorded. It goes through the
// same resolved, locked destination as Commit.
func Revert(p *Preview) error {
	if p == nil || p.NoChange {
		return nil
	}
	d, err := openDest(p.Target, false)
	if err != nil {
		return err
	}
	defer d.close()
	return revertTo(d, p)
}

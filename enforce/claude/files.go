package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"vouch/enforce"
	"vouch/internal/atomicfile"
	"vouch/review/jsontext"
)

// maxClientFile bounds each of Claude's JSON files read here: they list plugins and
// settings, not package content.
const maxClientFile = 8 << 20

// readObject reads one of Claude's JSON files with exact keys; a missing file is an
// empty object and exists is false.
func readObject(path string) (o *jsonObject, exists bool, err error) {
	data, err := atomicfile.ReadRegular(path, maxClientFile)
	if errors.Is(err, os.ErrNotExist) {
		return &jsonObject{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %w", path, err)
	}
	o, err = parseObject(path, data)
	return o, true, err
}

// keysOf lists the names of the object member key ("" = the object itself).
func keysOf(o *jsonObject, file, key string) ([]string, error) {
	if key != "" {
		var err error
		if o, err = o.child(file, key); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(o.members))
	for _, m := range o.members {
		out = append(out, m.key)
	}
	return out, nil
}

// installedIDs are the plugin ids (NAME@MARKETPLACE) in installed_plugins.json.
func installedIDs(p Paths) ([]string, error) {
	f := filepath.Join(p.Plugins, "installed_plugins.json")
	o, _, err := readObject(f)
	if err != nil {
		return nil, err
	}
	return keysOf(o, f, "plugins")
}

// knownMarketplace reports whether Claude has a marketplace of that name recorded.
func knownMarketplace(p Paths, name string) bool {
	o, _, err := readObject(filepath.Join(p.Plugins, "known_marketplaces.json"))
	return err == nil && o.get(name) != nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// editSettings rewrites the user settings.json under a lock, re-read afresh, keeping
// every member vouch does not change byte for byte; a file that does not parse is
// refused with its name.
func editSettings(p Paths, change func(o *jsonObject) error) error {
	lock := filepath.Join(p.Config, ".settings.json.vouch-lock")
	return atomicfile.Edit(p.Settings, lock, maxClientFile, 0o600, func(old []byte, exists bool) ([]byte, error) {
		o, err := parseObject(p.Settings, old)
		if err != nil {
			return nil, err
		}
		if err := change(o); err != nil {
			return nil, err
		}
		out := o.render(0)
		if !exists || strings.HasSuffix(string(old), "\n") {
			out = append(out, '\n')
		}
		return out, nil
	})
}

// setEnabled sets enabledPlugins[id] in the settings object; raw is the value's text,
// nil to delete it. It returns the text the member had ("null" when absent), for a
// later restore.
func setEnabled(o *jsonObject, file, id string, raw []byte) (json.RawMessage, error) {
	ep, err := o.child(file, "enabledPlugins")
	if err != nil {
		return nil, err
	}
	prev := json.RawMessage("null")
	if m := ep.get(id); m != nil {
		prev = append(json.RawMessage(nil), m.raw...)
	}
	if raw == nil {
		ep.delete(id)
	} else {
		ep.set(id, raw)
	}
	o.set("enabledPlugins", ep.render(1))
	return prev, nil
}

// enabledValue reads enabledPlugins[id] of an object as Claude does: true, or a list of
// version constraints, enables.
func enabledValue(o *jsonObject, id string) (present, on bool) {
	m := o.get("enabledPlugins")
	if m == nil || m.val.Kind != jsontext.Object {
		return false, false
	}
	v := m.val.Get(id)
	if v == nil {
		return false, false
	}
	return true, v.Val.Kind == jsontext.Bool && v.Val.Bool || v.Val.Kind == jsontext.Array
}

// writeFolder replaces dir with a folder holding exactly files (path → bytes), written
// beside it and renamed into place, for vouch's own plugin (the guard).
func writeFolder(dir string, files map[string][]byte) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".vouch-stage-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	for _, rel := range sortedKeys(files) {
		p := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFlushed(p, files[rel], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := removeFolder(dir); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	done = true
	return atomicfile.SyncDir(parent)
}

// removeFolder removes a staged folder: renamed aside first, so Claude never reads a
// half-removed plugin, then deleted.
func removeFolder(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	aside := filepath.Join(filepath.Dir(dir), ".vouch-removed-"+filepath.Base(dir))
	os.RemoveAll(aside)
	if err := os.Rename(dir, aside); err != nil {
		return fmt.Errorf("cannot remove %s: %w", dir, err)
	}
	_ = atomicfile.SyncDir(filepath.Dir(dir))
	return os.RemoveAll(aside)
}

// writeMarketplace writes vouch's marketplace.json: the guard and every enforced plugin,
// each read from its folder by a relative source, the one form observed to be read in
// place at every session (Claude Code [Version]).
func writeMarketplace(l enforce.Layout, names []string) error {
	type entry struct {
		Name        string `json:"name"`
		Source      string `json:"source"`
		Description string `json:"description,omitempty"`
	}
	doc := struct {
		Name  string `json:"name"`
		Owner struct {
			Name string `json:"name"`
		} `json:"owner"`
		Metadata struct {
			Description string `json:"description"`
		} `json:"metadata"`
		Plugins []entry `json:"plugins"`
	}{Name: Marketplace}
	doc.Owner.Name = "vouch"
	doc.Metadata.Description = "Plugins staged by vouch from approved bytes only; vouch rewrites this folder, edits are lost."
	doc.Plugins = append(doc.Plugins, entry{Name: GuardName, Source: "./plugins/" + GuardName, Description: "Refuses MCP calls to servers not approved in vouch and lists what loads outside vouch."})
	sorted := append([]string(nil), names...)
	sortStrings(sorted)
	for _, n := range sorted {
		doc.Plugins = append(doc.Plugins, entry{Name: n, Source: "./plugins/" + n})
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(MarketplaceDir(l), ".claude-plugin", "marketplace.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, append(data, '\n'), 0o644)
}

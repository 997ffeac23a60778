package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"vouch/internal/textclip"
	"vouch/model"
)

// A finding is one thing SARIF and GitHub annotations report: a diagnostic, a component
// that is not approved, hidden content, or what an approval cannot cover. Both outputs
// are built from the same list, so they always say the same things at the same places.
type finding struct {
	rule    ruleInfo
	level   string // error, warning, note
	message string // raw; each writer makes it safe for its sink
	file    string // absolute path of the file it is about; "" when none is known
	line    int    // 1-based; 0 when the file has no line (an archive)
	related []string
	// key identifies the finding across runs for fingerprints: what it is about, never
	// a line number or a digest, which change when nothing about the finding does.
	key      string
	pkg, ref string
	auth     model.Authorization
}

// ruleInfo is what a SARIF rule says about every finding of its kind.
type ruleInfo struct {
	id, short, full string
	severity        float64 // GitHub's security-severity, 0.0 to 10.0
	tags            []string
}

// findings lists everything r reports, in report order.
func findings(r *Report, o SARIFOptions) []finding {
	var out []finding
	for _, d := range r.Diagnostics {
		f := diagFinding(d, o)
		if d.File != "" && filepath.IsAbs(d.File) {
			f.file, f.line = o.fileOf(d.File, ""), max(d.Line, 1)
		}
		f.key = d.Code + "\x00" + d.File + "\x00" + d.Pointer + "\x00" + d.Message
		out = append(out, f)
	}
	for _, p := range r.Packages {
		archive := isArtifactPath(p.Path)
		manifest := o.fileOf(p.Path, p.Format)
		files := filesBase(p)
		at := func(file string, line int) (string, int) {
			switch {
			case archive:
				return p.Path, 1 // a member of an archive has no file of its own on disk
			case file == "":
				return manifest, 1
			}
			return filepath.Join(files, filepath.FromSlash(file)), max(line, 1)
		}
		for _, d := range p.Diagnostics {
			f := diagFinding(d, o)
			f.file, f.line = at(d.File, d.Line)
			f.message, f.pkg = p.Name+": "+d.Message, p.Name
			f.key = d.Code + "\x00" + p.Name + "\x00" + d.File + "\x00" + d.Pointer + "\x00" + d.Message
			out = append(out, f)
		}
		for _, c := range p.Components {
			for _, d := range c.Diagnostics {
				f := diagFinding(d, o)
				f.file, f.line = at(d.File, d.Line)
				f.message, f.pkg, f.ref = c.Ref+": "+d.Message, p.Name, c.Ref
				f.key = d.Code + "\x00" + c.Ref + "\x00" + d.File + "\x00" + d.Pointer + "\x00" + d.Message
				out = append(out, f)
			}
			for _, h := range c.Hidden {
				f := finding{rule: hiddenRule(h.Kind), level: "warning", pkg: p.Name, ref: c.Ref,
					message: fmt.Sprintf("%s: %s at line %d is hidden when the text is rendered, but an agent reads it: %s", c.Ref, h.Kind, h.Line, clip(h.Text, 300)),
					key:     "hidden\x00" + c.Ref + "\x00" + h.Kind + "\x00" + h.Text}
				f.file, f.line = at(c.BodyFile, h.Line)
				if c.BodyFile == "" {
					f.line = 1
				}
				out = append(out, f)
			}
			for _, n := range c.NotCovered {
				f := finding{rule: ruleInfo{id: "not-covered-" + n.Kind, short: "Not covered by an approval: " + n.Kind,
					full:     "What this component depends on that no approval can bind (" + n.Kind + "): review it yourself; vouch check cannot detect a change in it.",
					severity: 2.0, tags: []string{"security", "supply-chain"}},
					level: "note", message: c.Ref + ": " + n.Subject + ": " + n.Detail, pkg: p.Name, ref: c.Ref,
					key: "not-covered\x00" + c.Ref + "\x00" + n.Kind + "\x00" + n.Subject}
				f.file, f.line = at("", 0)
				out = append(out, f)
			}
			for _, r := range c.Risks {
				f := riskFinding(c, r)
				f.pkg, f.ref = p.Name, c.Ref
				f.file, f.line = at("", 0)
				out = append(out, f)
			}
			if c.Authorization == "" || c.Authorization == model.Approved || model.Kind(c.Kind).Inert() {
				continue
			}
			f := finding{rule: authorizationRule(c.Authorization), level: "warning", pkg: p.Name, ref: c.Ref, auth: c.Authorization,
				message: c.Ref + " is " + string(c.Authorization), key: "authorization\x00" + c.Ref}
			if o.RequireApproved || c.Authorization == model.Changed || c.Authorization == model.Revoked {
				f.level = "error"
			}
			if c.Reason != "" {
				f.message += ": " + c.Reason
			}
			f.file, f.line = at("", 0)
			if !archive {
				// A reviewer of a changed component starts at the file that changed.
				first := ""
				for _, cf := range c.ChangedFiles {
					abs := filepath.Join(files, filepath.FromSlash(cf))
					f.related = append(f.related, abs)
					if st, err := os.Lstat(abs); first == "" && err == nil && st.Mode().IsRegular() {
						first = abs
					}
				}
				if first != "" {
					f.file, f.line = first, 1
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// riskFinding reports what a component reaches on the network: code fetched and run is
// a warning, hosts reached a note. The message holds package text (a host, a command);
// each writer makes it safe for its sink.
func riskFinding(c Component, r model.Capability) finding {
	f := finding{level: "note", message: c.Ref + ": " + clip(r.Detail, 600), key: "risk\x00" + c.Ref + "\x00" + string(r.Kind) + "\x00" + strings.Join(r.Scope, "\x00")}
	f.rule = ruleInfo{id: "network", short: "Reaches the network",
		full:     "The component's command line or a bundled script it runs names a host or runs a network tool: what it sends and receives there is not part of what vouch can show.",
		severity: 4.0, tags: []string{"security", "network"}}
	if r.Kind == model.CapRemoteCode {
		f.level = "warning"
		f.rule = ruleInfo{id: "remote-code", short: "Fetches code over the network and runs it",
			full:     "The component's command line or a bundled script it runs downloads code and runs it (a download piped to a shell, a package runner, a package install): those bytes are not part of any approval.",
			severity: 7.0, tags: []string{"security", "supply-chain"}}
	}
	return f
}

// filesBase is the folder a package's file paths are relative to: its root, except for a
// Dalo package, whose paths are relative to its source (the folder holding plugins/).
func filesBase(p Package) string {
	if p.Format == string(model.FormatDalo) {
		return filepath.Dir(filepath.Dir(p.Path))
	}
	return p.Path
}

func diagFinding(d model.Diagnostic, o SARIFOptions) finding {
	level := sarifLevel(d.Severity)
	full := "vouch diagnostic " + d.Code + "."
	if d.Spec != "" {
		full += " See " + d.Spec + "."
	}
	sev := map[string]float64{"error": 5.0, "warning": 3.0, "note": 1.0}[level]
	return finding{rule: ruleInfo{id: d.Code, short: d.Code, full: full, severity: sev, tags: []string{"security", "validity"}},
		level: level, message: d.Message}
}

func hiddenRule(kind string) ruleInfo {
	return ruleInfo{id: "hidden-" + kind, short: "Hidden content: " + kind,
		full:     "Text that a markdown view does not show a reviewer, but that an agent reading the file receives (" + kind + "). Read the raw text before approving.",
		severity: 7.5, tags: []string{"security", "prompt-injection", "hidden-content"}}
}

func authorizationRule(a model.Authorization) ruleInfo {
	sev := map[model.Authorization]float64{model.Unreviewed: 7.0, model.Changed: 8.0, model.Revoked: 8.0, model.Blocked: 6.0}[a]
	return ruleInfo{id: "authorization-" + string(a), short: "Component " + string(a), full: authorizationHelp[a],
		severity: sev, tags: []string{"security", "authorization"}}
}

// fileOf is the file a location names for path: path itself when it is a file (an
// archive, a manifest given as SOURCE), else the package manifest found in that folder
// (SARIFOptions.Manifest), else the folder.
func (o SARIFOptions) fileOf(path, format string) string {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return path
	}
	if o.Manifest != nil {
		if m := o.Manifest(format, path); m != "" {
			return m
		}
	}
	return path
}

// fingerprint is a finding's partialFingerprints value: the rule, what it is about and
// the file's path, hashed.
func (f finding) fingerprint(uri string) string {
	h := sha256.Sum256([]byte(f.rule.id + "\x00" + f.key + "\x00" + uri))
	return hex.EncodeToString(h[:16])
}

// githubOrder sorts findings for annotations: GitHub shows only ten of each level per
// step, so what changed or was revoked comes first, then errors, warnings and notes.
func githubOrder(fs []finding) []finding {
	rank := func(f finding) int {
		switch {
		case f.auth == model.Changed:
			return 0
		case f.auth == model.Revoked:
			return 1
		case f.level == "error":
			return 2
		case f.level == "warning":
			return 3
		}
		return 4
	}
	out := append([]finding(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// clip shortens s to n runes, saying so.
func clip(s string, n int) string {
	head, more := textclip.Cut(s, n)
	if more == 0 {
		return s
	}
	return head + "… (" + strconv.Itoa(more) + " more characters)"
}

// safeText makes package text safe for SARIF and the step summary: control, C1, bidi
// and invisible characters become \u escapes, so a viewer shows them rather than acting
// on them. Newlines and tabs stay in SARIF text, which GitHub shows as text.
func safeText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == 0x7f || model.IsHiddenRune(r) || r == 0xfffd }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == 0x7f || model.IsHiddenRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

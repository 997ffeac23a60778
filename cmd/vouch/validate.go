package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"vouch/model"
	"vouch/report"
	"vouch/review"
	"vouch/trust"
)

func writeJSON(w io.Writer, v any) { _ = report.WriteJSON(w, v) }

// reportFlags are the arguments and flags validate and status share: which sources the
// report covers and how it is printed.
type reportFlags struct {
	sources   []string // SOURCE...
	json      bool     // --json
	format    string   // --format: text, json, sarif or github (--json is json)
	claude    bool     // --claude: the installed Claude Code plugins are a SOURCE too
	sourceID  string   // --source-id
	sarifRoot string   // --sarif-root
}

// reportCommand completes validate or status (cmd holds its texts) with SOURCE... (none
// needed with --claude), --json, --format, --claude and --source-id (described by
// sourceIDHelp); the caller binds its own flags and then --sarif-root.
func (f *reportFlags) reportCommand(cmd *cobra.Command, sourceIDHelp string, run func() error) *cobra.Command {
	cmd.Args = sourcesOrInstalled(&f.claude)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		f.sources = args
		return run()
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "print the report as JSON (schemas/vouch/report-v1.schema.json); the same as --format json")
	cmd.Flags().StringVar(&f.format, "format", "", "output: text (default), json, sarif (SARIF 2.1.0 for code scanning) or github (workflow annotations)")
	addClaudeFlag(cmd, &f.claude)
	cmd.Flags().StringVar(&f.sourceID, "source-id", "validation", sourceIDHelp)
	return cmd
}

// validateOptions are validate's flags and arguments.
type validateOptions struct {
	app *app
	reportFlags
	integrity string // --integrity
}

func newValidateCommand(a *app) *cobra.Command {
	opts := &validateOptions{app: a}
	cmd := opts.reportCommand(&cobra.Command{
		Use:   "validate [--json] [--source-id ID] [--integrity sha256-HEX] SOURCE...",
		Short: "Check packages against their format (valid / invalid), without authorizing anything",
		Long: `Validate finds every package under each SOURCE and checks each against its specification. It
reads these formats:
` + review.FormatLines("  ") + `A SOURCE may be any directory holding those up to 4 levels down, searched
completely up to 100,000 package roots and 2,000,000 directory entries.
Each problem is reported at the narrowest boundary the specification gives it: the whole package,
one component type, one component or one entry.

A package is valid when it is accepted at its boundary: a plugin whose only faults are
skipped entries is valid, with those entries listed as skipped and their errors counted.

Exit status: 0 every package is valid and no error diagnostic exists; 1 any error diagnostic
anywhere (a package rejected, a component invalid or skipped, a component type disabled, a
required reference unresolved, an --integrity check failed), nothing was found, or a SOURCE
was not searched completely (a folder that cannot be listed, a search bound reached); 2 usage
error (including a malformed --integrity) or missing path.`,
		Example: `  vouch validate examples
  vouch validate --json ./my-plugin | jq '.packages[].components[] | select(.validity != "valid")'
  vouch validate --integrity sha256-3f4a... package.tar.gz
  vouch validate --exclude node_modules --exclude '**/testdata' .`,
	}, "source identity used in Dalo references such as skill:<source-id>:review", func() error { return runValidate(opts) })
	cmd.Flags().StringVar(&opts.integrity, "integrity", "", "expected sha256-<64 hex digits> (or sha256:<hex>) of a Splice archive or bundle; a mismatch fails validation")
	addSARIFRootFlag(cmd, &opts.sarifRoot)
	return cmd
}

// statusOptions are status's flags and arguments; review without a terminal prints the
// status report with the defaults.
type statusOptions struct {
	app *app
	reportFlags
	ledger string // --ledger: the team ledger file
	// trustLedger is --trust-ledger: count every decision of --ledger FILE.
	trustLedger bool
	codex       bool // --codex: Codex's own hook trust beside vouch's
	// requireApproved is --require-approved: the gate, and SARIF and GitHub output then
	// mark every component that is not approved as an error, as the gate fails on it.
	requireApproved bool
	// ledgerBase is --ledger-base REF|FILE: only the team ledger's decisions as they are
	// there count, so a change cannot approve itself; allowNewApprovals lets the change's
	// own approvals count (after someone reviewed the ledger diff), refuseAutomation
	// leaves out approvals recorded as automation.
	ledgerBase        string
	allowNewApprovals bool
	refuseAutomation  bool
	gate              *gateLedger
}

func newStatusCommand(a *app) *cobra.Command {
	opts := &statusOptions{app: a}
	cmd := opts.reportCommand(&cobra.Command{
		Use:   "status [--json] [--require-approved] SOURCE...",
		Short: "Show every component's three answers: valid, supported, authorized",
		Long: `Status lists every component of every package under each SOURCE with its three answers:
  valid       does it follow its format?
  supported   which clients or providers can run it as declared?
  authorized  unreviewed, approved (these exact bytes), changed (approved bytes differ from
              what is on disk now), revoked, or blocked (invalid, unsupported everywhere, or a
              required member missing: it cannot be approved).
Decisions are read from the personal ledger (<home>/ledger.toml) and a team ledger
(.vouch/ledger.toml in the source's repository, or --ledger FILE); personal decisions win.
A team ledger counts as far as "vouch ledger trust" confirmed it, its revokes at once;
--trust-ledger counts all of FILE (a CI job's own base ledger).

Exit status: 0 when the report was printed; 1 when a SOURCE was not reviewed completely
(nothing found in it, a folder that cannot be listed, a search bound reached); with
--require-approved, 0 only when packages were found, every one is valid, and every component
is approved (extensions, members and dependencies are inert data and need no approval; a
recommended instruction needs approval only once it is active in a target file), 1
otherwise, with every failing component and its reason on stderr; 2 usage error or missing
path.

In CI on a pull request, --ledger-base REF (a git revision such as origin/main, or a file)
counts only the team ledger's decisions as they are there, plus the revokes the change adds:
an approval the change adds fails the gate as "approved in this change, needs review of the
ledger diff" unless --allow-new-approvals is given.`,
		Example: `  vouch status examples
  vouch status --json --require-approved ./my-plugin   # a CI gate
  vouch status --require-approved --ledger .vouch/ledger.toml --ledger-base origin/main plugins/`,
	}, "source identity used in Dalo references", func() error { return runStatus(opts) })
	cmd.Flags().StringVar(&opts.ledger, "ledger", "", ledgerFlagHelp)
	addTrustLedgerFlag(cmd, &opts.trustLedger)
	cmd.Flags().BoolVar(&opts.codex, "codex", false, "also show Codex's own trust for each Codex hook, read-only from $CODEX_HOME/config.toml (default ~/.codex); support is answered for the Codex release installed (read from its package metadata, never run), else the newest vouch models")
	cmd.Flags().BoolVar(&opts.requireApproved, "require-approved", false, "exit 1 unless packages were found, all are valid and every runnable component is approved (a CI gate)")
	cmd.Flags().StringVar(&opts.ledgerBase, "ledger-base", "", "count only the team ledger's decisions as they are in this git revision (or this file), plus revokes: approvals the change adds fail the gate")
	cmd.Flags().BoolVar(&opts.allowNewApprovals, "allow-new-approvals", false, "with --ledger-base, let approvals the change adds count (after the ledger diff was reviewed); they are still listed")
	cmd.Flags().BoolVar(&opts.refuseAutomation, "refuse-automation", false, "leave out approvals whose reviewer_kind is automation")
	addSARIFRootFlag(cmd, &opts.sarifRoot)
	return cmd
}

// resolve settles the output format (--json is json) and the sources (--claude adds the
// installed plugins), and has support answered for the installed release of each client
// asked about (--claude, and status's --codex).
func (f *reportFlags) resolve(a *app, codex bool) ([]string, error) {
	format, err := a.outputFormat(f.format, f.json)
	if err != nil {
		return nil, err
	}
	f.format = format
	paths, err := a.sourcesWithInstalled(f.sources, f.claude)
	if err != nil {
		return nil, err
	}
	a.targetClients(f.claude, codex)
	return paths, nil
}

func runStatus(opts *statusOptions) error {
	a := opts.app
	paths, err := opts.resolve(a, opts.codex)
	if err != nil {
		return err
	}
	g, err := a.newGateLedger(opts)
	if err != nil {
		return err
	}
	defer g.cleanup()
	opts.gate = g
	rep, st, err := statusData(opts, paths)
	if err != nil {
		return err
	}
	failed := false
	if opts.requireApproved {
		a.warnNotCovered(rep)
		fs := append(g.failures(opts.allowNewApprovals), gateFailures(rep, st)...)
		a.printGateFailures(fs)
		failed = len(fs) > 0
	}
	if opts.allowNewApprovals && !a.jsonErrors {
		for _, d := range g.added {
			fmt.Fprintf(a.stderr, "vouch: approved in this change (counted under --allow-new-approvals): %s %s by %s\n", safe(d.Component), safe(d.Digest), safe(decider(d)))
		}
	}
	if failed || sourceIncomplete(rep) {
		return exitError{1}
	}
	return nil
}

// load runs review.Open with the app's home-derived options. A missing path is exit 2.
func (a *app) load(paths []string, sourceID string) (*review.Result, error) {
	opts, err := a.openOptions(sourceID)
	if err != nil {
		return nil, err
	}
	// Streamed rather than opened whole only so the progress line can count packages as
	// they arrive; the result is the same.
	res := &review.Result{}
	prog := a.startProgress()
	res.Diagnostics, err = review.Stream(opts, paths, func(batch []*model.Package) bool {
		res.Packages = append(res.Packages, batch...)
		prog.add(len(batch))
		return true
	})
	prog.end()
	if err != nil {
		return nil, a.loadFailed(err)
	}
	res.Diagnostics = append(append([]model.Diagnostic(nil), a.clientNotes...), res.Diagnostics...)
	return res, nil
}

// openOptions are the options every command loads sources with: the Dalo source id,
// the data directory ${PLUGIN_DATA} is shown under and the MCP Bundle signing roots,
// derived from the home. Roots that cannot be read are an error (exit 2), never an
// empty set that would call every signer unconfirmed without saying why.
func (a *app) openOptions(sourceID string) (review.Options, error) {
	opts := a.loadBase
	opts.SourceID = sourceID
	opts.Exclude = a.exclude
	if home, err := trust.ResolveHome(a.home); err == nil && home != "" {
		opts.DataDir = trust.DataDir(home)
		roots, err := signingRoots(home)
		if err != nil {
			return opts, a.fail(2, "signing-roots", errSentence(err.Error()))
		}
		opts.SignatureRoots = roots
	}
	return opts, nil
}

// loadFailed is a load error as the commands report it: a missing path is exit 2.
func (a *app) loadFailed(err error) error {
	if errors.Is(err, review.ErrNotFound) {
		return a.fail(2, "path-not-found", strings.TrimPrefix(err.Error(), review.ErrNotFound.Error()+": ")+" does not exist; give "+sourceForms()+".")
	}
	return a.fail(2, "load-failed", err.Error())
}

func runValidate(opts *validateOptions) error {
	a := opts.app
	paths, err := opts.resolve(a, false)
	if err != nil {
		return err
	}
	format := opts.format
	want := ""
	if opts.integrity != "" {
		if want, err = parseIntegrity(opts.integrity); err != nil {
			return a.fail(2, "usage", err.Error())
		}
	}
	if format == "json" {
		return a.validateJSON(paths, opts.sourceID, want)
	}
	res, err := a.load(paths, opts.sourceID)
	if err != nil {
		return err
	}
	if want != "" {
		res.Diagnostics = append(res.Diagnostics, checkIntegrity(res.Packages, want)...)
	}
	rep := report.Build(res.Packages, res.Diagnostics, nil)
	if err := a.writeReport(rep, format, false, opts.sarifRoot, report.WriteValidationText); err != nil {
		return err
	}
	if !rep.Valid {
		return exitError{1}
	}
	return nil
}

// parseIntegrity reads an --integrity value as Splice's integrity string, "sha256-" and
// the artifact's SHA-256 in 64 hex digits, and returns it in that canonical form
// (lowercase hex). The "sha256:<hex>" spelling vouch prints for digests names the same
// hash and is accepted too, so a value copied from either report works.
func parseIntegrity(s string) (string, error) {
	form := "expected sha256-<64 hex digits> (Splice's integrity string; sha256:<64 hex digits> is accepted too)"
	hex, ok := strings.CutPrefix(s, "sha256-")
	if !ok {
		hex, ok = strings.CutPrefix(s, "sha256:")
	}
	if !ok {
		return "", fmt.Errorf("--integrity %q does not start with sha256- or sha256:; %s.", s, form)
	}
	if len(hex) != 64 {
		return "", fmt.Errorf("--integrity %q has %d characters after the prefix, not 64; %s.", s, len(hex), form)
	}
	for i, c := range hex {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return "", fmt.Errorf("--integrity %q has %q at position %d of the hash, which is not a hex digit; %s.", s, c, i+1, form)
		}
	}
	return "sha256-" + strings.ToLower(hex), nil
}

// validateJSON is validate --json, streamed: each package is written as soon as it and
// every package before it are loaded, then dropped, so memory holds the packages in
// flight, not the source (report.Stream).
func (a *app) validateJSON(paths []string, sourceID, want string) error {
	opts, err := a.openOptions(sourceID)
	if err != nil {
		return err
	}
	for _, p := range paths { // a missing path is exit 2 before anything is written
		if _, err := os.Lstat(p); err != nil {
			_, err := a.load([]string{p}, sourceID)
			return err
		}
	}
	batchCollector()
	out := report.NewStream(a.stdout)
	var artifacts []*model.Package // what --integrity needs of each package
	diags, err := review.Stream(opts, paths, func(batch []*model.Package) bool {
		for _, p := range batch {
			if want != "" {
				artifacts = append(artifacts, &model.Package{Root: p.Root, Integrity: p.Integrity})
			}
		}
		return out.Add(batch...) == nil
	})
	if err != nil {
		return a.fail(2, "load-failed", err.Error())
	}
	if want != "" {
		diags = append(diags, checkIntegrity(artifacts, want)...)
	}
	diags = append(append([]model.Diagnostic(nil), a.clientNotes...), diags...)
	valid, err := out.Close(diags)
	if err != nil || !valid {
		return exitError{1}
	}
	return nil
}

// checkIntegrity compares the expected integrity string with every artifact loaded.
func checkIntegrity(pkgs []*model.Package, want string) []model.Diagnostic {
	var diags []model.Diagnostic
	checked := 0
	for _, p := range pkgs {
		if p.Integrity == "" {
			continue
		}
		checked++
		if p.Integrity != want {
			diags = append(diags, model.Diagnostic{
				Code: "integrity-mismatch", Severity: model.SeverityError, Boundary: model.BoundarySource,
				File: p.Root, Message: fmt.Sprintf("The artifact's integrity is %s, not the expected %s: do not install it.", p.Integrity, want),
				Spec: "splice integrity",
			})
		}
	}
	if checked == 0 {
		diags = append(diags, model.Diagnostic{
			Code: "integrity-not-applicable", Severity: model.SeverityError, Boundary: model.BoundarySource,
			Message: "--integrity was given but no Splice archive or bundle was loaded; integrity applies to artifact files only.",
			Spec:    "splice integrity",
		})
	}
	return diags
}

// statusData loads the sources, evaluates them against the ledgers and prints the status
// report in opts.format (also the console's fallback when stdout is not a terminal). It
// returns the report and the instruction state the gate reads.
func statusData(opts *statusOptions, paths []string) (*report.Report, instrState, error) {
	a := opts.app
	res, err := a.load(paths, opts.sourceID)
	if err != nil {
		return nil, instrState{}, err
	}
	ledger, trusted := opts.ledger, opts.trustLedger
	if opts.gate != nil && opts.gate.file != "" {
		// The gate's ledger is the base's decisions (and the revokes the change added):
		// what was reviewed when it merged counts whole. With --refuse-automation alone
		// it is the head ledger, trusted only as --trust-ledger says.
		ledger, trusted = opts.gate.file, trusted || opts.ledgerBase != ""
	}
	statuses, ledgerDiags, err := a.evaluate(res.Packages, ledger, trusted)
	if err != nil {
		return nil, instrState{}, err
	}
	if opts.gate != nil {
		opts.gate.label(statuses)
	}
	if opts.claude {
		a.markEnforced(res.Packages)
	}
	st := a.homeInstrState()
	res.Diagnostics = append(res.Diagnostics, ledgerDiags...)
	// A block an interrupted apply left in a target is in force though no decision says so.
	res.Diagnostics = append(res.Diagnostics, st.diagnostics()...)
	rep := report.Build(res.Packages, res.Diagnostics, statuses)
	if opts.codex {
		if err := addCodexTrust(rep, res.Packages, a.loadBase.ClientVersions[model.ClientCodex]); err != nil {
			return nil, st, a.fail(1, "codex-config", err.Error())
		}
	}
	if err := a.writeReport(rep, opts.format, opts.requireApproved, opts.sarifRoot, report.WriteStatusText); err != nil {
		return nil, st, err
	}
	return rep, st, nil
}

// evaluate joins trust and review: the status of every component by ref, and a warning
// for each team ledger found next to a source that this home does not trust.
func (a *app) evaluate(pkgs []*model.Package, ledger string, trustLedger bool) (report.Statuses, []model.Diagnostic, error) {
	home, err := trust.ResolveHome(a.home)
	if err != nil {
		return nil, nil, a.fail(2, "home", err.Error())
	}
	t, err := trust.Open(trust.Options{Home: home, TeamLedger: ledger, TrustLedger: trustLedger})
	if err != nil {
		return nil, nil, a.fail(1, "ledger", err.Error())
	}
	out := report.Statuses{}
	var diags []model.Diagnostic
	warned := map[string]bool{}
	roots := map[string][]*model.Package{}
	rated := t.EvaluateAll(pkgs)
	for _, p := range pkgs {
		roots[p.Name] = append(roots[p.Name], p)
		own := map[string]report.Status{}
		out[p] = own
		// Untrusted, pending, rewritten and self-approving team ledgers (trust says which).
		for _, d := range t.LedgerNotices(p) {
			if k := d.Code + "\x00" + d.Message; !warned[k] {
				warned[k] = true
				diags = append(diags, d)
			}
		}
		for ref, s := range rated[p] {
			rs := report.Status{Digest: s.Digest, Authorization: s.Authorization, Reason: s.Reason, Changes: s.Changes, ChangedFiles: s.ChangedFiles}
			if s.Decision != nil {
				rs.Decision = &report.Decision{Action: string(s.Decision.Action), Digest: s.Decision.Digest,
					Reviewer: s.Decision.Reviewer, At: s.Decision.At.UTC().Format("2006-01-02T15:04:05Z"), Ledger: s.Decision.Ledger}
			}
			own[ref] = rs
		}
	}
	for name, ps := range roots {
		if len(ps) > 1 {
			diags = append(diags, model.Diagnostic{Code: "package-name-shared", Severity: model.SeverityWarning,
				Boundary: model.BoundarySource, Message: nameSharedMessage(name, ps)})
		}
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Message < diags[j].Message })
	return out, diags, nil
}

// nameSharedMessage explains how refs tell apart the packages that share name: by the
// format in front when their formats differ (one folder read by two clients), else only
// by the package directory given as SOURCE.
func nameSharedMessage(name string, ps []*model.Package) string {
	formats := map[model.Format]bool{}
	var where []string
	for _, p := range ps {
		formats[p.Format] = true
		where = append(where, string(p.Format)+" in "+p.Root)
	}
	if len(formats) == len(ps) {
		return fmt.Sprintf("%d packages are named %s (%s); their plain refs are the same, so name the format in front where a ref is ambiguous (%s:%s#<kind>:<id>).", len(ps), name, strings.Join(where, ", "), ps[0].Format, name)
	}
	roots := make([]string, len(ps))
	for i, p := range ps {
		roots[i] = p.Root
	}
	return fmt.Sprintf("%d packages are named %s (%s); their refs are the same, so approve, revoke and check need the package directory itself as SOURCE.", len(ps), name, strings.Join(roots, ", "))
}

// sourceIncomplete reports whether a SOURCE could not be reviewed completely: an error
// at the source boundary (nothing found, an unlisted folder, a search bound reached).
func sourceIncomplete(rep *report.Report) bool {
	if len(rep.Packages) == 0 {
		return true
	}
	for _, d := range rep.Diagnostics {
		if d.Boundary == model.BoundarySource && d.IsError() {
			return true
		}
	}
	return false
}

// outputFormat settles --format and --json into one format: text, json, sarif or
// github. Errors are JSON only for json.
func (a *app) outputFormat(format string, jsonOut bool) (string, error) {
	switch {
	case format == "" && jsonOut:
		format = "json"
	case format == "":
		format = "text"
	case jsonOut && format != "json":
		return "", a.fail(2, "usage", fmt.Sprintf("--json and --format %s contradict each other; give one of them.", format))
	}
	switch format {
	case "text", "json", "sarif", "github":
	default:
		return "", a.fail(2, "usage", fmt.Sprintf("--format %q is not one of text, json, sarif, github.", format))
	}
	a.jsonErrors = format == "json"
	a.machine = format != "text"
	return format, nil
}

// writeReport prints rep in format; text goes through the command's printer. With
// requireApproved, SARIF and GitHub output mark what the gate fails on as errors. With
// github, the full list also goes to $GITHUB_STEP_SUMMARY when GitHub Actions sets it.
func (a *app) writeReport(rep *report.Report, format string, requireApproved bool, sarifRoot string, text func(io.Writer, *report.Report, report.TextOptions) error) error {
	so := report.SARIFOptions{Base: resolveSARIFRoot(sarifRoot), Version: currentVersion().Version, ProjectURL: projectURL(),
		Manifest: review.ManifestFile, RequireApproved: requireApproved}
	var err error
	switch format {
	case "json":
		err = report.WriteJSON(a.stdout, rep)
	case "sarif":
		err = report.WriteSARIF(a.stdout, rep, so)
	case "github":
		err = report.WriteGitHub(a.stdout, rep, so)
		if err == nil {
			err = a.writeStepSummary(rep, so)
		}
	default:
		err = text(a.stdout, rep, report.TextOptions{Rel: rel})
	}
	if err != nil {
		return a.fail(1, "write", fmt.Sprintf("cannot write the report: %v", err))
	}
	return nil
}

// validateHeapLimit is the heap validate --json and check collect at (batchCollector).
const validateHeapLimit = 64 << 20

// batchCollector paces the garbage collector for validate --json and check. check holds
// one package and exits. validate --json's live heap is the
// packages in flight, about 10 MiB whatever the source's size: at the default GOGC the
// collector runs every few MiB allocated and takes a third of the CPU, and at GOGC=400
// (the previous setting) still several percent at 10,000 packages. So it collects only when the
// heap nears a fixed bound, validateHeapLimit: peak memory stays about that, flat in
// the package count. Packages in flight that ever hold more make the collector run as
// often as it must (Go caps that at half the CPU), never the heap grow by a multiple.
// GOGC or GOMEMLIMIT, when set, win.
func batchCollector() {
	switch {
	case os.Getenv("GOGC") != "":
	case os.Getenv("GOMEMLIMIT") != "":
		debug.SetGCPercent(400)
	default:
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(validateHeapLimit)
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"vouch/report"
)

// addSARIFRootFlag binds --sarif-root, the folder SARIF and annotation paths are
// relative to.
func addSARIFRootFlag(cmd *cobra.Command, root *string) {
	cmd.Flags().StringVar(root, "sarif-root", "", "make SARIF and --format github paths relative to this folder (default: the top of the git work tree, else the current directory)")
}

// resolveSARIFRoot is --sarif-root, else the top of the git work tree holding the
// current directory (code scanning and annotations take paths relative to the
// repository root), else the current directory.
func resolveSARIFRoot(flag string) string {
	if flag != "" {
		if abs, err := filepath.Abs(flag); err == nil {
			return abs
		}
		return flag
	}
	if top, err := gitOutput("", "rev-parse", "--show-toplevel"); err == nil {
		if t := strings.TrimSpace(top); t != "" {
			return filepath.FromSlash(t)
		}
	}
	wd, _ := os.Getwd()
	return wd
}

// defaultProjectURL is vouch's home page, stamped by release builds
// (-ldflags "-X main.defaultProjectURL=https://github.com/OWNER/vouch"); VOUCH_PROJECT_URL
// overrides it (the action sets it to the repository it runs from).
var defaultProjectURL string

func projectURL() string {
	if u := os.Getenv("VOUCH_PROJECT_URL"); strings.HasPrefix(u, "https://") {
		return u
	}
	return defaultProjectURL
}

// writeStepSummary appends the findings table to $GITHUB_STEP_SUMMARY when it is set.
func (a *app) writeStepSummary(rep *report.Report, so report.SARIFOptions) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonBlock, 0o644)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%s is not a regular file", path)
	}
	if err := report.WriteStepSummary(f, rep, so); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// releaseVersion is stamped by release builds: go build -ldflags "-X main.releaseVersion=v1.2.3".
// Left empty, the module version and VCS stamp Go records in the binary are used.
var releaseVersion string

// buildVersion describes the running binary.
type buildVersion struct {
	Version  string `json:"version"`            // release version, module version or "devel"
	Revision string `json:"revision,omitempty"` // VCS commit the binary was built from
	Time     string `json:"time,omitempty"`     // commit time (RFC 3339)
	Modified bool   `json:"modified"`           // built from a work tree with uncommitted changes
	Go       string `json:"go"`                 // toolchain
	Platform string `json:"platform"`           // GOOS/GOARCH
}

func currentVersion() buildVersion {
	v := buildVersion{Version: releaseVersion, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "devel"
	}
	return v
}

// String is the one line `vouch --version` prints.
func (v buildVersion) String() string {
	s := "vouch " + v.Version
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (" + rev
		if v.Modified {
			s += ", modified"
		}
		if v.Time != "" {
			s += ", " + v.Time
		}
		s += ")"
	}
	return s + " " + v.Go + " " + v.Platform
}

// versionOptions are version's flags.
type versionOptions struct {
	app  *app
	json bool // --json
}

func newVersionCommand(a *app) *cobra.Command {
	opts := &versionOptions{app: a}
	cmd := &cobra.Command{
		Use: "version",
		Example: `  vouch version
  vouch version --json`,
		Short: "Print vouch's version, the commit it was built from and the platform",
		Long: `Print the version of this vouch binary: the release version (stamped with
-ldflags "-X main.releaseVersion=..." by scripts/release), else the Go module version, else "devel";
the VCS revision and time Go recorded at build time, and whether the work tree had
uncommitted changes. "vouch --version" prints the same line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVersion(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the version as JSON")
	return cmd
}

func runVersion(opts *versionOptions) error {
	v := currentVersion()
	if opts.json {
		writeJSON(opts.app.stdout, v)
		return nil
	}
	fmt.Fprintln(opts.app.stdout, v.String())
	return nil
}

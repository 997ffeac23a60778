package main

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"
)

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func (a *app) validateCommand() *cobra.Command { return &cobra.Command{Use: "validate"} }
func (a *app) statusCommand() *cobra.Command   { return &cobra.Command{Use: "status"} }

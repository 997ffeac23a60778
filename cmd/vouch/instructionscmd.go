package main

import "github.com/spf13/cobra"

func (a *app) addInstructionsCommands(root *cobra.Command) {}

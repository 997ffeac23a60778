package main

import "github.com/spf13/cobra"

func (a *app) addTrustCommands(root *cobra.Command) {}

package main

import "github.com/spf13/cobra"

func (a *app) addReviewCommand(root *cobra.Command) {}

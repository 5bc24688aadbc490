package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/urfave/cli/v2"
)

// commands is filled by each command file's init.
var commands []*cli.Command

func register(c *cli.Command) { commands = append(commands, c) }

func newApp() *cli.App {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	return &cli.App{
		Name:                 "fp",
		Usage:                "the fairness–accuracy Pareto front of neural-network classifiers",
		Commands:             commands,
		EnableBashCompletion: true,
		HideHelpCommand:      true,
	}
}

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "fp:", err)
		os.Exit(1)
	}
}

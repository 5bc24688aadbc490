package main

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/model"
)

// commands is filled by each command file's init.
var commands []*cli.Command

// argHints says, for a command that takes no arguments, which flag a stray
// argument was probably meant for.
var argHints = map[string]cliusage.Hint{
	"fp train":   {Flag: "out", What: "the output folder"},
	"fp predict": {Flag: "data", What: "the file to score"},
	"fp audit":   {Flag: "data", What: "the predictions file"},
	"fp export":  {Flag: "model", What: "the network file"},
	"fp bench":   {Flag: "dataset", What: "the dataset"},
}

// register adds a command, made strict about its arguments and flags.
func register(c *cli.Command) {
	cliusage.Strict("fp "+c.Name, c, argHints)
	commands = append(commands, c)
}

func newApp() *cli.App {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	app := &cli.App{
		Name:                 "fp",
		Usage:                "the fairness–accuracy Pareto front of neural-network classifiers",
		Version:              model.CommandVersion(),
		Commands:             commands,
		EnableBashCompletion: true,
		Suggest:              true,
		Action:               cliusage.UnknownCommand,
		// Errors end in main, one line on stderr, never in an os.Exit
		// inside the library.
		ExitErrHandler: func(*cli.Context, error) {},
	}
	cliusage.StrictApp(app)
	return app
}

func init() { cliusage.HideZeroDefaults() }

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "fp:", err)
		var ue *cliusage.Error
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, ue.Usage)
		}
		os.Exit(1)
	}
}

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/records"
)

// decideFlag is the --decide-on flag of the commands that form fronts.
func decideFlag() cli.Flag {
	return &cli.StringFlag{Name: "decide-on", Usage: records.DecideUsage, DefaultText: "selection where every record has selection metrics, else test"}
}

// decideOn resolves --decide-on for the records recs grouped by --by
// (records.ResolveDecideBy), naming the command and the flag in its error.
func decideOn(c *cli.Context, cmd string, recs []records.Record) (records.Decide, error) {
	d, err := records.ResolveDecideBy(c.String("decide-on"), c.String("by"), recs)
	if err != nil {
		return "", fmt.Errorf("%s: --decide-on: %w", cmd, err)
	}
	return d, nil
}

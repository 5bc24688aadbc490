package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/records"
)

// decideFlag is the --decide-on flag of the commands that form fronts.
func decideFlag() cli.Flag {
	return &cli.StringFlag{Name: "decide-on", Usage: records.DecideUsage, DefaultText: "selection where every record has selection metrics, else test"}
}

// decideOn resolves --decide-on for the records recs (records.ResolveDecide),
// naming the command and the flag in its error.
//
// Records of several datasets that the command will refuse as such (no
// --by dataset) are not judged here: that refusal says more.
func decideOn(c *cli.Context, cmd string, recs []records.Record) (records.Decide, error) {
	if !strings.Contains(c.String("by"), "dataset") && len(records.ByData(recs)) > 1 && c.String("decide-on") == "" {
		return records.DecideTest, nil
	}
	d, err := records.ResolveDecide(c.String("decide-on"), recs)
	if err != nil {
		return "", fmt.Errorf("%s: --decide-on: %w", cmd, err)
	}
	return d, nil
}

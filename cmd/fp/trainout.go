package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/runplot"
)

// showTrained prints a finished run: its summary, the front table, the
// non-dominated candidates and the figure; as JSON with --json.
func showTrained(c *cli.Context, sum experiments.Summary, out string) error {
	metric := c.String("metric")
	if !slices.Contains(records.Metrics, metric) {
		return fmt.Errorf("--metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	read, err := readSweeps(c, "train", []string{out})
	if err != nil {
		return err
	}
	recs := read.ok
	decide, err := decideOn(c, "train", recs)
	if err != nil {
		return err
	}
	res, err := experiments.NewOutcomeOn(sum, out, recs, metric, decide)
	if err != nil {
		return err
	}
	// A resumed or finished run repeats the warning its splits gave
	// when their propensity models were fitted.
	ov := readOverlapReport(c, read)
	res.Overlap, res.ATOWarning = ov.Overlap, ov.ATOWarning
	if !c.Bool("no-plot") && res.Axis == records.AxisRisk {
		if res.Figure, err = runplot.RunFront(out, recs, metric, decide); err != nil {
			return err
		}
	}
	if c.Bool(jsonFlag) {
		ov.warn(c.App.ErrWriter) // standard output is the JSON document
		return writeJSON(c.App.Writer, res)
	}
	return res.WriteText(c.App.Writer)
}

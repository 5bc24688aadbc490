package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/runplot"
	"github.com/fpareto/fp/runfolder"
)

// showTrained prints a finished run: its summary, the front table, the
// non-dominated candidates and the figure; as JSON with --json.
func showTrained(c *cli.Context, sum experiments.Summary, out string) error {
	metric := c.String("metric") // checked by runTrain before training
	read, err := readSweeps(c, "train", []string{out})
	if err != nil {
		return err
	}
	decide, err := decideOn(c, "train", read.OK)
	if err != nil {
		return err
	}
	res, err := experiments.NewOutcomeOn(sum, out, read.OK, metric, decide)
	if err != nil {
		return err
	}
	// A resumed or finished run repeats the warning its splits gave
	// when their propensity models were fitted.
	ov := readOverlapReport(c, read)
	res.Overlap, res.ATOWarning = ov.Overlap, ov.ATOWarning
	if !c.Bool("no-plot") && res.Axis == records.AxisRisk {
		if res.Figure, err = runplot.RunFront(out, read.OK, metric, decide); err != nil {
			return err
		}
	}
	if c.Bool(jsonFlag) {
		ov.Warn(c.App.ErrWriter) // standard output is the JSON document
		return writeJSON(c.App.Writer, res)
	}
	return res.WriteText(c.App.Writer)
}

// readOverlapReport reads the overlap report of the runs s was read from.
// An unreadable summary is reported on stderr, not an error: the records'
// own decision still stands.
func readOverlapReport(c *cli.Context, s *runfolder.Sweeps) runfolder.OverlapReport {
	rep, err := runfolder.ReadOverlapReport(s.Paths, s.OK)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %v\n", err)
	}
	return rep
}

package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(frontCommand()) }

func frontCommand() *cli.Command {
	return &cli.Command{
		Name:      "front",
		Usage:     "non-dominated counts, hypervolume and shares of the pooled front for one metric",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Reads the records of one or more sweeps (a directory stands for every *.jsonl file in it and\n" +
			"in its subdirectories) and prints, for each group of candidates (default: one per run\n" +
			"configuration), the number of candidates, the number of distinct non-dominated (risk, metric)\n" +
			"points (points closer than --tolerance in both min–max normalised axes count once), the hypervolume\n" +
			"(reference point (1.1, 1.1)) on the scale --front-rule sets: constant (default) runs the x axis from\n" +
			"the best candidate (0) to the constant predictor at the training base rate (1), the metric from 0 to\n" +
			"its largest value, and adds the constant predictor (1, 0) to every front; minmax min–max normalises\n" +
			"both axes over all candidates (the paper's protocol). The x axis is the test risk, or with --axis\n" +
			"error the test error 1 − accuracy. Then the share of the pooled front's points that the group\n" +
			"reached, and how many of its non-dominated candidates are constant predictors or predict one\n" +
			"class; then the split-by-split comparison of every pair of\n" +
			"groups (as fp compare). Failed candidates are left out. Records of different datasets are refused\n" +
			"unless grouped by dataset.\n" +
			"With --ci it then prints the non-dominated candidates of the pooled front, each with 95% intervals of\n" +
			"its risk, accuracy and every metric from a bootstrap of its test rows (--ci-resamples), and how many\n" +
			"of them can be told apart from their neighbours at 95% on the rows that decided the front (a paired\n" +
			"bootstrap of their difference where two neighbours share a split, their two intervals otherwise).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric: " + strings.Join(records.Metrics, ", ")},
			&cli.BoolFlag{Name: "ci", Usage: "print the non-dominated candidates with their 95% intervals"},
			ciResamplesFlag(),
		}, comparisonFlags()...),
		Action: runFront,
	}
}

func runFront(c *cli.Context) error {
	paths, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("front: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("front: name at least one records file or sweep directory")
	}
	metric := c.String("metric")
	if !slices.Contains(records.Metrics, metric) {
		return fmt.Errorf("front: --metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	nres, err := ciResamples(c, "front")
	if err != nil {
		return err
	}
	if c.IsSet("ci-resamples") && !c.Bool("ci") {
		return fmt.Errorf("front: --ci-resamples sets the intervals of --ci: give --ci too")
	}
	res, read, err := comparison(c, "front", paths, []string{metric})
	if err != nil {
		return err
	}
	ov := readOverlapReport(c, read)
	if metric == "ato" {
		ov.Warn(c.App.ErrWriter)
	}
	var rows []intervals.Row
	var dist []*intervals.Distinguishability
	if c.Bool("ci") {
		var notes []string
		if rows, dist, notes, err = intervals.FrontRows(read.All, res.Axis, metric, records.Decide(res.DecidedOn), nres); err != nil {
			return fmt.Errorf("front: %w", err)
		}
		for _, n := range notes {
			fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", n)
		}
	}
	if c.Bool(jsonFlag) {
		if c.Bool("ci") {
			return writeJSON(c.App.Writer, struct {
				*compare.Result
				runfolder.OverlapReport
				Front []intervals.Row `json:"front"`
				// One per dataset's front; absent without intervals.
				Distinguishable []*intervals.Distinguishability `json:"distinguishable,omitempty"`
			}{res, ov, rows, dist})
		}
		return writeJSON(c.App.Writer, struct {
			*compare.Result
			runfolder.OverlapReport
		}{res, ov})
	}
	if err := compare.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	if c.Bool("ci") {
		if err := intervals.WriteFront(c.App.Writer, rows, res.Axis, metric); err != nil {
			return err
		}
		intervals.WriteDistinguishable(c.App.Writer, dist)
	}
	// The overlap of the splits behind the fronts, in one line (records
	// written before the overlap was recorded give none).
	if line := runfolder.OverlapLine(read.OK); line != "" {
		fmt.Fprintln(c.App.Writer, line)
	}
	return nil
}

// readSweeps reads the records of paths (files or sweep folders), reports
// torn lines and left-out failed candidates on stderr; no successful
// candidate at all is an error.
func readSweeps(c *cli.Context, cmd string, paths []string) (*runfolder.Sweeps, error) {
	s, err := runfolder.ReadSweeps(paths)
	if s != nil {
		for _, w := range s.Warnings {
			fmt.Fprintf(c.App.ErrWriter, "fp: warning: %v\n", w)
		}
		if s.Failed > 0 {
			fmt.Fprintf(c.App.ErrWriter, "fp: note: %d failed candidate(s) left out\n", s.Failed)
		}
		// Not where the command's plane holds them: against the error,
		// with a decision metric.
		inPlane := c.String("axis") == records.AxisError && records.IsDecisionMetric(c.String("metric"))
		if n := records.CountBaseProbability(s.OK); n > 0 && cmd != "compare" && !inPlane {
			fmt.Fprintf(c.App.ErrWriter, "fp: note: %d candidate(s) %s\n", n, records.BaseProbabilityNote)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return s, nil
}

package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

func init() { register(compareCommand()) }

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare runs: non-dominated counts, hypervolume and shares for every metric, pooled and split by split (the paper's Table 4)",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Reads the records of several sweeps (say Chebyshev, linear and adversarial) and prints, for each\n" +
			"unfairness metric (ato, dp, eo, eopp), one row per group (default: one per run configuration):\n" +
			"candidates, distinct non-dominated points, hypervolume, share of the pooled front, and how many\n" +
			"of the group's non-dominated candidates are constant predictors (collapsed), predict one class, or\n" +
			"are weakly dominated (another candidate within --tolerance in one axis, better in the other).\n" +
			"For each metric both axes are min–max normalised over the candidates of all rows together and\n" +
			"every row uses the reference point (1.1, 1.1). Points closer than --tolerance in both normalised\n" +
			"axes count as one. Then, split by split, each group's hypervolume (normalised over that split's\n" +
			"candidates) and for each pair of groups the mean paired difference with a 95% bootstrap interval\n" +
			"and a two-sided Wilcoxon signed-rank p-value (exact up to 50 splits). --json prints every split's\n" +
			"values. Records of different datasets are refused unless grouped by dataset. Failed candidates\n" +
			"are left out.",
		Flags:  comparisonFlags(),
		Action: runCompare,
	}
}

// comparisonFlags are the flags fp compare and fp front share.
func comparisonFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "by", Value: records.DefaultGrouping, Usage: "group candidates by a comma-separated list of " +
			strings.Join(records.GroupFields, ", ") + " (run: one group per sweep configuration)"},
		&cli.Float64Flag{Name: "tolerance", Value: pareto.DefaultTolerance, Usage: "points closer than this in both normalised axes are one distinct point"},
		decideFlag(),
		&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
	}
}

// comparison reads the records of paths and compares them on metrics.
func comparison(c *cli.Context, cmd string, paths, metrics []string) (*compare.Result, error) {
	by, err := records.ParseGrouping(c.String("by"))
	if err != nil {
		return nil, fmt.Errorf("%s: --by: %w", cmd, err)
	}
	tol := c.Float64("tolerance")
	if !(tol > 0) || tol >= 1 {
		return nil, fmt.Errorf("%s: --tolerance %v: want a number between 0 and 1", cmd, tol)
	}
	recs, err := readCandidates(c, cmd, paths)
	if err != nil {
		return nil, err
	}
	decide, err := decideOn(c, cmd, recs)
	if err != nil {
		return nil, err
	}
	res, err := compare.Run(recs, compare.Options{Metrics: metrics, By: by, Tolerance: tol, Decide: decide})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	for _, r := range res.MixedSweeps(by) {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: group %s pools candidates of %d sweep configurations "+
			"(keep them apart with --by run)\n", r.Group, r.Configs)
	}
	return res, nil
}

func runCompare(c *cli.Context) error {
	paths, err := argsAndFlags(c)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("compare: name the records files or sweep folders to compare")
	}
	res, err := comparison(c, "compare", paths, nil) // every metric the records carry
	if err != nil {
		return err
	}
	ov := readOverlapReport(c, paths)
	ov.warn(c.App.ErrWriter)
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, struct {
			*compare.Result
			overlapReport
		}{res, ov})
	}
	if err := compare.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	if line := overlapLine(paths); line != "" {
		fmt.Fprintln(c.App.Writer, "\n"+line)
	}
	return nil
}

package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
)

func init() { register(compareCommand()) }

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare methods: non-dominated counts, hypervolume and shares for every metric (the paper's Table 4)",
		ArgsUsage: "FILE_OR_DIR...",
		Description: "Reads the records of several sweeps (say Chebyshev, linear and adversarial) and prints, for each\n" +
			"unfairness metric (ato, dp, eo, eopp), one row per method and penalty: candidates, distinct\n" +
			"non-dominated points, hypervolume and share of the pooled front. For each metric both axes are\n" +
			"min–max normalised over the candidates of all rows together and every row uses the reference\n" +
			"point (1.1, 1.1), so the hypervolumes of one table are comparable. Failed candidates are left out.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runCompare,
	}
}

func runCompare(c *cli.Context) error {
	paths, err := argsAndFlags(c)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("compare: name the records files or sweep folders to compare")
	}
	recs, err := readCandidates(c, "compare", paths)
	if err != nil {
		return err
	}
	rows := report.CompareMethods(recs)
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, rows)
	}
	return printCompare(c.App.Writer, rows)
}

// printCompare prints one table per metric.
func printCompare(w io.Writer, rows []report.MethodRow) error {
	for i, metric := range records.Metrics {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "risk vs %s (hypervolume: both axes min–max normalised over every row, reference (%g, %g))\n",
			metric, pareto.Reference.X, pareto.Reference.Y)
		t := newTable(w)
		fmt.Fprintln(t, "method\tpenalty\tcandidates\tnondominated\thypervolume\tshare")
		for _, r := range rows {
			if r.Metric != metric {
				continue
			}
			method := r.Method
			if r.BetaScale > 0 && r.BetaScale != 1 {
				method = fmt.Sprintf("%s (β×%g)", r.Method, r.BetaScale)
			}
			pen := r.Penalty
			if pen == "" {
				pen = "-"
			}
			fmt.Fprintf(t, "%s\t%s\t%d\t%d\t%.4f\t%.3f\n", method, pen, r.Candidates, r.NonDominated, r.Hypervolume, r.Share)
		}
		if err := t.Flush(); err != nil {
			return err
		}
	}
	return nil
}

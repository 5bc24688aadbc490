package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
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
			"The x axis is the test risk (log-loss), or with --axis error the test error 1 − accuracy. For the\n" +
			"hypervolumes each plane is scaled by --front-rule: constant (default) runs the x axis from the\n" +
			"best candidate of all rows (0) to the constant predictor at the training base rate (1) and the\n" +
			"unfairness axis from 0 to the largest value of all rows, and adds the constant predictor (1, 0)\n" +
			"to every front, so that candidates no better than it add nothing; minmax (the paper's protocol)\n" +
			"min–max normalises both axes over the candidates of all rows. Reference point (1.1, 1.1), or\n" +
			"(R, R) with --reference R: a second reference point shows how much a verdict owes to it. Points\n" +
			"closer than --tolerance in both min–max normalised axes count as one. Then, split by split, each\n" +
			"group's hypervolume (on that split's own scale: its candidates and, under constant, its constant\n" +
			"predictor) and for each pair of groups the mean paired difference A − B with a 95% bootstrap\n" +
			"interval, a two-sided Wilcoxon signed-rank p-value (exact up to 50 splits) and its Benjamini–Hochberg\n" +
			"q-value over every pair and metric of the comparison. A is the group of the earlier argument (the\n" +
			"run given first), B the later, so swapping the arguments negates every difference; groups of one\n" +
			"argument follow the paper's order of methods. --json prints every split's\n" +
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
		&cli.StringFlag{Name: "axis", Value: records.AxisRisk, Usage: "the x axis: risk (test log-loss) or error (1 − accuracy)"},
		frontRuleFlag(),
		&cli.Float64Flag{Name: "reference", Value: pareto.Reference.X, Usage: "the hypervolume reference point (R, R) in the normalised " +
			"plane, R above 1 (1.01: the extremes of each front bound almost no area)"},
		decideFlag(),
		&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
	}
}

// frontRuleFlag is the --front-rule flag of the commands that compare
// hypervolumes.
func frontRuleFlag() cli.Flag {
	return &cli.StringFlag{Name: "front-rule", Value: string(pareto.DefaultRule), Usage: "how each plane is scaled for the hypervolumes: " +
		"constant (x from the best candidate to the constant predictor at the training base rate, unfairness from 0, the constant " +
		"predictor on every front) or minmax (both axes min–max over the candidates: the paper's protocol)"}
}

// comparison reads the records of paths and compares them on metrics (nil:
// every metric the records carry); it returns what it read, for the rest of
// the command.
func comparison(c *cli.Context, cmd string, paths, metrics []string) (*compare.Result, *runfolder.Sweeps, error) {
	opt, err := compare.ParseOptions(c.String("by"), c.Float64("tolerance"), c.String("axis"), c.String("front-rule"), c.Float64("reference"))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	read, err := readSweeps(c, cmd, paths)
	if err != nil {
		return nil, nil, err
	}
	decide, err := decideOn(c, cmd, read.OK)
	if err != nil {
		return nil, nil, err
	}
	opt.Metrics, opt.Decide = metrics, decide
	res, err := compare.Run(read.OK, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	for _, r := range res.MixedSweeps(opt.By) {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: group %s pools candidates of %d sweep configurations "+
			"(keep them apart with --by run)\n", r.Group, r.Configs)
	}
	return res, read, nil
}

func runCompare(c *cli.Context) error {
	paths, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if len(paths) == 0 {
		return fmt.Errorf("compare: name the records files or sweep folders to compare")
	}
	res, read, err := comparison(c, "compare", paths, nil) // every metric the records carry
	if err != nil {
		return err
	}
	ov := readOverlapReport(c, read)
	ov.Warn(c.App.ErrWriter)
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, struct {
			*compare.Result
			runfolder.OverlapReport
		}{res, ov})
	}
	if err := compare.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	if line := runfolder.OverlapLine(read.OK); line != "" {
		fmt.Fprintln(c.App.Writer, "\n"+line)
	}
	return nil
}

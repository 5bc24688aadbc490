package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/runplot"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(plotCommand()) }

// plotDefaultBy is the default grouping of fp plot: one panel per method and
// penalty, as in the paper's figures.
const plotDefaultBy = "method,penalty"

func plotCommand() *cli.Command {
	return &cli.Command{
		Name:      "plot",
		Usage:     "draw the candidates and their Pareto front as a figure (or, with --dist, predicted probabilities)",
		ArgsUsage: "RECORDS...",
		Description: "RECORDS are records files or run folders (as written by fp train). By default draws every\n" +
			"candidate in (test risk, unfairness) space with its non-dominated front as a dashed magenta\n" +
			"staircase, one panel per group of records (--by), and prints the path of the figure.\n" +
			"Failed candidates are left out. Records of different datasets are refused unless --by includes\n" +
			"dataset, so that no panel pools them.\n\n" +
			"With --dist, RECORDS is one run folder (or its records file): for one split and four λ values it\n" +
			"draws the distribution of the predicted probabilities on the test split by label y and\n" +
			"sensitive attribute a, recomputed from the stored networks. The default λ values are the\n" +
			"smallest and the largest present and the two present values closest to 1/3 and 2/3 of the way\n" +
			"between the smallest positive one and the largest on a log scale (0, 0.01, 0.1, 1 for the\n" +
			"default grid).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric on the y axis: ato, dp, eo or eopp"},
			&cli.StringFlag{Name: "by", Value: plotDefaultBy, Usage: "one panel per group of these record `FIELDS`: " + strings.Join(records.GroupFields, ", ")},
			&cli.StringFlag{Name: "out", Usage: "write the figure to `FILE` (.png, .svg or .pdf; default front-METRIC.png, or dist-split-M.png with --dist, beside the first RECORDS)"},
			&cli.BoolFlag{Name: "free-axes", Usage: "give each panel its own axis ranges (default: one range for all, so that panels compare)"},
			&cli.BoolFlag{Name: "log", Usage: "draw the unfairness axis on a log scale; it starts at the power of ten below the smallest value (no lower than 10⁻⁵ of the largest); values under it, zeros included, are drawn on it, labelled ≤"},
			&cli.BoolFlag{Name: "zoom", Usage: "leave out the constant predictors (collapsed candidates, typically λ = 1) so that the rest of the front fills the figure"},
			&cli.IntFlag{Name: "cols", Usage: "panels per row (default: up to three in one row, else a near-square grid)"},
			decideFlag(),
			&cli.BoolFlag{Name: "dist", Usage: "draw the distributions of one split's predicted probabilities by label and group"},
			&cli.IntFlag{Name: "split", Usage: "with --dist: the split `M` (default: the lowest present)"},
			&cli.StringFlag{Name: "lambdas", Usage: "with --dist: the λ values to show, e.g. 0,0.01,0.1,1 (default: four spread over those present)"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print what was drawn as JSON"},
		},
		Action: func(c *cli.Context) error {
			paths, err := cliusage.ArgsAndFlags(c)
			if err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			if len(paths) == 0 {
				return errors.New("plot: give one or more records files or run folders")
			}
			if err := runfolder.CheckOut("plot", "--out", c.String("out"), runfolder.Inputs(paths)...); err != nil {
				return err
			}
			if err := runplot.CheckFlags(c.Bool("dist"), c.IsSet); err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			var res *runplot.Result
			if c.Bool("dist") {
				if len(paths) != 1 {
					return fmt.Errorf("plot --dist: give one run folder or records file, not %d", len(paths))
				}
				res, err = runplot.DrawDist(paths[0], runplot.Dist{
					Split: c.Int("split"), SplitSet: c.IsSet("split"),
					Lambdas: c.String("lambdas"), Out: c.String("out"), Cols: c.Int("cols"),
				}, c.App.ErrWriter)
			} else {
				res, err = runplot.DrawFront(paths, runplot.FrontPlot{
					Metric: c.String("metric"), By: c.String("by"), Out: c.String("out"),
					FreeAxes: c.Bool("free-axes"), Cols: c.Int("cols"), LogY: c.Bool("log"), Zoom: c.Bool("zoom"),
					Decide: c.String("decide-on"),
				}, c.App.ErrWriter)
			}
			if err != nil {
				return err
			}
			if c.Bool(jsonFlag) {
				return writeJSON(c.App.Writer, res)
			}
			_, err = fmt.Fprintln(c.App.Writer, res.Out)
			return err
		},
	}
}

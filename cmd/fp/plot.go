package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
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
			"Failed candidates are left out.\n\n" +
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
			&cli.BoolFlag{Name: "log", Usage: "draw the unfairness axis on a log scale; values under its floor (a power of ten near 10⁻⁵ of the largest, labelled ≤) are drawn on it"},
			&cli.BoolFlag{Name: "zoom", Usage: "leave out the constant predictors (collapsed candidates, typically λ = 1) so that the rest of the front fills the figure"},
			&cli.IntFlag{Name: "cols", Usage: "panels per row (default: up to three in one row, else a near-square grid)"},
			&cli.BoolFlag{Name: "dist", Usage: "draw the distributions of one split's predicted probabilities by label and group"},
			&cli.IntFlag{Name: "split", Usage: "with --dist: the split `M` (default: the lowest present)"},
			&cli.StringFlag{Name: "lambdas", Usage: "with --dist: the λ values to show, e.g. 0,0.01,0.1,1 (default: four spread over those present)"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print what was drawn as JSON"},
		},
		Action: func(c *cli.Context) error {
			paths, err := argsAndFlags(c)
			if err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			if len(paths) == 0 {
				return errors.New("plot: give one or more records files or run folders")
			}
			var res *plotResult
			if c.Bool("dist") {
				for _, f := range []string{"metric", "by", "free-axes", "log", "zoom"} {
					if c.IsSet(f) {
						return fmt.Errorf("plot: --%s does not apply to --dist", f)
					}
				}
				if len(paths) != 1 {
					return fmt.Errorf("plot --dist: give one run folder or records file, not %d", len(paths))
				}
				res, err = drawDist(paths[0], distPlot{
					Split: c.Int("split"), SplitSet: c.IsSet("split"),
					Lambdas: c.String("lambdas"), Out: c.String("out"), Cols: c.Int("cols"),
				}, c.App.ErrWriter)
			} else {
				for _, f := range []string{"split", "lambdas"} {
					if c.IsSet(f) {
						return fmt.Errorf("plot: --%s applies only to --dist", f)
					}
				}
				res, err = drawFront(paths, frontPlot{
					Metric: c.String("metric"), By: c.String("by"), Out: c.String("out"),
					FreeAxes: c.Bool("free-axes"), Cols: c.Int("cols"), LogY: c.Bool("log"), Zoom: c.Bool("zoom"),
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

// plotResult is what fp plot drew (its --json output).
type plotResult struct {
	Out    string         `json:"out"`
	Metric string         `json:"metric,omitempty"`
	Panels []report.Panel `json:"panels,omitempty"`
	// Split and Lambdas are those of a distribution figure.
	Split   *int      `json:"split,omitempty"`
	Lambdas []float64 `json:"lambdas,omitempty"`
	// Failed counts the failed candidates left out.
	Failed int `json:"failed"`
}

// frontPlot says what to draw in fp plot's default mode.
type frontPlot struct {
	Metric   string // ato, dp, eo or eopp
	By       string // grouping, e.g. "method,penalty"
	Out      string // "" for front-METRIC.png beside the first records path
	FreeAxes bool
	Cols     int
	LogY     bool // log-scaled unfairness axis
	Zoom     bool // leave out collapsed candidates
}

// drawFront draws the front figure of the records at paths. Warnings (torn
// lines, failed candidates left out) go to warn.
func drawFront(paths []string, o frontPlot, warn io.Writer) (*plotResult, error) {
	if !slices.Contains(records.Metrics, o.Metric) {
		return nil, fmt.Errorf("plot: --metric %q: want one of %s", o.Metric, strings.Join(records.Metrics, ", "))
	}
	by, err := records.ParseGrouping(o.By)
	if err != nil {
		return nil, fmt.Errorf("plot: --by: %w", err)
	}
	// Panels follow the order of the paths given (so the user chooses it),
	// then the group names.
	var recs []records.Record
	first := map[string]int{}
	failed := 0
	for i, p := range paths {
		rs, f, err := readSucceeded([]string{p}, warn)
		if err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
		failed += f
		for j := range rs {
			k := by.Key(&rs[j])
			if _, seen := first[k]; !seen {
				first[k] = i
			}
		}
		recs = append(recs, rs...)
	}
	if err := plotCheck(paths, len(recs), failed, warn); err != nil {
		return nil, err
	}
	out := o.Out
	if out == "" {
		out = plotBeside(paths[0], "front-"+o.Metric+".png")
	}
	panels, err := report.SaveRecordsFront(out, recs, report.RecordsFront{
		Metric: o.Metric, By: by, Order: first, FreeAxes: o.FreeAxes, Cols: o.Cols, LogY: o.LogY, Zoom: o.Zoom})
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	return &plotResult{Out: out, Metric: o.Metric, Panels: panels, Failed: failed}, nil
}

// plotRun draws the front figure of a finished run (its folder and its
// records) into the folder and returns the file written.
func plotRun(dir string, recs []records.Record, metric string) (string, error) {
	ok, _ := records.Succeeded(recs)
	if len(ok) == 0 {
		return "", fmt.Errorf("plot: no trained candidates in %s", dir)
	}
	out := filepath.Join(dir, "front-"+metric+".png")
	if _, err := report.SaveRecordsFront(out, ok, report.RecordsFront{Metric: metric, By: records.Grouping{"method", "penalty"}}); err != nil {
		return "", fmt.Errorf("plot: %w", err)
	}
	return out, nil
}

// distPlot says what to draw with fp plot --dist.
type distPlot struct {
	Split    int
	SplitSet bool   // false: the lowest split present
	Lambdas  string // "" for four values spread over those present
	Out      string // "" for dist-split-M.png in the run folder
	Cols     int
}

// drawDist draws the distribution figure of one run (a folder, or a records
// file inside one).
func drawDist(path string, o distPlot, warn io.Writer) (*plotResult, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("plot --dist: %w", err)
	}
	dir := path
	if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	recs, failed, err := readSucceeded([]string{path}, warn)
	if err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	if err := plotCheck([]string{path}, len(recs), failed, warn); err != nil {
		return nil, err
	}
	split := -1
	if o.SplitSet {
		split = o.Split
	}
	choice, err := report.ChooseDist(recs, split, o.Lambdas)
	if err != nil {
		return nil, fmt.Errorf("plot --dist: %s: %w", path, err)
	}
	split = choice.Split
	var panels []report.Dist
	var lambdas []float64
	for _, r := range choice.Candidates {
		if r.Weights == "" {
			return nil, fmt.Errorf("plot --dist: candidate %s in %s has no stored network", r.Key(), path)
		}
		if _, err := os.Stat(filepath.Join(dir, r.Weights)); err != nil {
			return nil, fmt.Errorf("plot --dist: network of candidate %s is missing (%w); --dist recomputes predictions from the networks fp train stores beside the records", r.Key(), err)
		}
		p, err := experiments.LoadPredictions(dir, r)
		if err != nil {
			return nil, fmt.Errorf("plot --dist: predictions of candidate %s: %w", r.Key(), err)
		}
		panels = append(panels, report.DistPanel(r, p.P, p.Y, p.A))
		lambdas = append(lambdas, r.Lambda)
	}
	res := &plotResult{Out: o.Out, Split: &split, Lambdas: lambdas, Failed: failed}
	if res.Out == "" {
		res.Out = filepath.Join(dir, fmt.Sprintf("dist-split-%d.png", split))
	}
	if err := report.SaveDist(res.Out, panels, report.DistOptions{Title: choice.Title, Cols: o.Cols}); err != nil {
		return nil, fmt.Errorf("plot --dist: %w", err)
	}
	return res, nil
}

// plotCheck reports failed candidates left out to warn and refuses to draw
// nothing.
func plotCheck(paths []string, ok, failed int, warn io.Writer) error {
	if failed > 0 {
		fmt.Fprintf(warn, "fp: %d failed candidates left out\n", failed)
	}
	if ok == 0 {
		return fmt.Errorf("plot: no trained candidates in %s (%d failed)", strings.Join(paths, ", "), failed)
	}
	return nil
}

// plotBeside returns the path of a file named name in the records
// folder path, or beside the records file path.
func plotBeside(path, name string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, name)
	}
	return filepath.Join(filepath.Dir(path), name)
}

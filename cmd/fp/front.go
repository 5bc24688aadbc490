package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/internal/printable"
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
	paths, err := argsAndFlags(c)
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
		ov.warn(c.App.ErrWriter)
	}
	var rows []intervals.Row
	var dist []*intervals.Distinguishability
	if c.Bool("ci") {
		if rows, dist, err = frontIntervals(c, read, res.Axis, metric, records.Decide(res.DecidedOn), nres); err != nil {
			return err
		}
	}
	if c.Bool(jsonFlag) {
		if c.Bool("ci") {
			return writeJSON(c.App.Writer, struct {
				*compare.Result
				overlapReport
				Front []intervals.Row `json:"front"`
				// One per dataset's front; absent without intervals.
				Distinguishable []*intervals.Distinguishability `json:"distinguishable,omitempty"`
			}{res, ov, rows, dist})
		}
		return writeJSON(c.App.Writer, struct {
			*compare.Result
			overlapReport
		}{res, ov})
	}
	if err := compare.WriteText(c.App.Writer, res); err != nil {
		return err
	}
	if c.Bool("ci") {
		if err := intervals.WriteFront(c.App.Writer, rows, metric); err != nil {
			return err
		}
		for _, d := range dist {
			what := "the front"
			if len(dist) > 1 {
				// The fronts of several datasets, listed by dataset.
				what = "the front of " + printable.String(d.Dataset)
			}
			fmt.Fprintf(c.App.Writer, "%s: %s\n", what, d)
		}
	}
	// The overlap of the splits behind the fronts, in one line (records
	// written before the overlap was recorded give none).
	if line := runfolder.OverlapLine(read.ok); line != "" {
		fmt.Fprintln(c.App.Writer, line)
	}
	return nil
}

// frontIntervals returns the non-dominated candidates of s in (axis
// value, metric) with their intervals and, for each dataset's front, how
// many of its points can be told apart from their neighbours, and notes on
// stderr what could not be given.
func frontIntervals(c *cli.Context, s *sweeps, axis, metric string, d records.Decide, resamples int) ([]intervals.Row, []*intervals.Distinguishability, error) {
	cands, err := choose.Candidates(s.all)
	if err != nil {
		return nil, nil, fmt.Errorf("front: %w", err)
	}
	front, err := intervals.FrontCandidatesOn(cands, axis, metric, d)
	if err != nil {
		return nil, nil, fmt.Errorf("front: %w", err)
	}
	cis := make([]intervals.CI, len(front))
	var dist []*intervals.Distinguishability
	if resamples > 0 {
		var notes []string
		if cis, notes, err = intervals.Compute(front, resamples); err != nil {
			return nil, nil, fmt.Errorf("front: %w", err)
		}
		t, err := intervals.NewDistinguisher(d, resamples)
		if err != nil {
			return nil, nil, fmt.Errorf("front: %w", err)
		}
		for _, f := range intervals.Fronts(front) {
			one, err := t.Distinguish(f, axis, metric)
			if err != nil {
				return nil, nil, fmt.Errorf("front: %w", err)
			}
			dist = append(dist, one)
		}
		notes = append(notes, t.Notes()...)
		for i, n := range notes {
			if !slices.Contains(notes[:i], n) {
				fmt.Fprintf(c.App.ErrWriter, "fp: note: %s\n", n)
			}
		}
	}
	return intervals.Rows(front, cis), dist, nil
}

// sweeps are the records of the files and sweep folders a command was
// given, read once (runfolder.ReadAll) for every part of the command: its
// table, its candidates and its overlap lines see the same files.
type sweeps struct {
	paths []string
	all   []records.Record // every record read, failed candidates too
	ok    []records.Record // the candidates that trained successfully
}

// readSweeps reads the records of paths (files or sweep folders), reports
// torn lines and left-out failed candidates on stderr; no successful
// candidate at all is an error.
func readSweeps(c *cli.Context, cmd string, paths []string) (*sweeps, error) {
	all, warnings, err := runfolder.ReadAll(paths)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %v\n", w)
	}
	ok, failed := records.Succeeded(all)
	if failed > 0 {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: %d failed candidate(s) left out\n", failed)
	}
	if n := records.CountBaseProbability(ok); n > 0 && cmd != "compare" {
		fmt.Fprintf(c.App.ErrWriter, "fp: note: %d candidate(s) %s\n", n, records.BaseProbabilityNote)
	}
	if len(ok) == 0 {
		return nil, fmt.Errorf("%s: no successful candidate in %s", cmd, strings.Join(paths, ", "))
	}
	return &sweeps{paths: paths, all: all, ok: ok}, nil
}

// argsAndFlags returns the positional arguments of c after applying the
// command's flags that follow them: urfave/cli stops reading flags at the
// first argument, yet "fp front DIR --json" is the natural way to type a
// command over files. Everything after "--" is an argument.
func argsAndFlags(c *cli.Context) ([]string, error) {
	var args []string
	in := c.Args().Slice()
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" {
			args = append(args, in[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var flag cli.Flag
		for _, f := range c.Command.Flags {
			if slices.Contains(f.Names(), name) {
				flag = f
			}
		}
		if flag == nil {
			return nil, &usageError{msg: "unknown flag --" + name + suggestFlag(name, c.Command.Flags), usage: usageLine(c.Command.HelpName, c.Command)}
		}
		if _, isBool := flag.(*cli.BoolFlag); isBool {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 == len(in) {
				return nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			value = in[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, fmt.Errorf("flag %s: %w", a, err)
		}
	}
	return args, nil
}

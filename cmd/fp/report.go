package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/internal/cliusage"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/report/runplot"
	"github.com/fpareto/fp/runfolder"
)

func init() { register(reportCommand()) }

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write one self-contained HTML page with the fronts, the non-dominated networks and the comparison of one or more runs",
		ArgsUsage: "RUN...",
		Description: "RUN is a run folder written by fp train (or a records file inside one); give several to show methods side\n" +
			"by side (runs of several datasets only with --by dataset). The page opens from disk and loads nothing from\n" +
			"the network: it shows a summary with the command that reproduces each run, the front of every unfairness\n" +
			"metric, and each decision metric against the test error too, where every family of methods competes, group\n" +
			"thresholds included (hover a point for its values, click it for its network, the command that applies it\n" +
			"and, when the run's networks are present, its score distributions), the table of non-dominated candidates,\n" +
			"the method comparison and the standardization constants of every split. Every non-dominated candidate gets\n" +
			"95% intervals of its risk, accuracy and metrics from a bootstrap of its test rows (--ci-resamples; 0\n" +
			"leaves them out), drawn as error bars. For every front it says how many of its points can be told apart\n" +
			"from their neighbours at 95% (a paired bootstrap of their difference where two neighbours share a split,\n" +
			"their two intervals otherwise) and marks the network fp pick would return from it: by --knee unless one of\n" +
			"fp pick's requirements is given (--min-ratio marks the dp-ratio front only). Prints the path of the page.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the page to `FILE` (default report.html in the first RUN folder)"},
			&cli.StringFlag{Name: "title", Usage: "the page's title (default: fp report: DATASETS)"},
			&cli.StringFlag{Name: "by", Usage: "dataset: accept runs of several datasets, each shown in panels, a table section and a comparison of its own (without it they are refused; a front is never pooled across datasets)"},
			decideFlag(),
			frontRuleFlag(),
			ciResamplesFlag(),
			&cli.BoolFlag{Name: jsonFlag, Usage: "print what was written as JSON"},
		}, ruleFlags(func(flag, usage string) string {
			switch flag {
			case "knee":
				return "mark on each front what fp pick --knee --metric M returns from it (the default)"
			case "min-ratio":
				return "mark on the dp-ratio front what fp pick --min-ratio `R` returns from it instead of the knee (lowest acceptable dp_ratio)"
			}
			return "mark on each front what fp pick --" + flag + " `V` --metric M returns from it instead of the knee (" +
				strings.ReplaceAll(usage, "--metric", "the front's metric") + ")"
		})...),
		Action: runReport,
	}
}

// reportResult is fp report's --json output.
type reportResult struct {
	Out        string `json:"out"`
	Bytes      int    `json:"bytes"`
	Candidates int    `json:"candidates"`
	Failed     int    `json:"failed"`
}

func runReport(c *cli.Context) error {
	paths, err := cliusage.ArgsAndFlags(c)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(paths) == 0 {
		return errors.New("report: give one or more run folders (as written by fp train)")
	}
	out := c.String("out")
	if out == "" {
		out = runplot.Beside(paths[0], "report.html")
	}
	if err := runfolder.CheckOut("report", "--out", out, runfolder.Inputs(paths)...); err != nil {
		return err
	}
	nres, err := ciResamples(c, "report")
	if err != nil {
		return err
	}
	rules, flags := choose.RulesOf(c.IsSet, c.Float64)
	if len(rules) > 1 {
		return fmt.Errorf("report: give at most one of %s (got %d)", choose.RuleFlagNames, len(rules))
	}
	defaults := experiments.CommandDefaults()
	opt := htmlreport.Options{Title: c.String("title"), Defaults: &defaults, Decide: c.String("decide-on"), CIResamples: nres}
	if len(rules) == 1 {
		opt.Rule, opt.RuleFlags = rules[0], flags[0]
	}
	if c.IsSet("front-rule") { // left to its default, records written before const_risk fall back to minmax
		if _, err := pareto.ParseRule(c.String("front-rule")); err != nil {
			return fmt.Errorf("report: --front-rule: %w", err)
		}
		opt.FrontRule = c.String("front-rule")
	}
	switch by := c.String("by"); by {
	case "":
	case "dataset":
		opt.ByDataset = true
	default:
		return fmt.Errorf("report: --by %q: the report has one group per run; only --by dataset is accepted, to show several datasets side by side", by)
	}
	if slices.ContainsFunc(commands, func(c *cli.Command) bool { return c.Name == "predict" }) {
		opt.Predict = htmlreport.PredictCommand
	}
	p, err := htmlreport.Build(paths, opt)
	if err != nil {
		return err
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "fp: warning: %s\n", w)
	}
	n, err := htmlreport.WriteFile(out, p)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, reportResult{Out: out, Bytes: n, Candidates: p.Summary.Done, Failed: p.Summary.Failed})
	}
	_, err = fmt.Fprintln(c.App.Writer, out)
	return err
}

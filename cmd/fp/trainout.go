package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report"
	"github.com/fpareto/fp/report/runplot"
)

// trainResult is what fp train --json prints at the end.
type trainResult struct {
	Out            string          `json:"out"`
	Candidates     int             `json:"candidates"`
	Trained        int             `json:"trained"`
	Resumed        int             `json:"resumed"`
	Failed         int             `json:"failed"`
	ElapsedSeconds float64         `json:"elapsed_seconds"`
	Metric         string          `json:"metric"`
	Comparison     *compare.Result `json:"comparison"`
	// Front are the records of the non-dominated candidates by test risk,
	// their Weights a path from the working directory.
	Front  []records.Record `json:"front"`
	Figure string           `json:"figure,omitempty"` // the front figure, unless --no-plot
}

// showTrained prints a finished run: its summary, the front table, the
// non-dominated candidates and the figure; as JSON with --json.
func showTrained(c *cli.Context, sum experiments.Summary, out string) error {
	metric := c.String("metric")
	if !slices.Contains(records.Metrics, metric) {
		return fmt.Errorf("--metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	recs, err := readCandidates(c, "train", []string{out})
	if err != nil {
		return err
	}
	cmp, err := compare.Run(recs, compare.Options{Metrics: []string{metric}})
	if err != nil {
		return err
	}
	res := trainResult{Out: out, Candidates: sum.Total, Trained: sum.Trained, Resumed: sum.Resumed, Failed: sum.Failed,
		ElapsedSeconds: sum.Elapsed.Seconds(), Metric: metric, Comparison: cmp}
	front := report.FrontCandidates(recs, metric)
	for _, i := range front {
		r := recs[i]
		r.Weights = filepath.Join(out, r.Weights)
		res.Front = append(res.Front, r)
	}
	if !c.Bool("no-plot") {
		if res.Figure, err = runplot.RunFront(out, recs, metric); err != nil {
			return err
		}
	}
	w := c.App.Writer
	if c.Bool(jsonFlag) {
		return writeJSON(w, res)
	}
	fmt.Fprintf(w, "%d candidates in %s (%d trained now in %s, %d already recorded, %d failed)\n\n",
		sum.Total, out, sum.Trained, sum.Elapsed.Round(1e8), sum.Resumed, sum.Failed)
	if err := compare.WriteText(w, res.Comparison); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nthe front: %d non-dominated networks, by test risk\n", len(res.Front))
	t := newTable(w)
	fmt.Fprintf(t, "split\tλ\trisk\taccuracy\tato\tdp\teo\teopp\tnetwork\tnote\n")
	for _, r := range res.Front {
		note := ""
		switch {
		case r.Collapsed:
			note = "constant predictor"
		case r.SingleClass:
			note = "predicts one class"
		}
		fmt.Fprintf(t, "%d\t%.4g\t%.4f\t%.3f\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\n", r.Split, r.Lambda, r.Risk, r.Accuracy,
			r.ATO, r.DP, r.EO, r.EOpp, r.Weights, note)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if res.Figure != "" {
		fmt.Fprintf(w, "\nfigure: %s\n", res.Figure)
	}
	return nil
}

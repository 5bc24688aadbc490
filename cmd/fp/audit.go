package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

func init() { register(auditCommand()) }

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "the fairness metrics of any file of predictions",
		UsageText: "fp audit --data FILE (--score COL | --logit COL) --label COL --group COL [--propensity COL] [--json]",
		Description: "Reads a CSV file with a header row and one prediction per row: a score (a probability in\n" +
			"[0, 1]) or a logit, the true label and the sensitive group (each 0/1 or two distinct values, coded as\n" +
			"for fp train: 1, true or yes is 1, else the later value in sorted order). Prints risk,\n" +
			"accuracy, dp, eo and eopp (and ato when a propensity column P(group=1 | x) is given), and\n" +
			"per group the count, base rate P(y=1), mean score, accuracy and selection rate (score ≥ 0.5).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "data", Required: true, Usage: "the predictions `FILE` (CSV with a header row)"},
			&cli.StringFlag{Name: "score", Usage: "the `COLUMN` of predicted probabilities P(y=1)"},
			&cli.StringFlag{Name: "logit", Usage: "instead of --score: the `COLUMN` of logits z, P(y=1) = σ(z); the risk is then exact, as in the records"},
			&cli.StringFlag{Name: "label", Required: true, Usage: "the `COLUMN` of true labels"},
			&cli.StringFlag{Name: "group", Required: true, Usage: "the `COLUMN` of the sensitive attribute"},
			&cli.StringFlag{Name: "propensity", Usage: "the `COLUMN` of propensities P(group=1 | x), for the ato"},
			&cli.BoolFlag{Name: jsonFlag, Usage: "print JSON"},
		},
		Action: runAudit,
	}
}

// auditGroup is one row of the per-group table.
type auditGroup struct {
	Group string `json:"group"` // the value in the file
	fairness.GroupMetrics
}

// auditResult is the JSON output of fp audit.
type auditResult struct {
	N             int          `json:"n"`
	Risk          float64      `json:"risk"`
	Accuracy      float64      `json:"accuracy"`
	ATO           *float64     `json:"ato,omitempty"`
	DP            float64      `json:"dp"`
	EO            float64      `json:"eo"`
	EOpp          float64      `json:"eopp"`
	LabelPositive string       `json:"label_positive"` // the label value coded 1
	GroupPositive string       `json:"group_positive"` // the group value coded 1
	ByGroup       []auditGroup `json:"by_group"`
}

func runAudit(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("audit: unexpected argument %q (the file is given with --data)", c.Args().First())
	}
	if c.IsSet("score") == c.IsSet("logit") {
		return fmt.Errorf("audit: give --score or --logit (one of them)")
	}
	in, err := datasets.ReadPredictions(c.String("data"), datasets.PredictionColumns{
		Score: c.String("score"), Logit: c.String("logit"), Label: c.String("label"),
		Group: c.String("group"), Propensity: c.String("propensity"),
	})
	if pe := (*datasets.ParseError)(nil); errors.As(err, &pe) {
		return err // it names the file first
	} else if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	res, err := audit(in)
	if err != nil {
		return err
	}
	if c.Bool(jsonFlag) {
		return writeJSON(c.App.Writer, res)
	}
	return printAudit(c.App.Writer, in, res)
}

// audit computes the metrics of the predictions: from logits, the risk in
// the exact form the records use.
func audit(in *datasets.Predictions) (*auditResult, error) {
	var m fairness.Metrics
	var err error
	p := in.P
	if in.Z != nil {
		m, err = fairness.EvaluateLogits(in.Z, in.Y, in.A, in.E)
		p = make([]float64, len(in.Z))
		for i, z := range in.Z {
			p[i] = model.Sigmoid(z)
		}
	} else {
		m, err = fairness.Evaluate(in.P, in.Y, in.A, in.E)
	}
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	groups, err := fairness.ByGroup(p, in.Y, in.A)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	res := &auditResult{N: m.N, Risk: m.Risk, Accuracy: m.Accuracy, DP: m.DP, EO: m.EO, EOpp: m.EOpp,
		LabelPositive: in.Label.Positive, GroupPositive: in.Group.Positive}
	if m.HasATO {
		res.ATO = &m.ATO
	}
	for a, name := range []string{in.Group.Negative, in.Group.Positive} {
		res.ByGroup = append(res.ByGroup, auditGroup{Group: name, GroupMetrics: groups[a]})
	}
	return res, nil
}

func printAudit(w io.Writer, in *datasets.Predictions, res *auditResult) error {
	if note := in.CodingNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	t := newTable(w)
	fmt.Fprintf(t, "n\t%d\n", res.N)
	fmt.Fprintf(t, "risk\t%.6g\n", res.Risk)
	fmt.Fprintf(t, "accuracy\t%.6g\n", res.Accuracy)
	if res.ATO != nil {
		fmt.Fprintf(t, "ato\t%.6g\n", *res.ATO)
	}
	fmt.Fprintf(t, "dp\t%.6g\n", res.DP)
	fmt.Fprintf(t, "eo\t%.6g\n", res.EO)
	fmt.Fprintf(t, "eopp\t%.6g\n", res.EOpp)
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	t = newTable(w)
	fmt.Fprintln(t, "group\ta\tcount\tbase_rate\tmean_score\taccuracy\tselection_rate")
	for _, g := range res.ByGroup {
		fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\n", g.Group, g.A, g.Count, g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate)
	}
	return t.Flush()
}

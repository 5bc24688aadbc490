package audit

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// Group is one row of the per-group table.
type Group struct {
	Group string `json:"group"` // the value in the file
	fairness.GroupMetrics
}

// Result is the audit of a file of predictions (fp audit's JSON output).
type Result struct {
	N             int      `json:"n"`
	Risk          float64  `json:"risk"`
	Accuracy      float64  `json:"accuracy"`
	ATO           *float64 `json:"ato,omitempty"`
	DP            float64  `json:"dp"`
	EO            float64  `json:"eo"`
	EOpp          float64  `json:"eopp"`
	LabelPositive string   `json:"label_positive"` // the label value coded 1
	GroupPositive string   `json:"group_positive"` // the group value coded 1
	ByGroup       []Group  `json:"by_group"`
}

// Compute computes the metrics of the predictions: from logits, the risk
// in the exact form the records use.
func Compute(in *datasets.Predictions) (*Result, error) {
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
	res := &Result{N: m.N, Risk: m.Risk, Accuracy: m.Accuracy, DP: m.DP, EO: m.EO, EOpp: m.EOpp,
		LabelPositive: in.Label.Positive, GroupPositive: in.Group.Positive}
	if m.HasATO {
		res.ATO = &m.ATO
	}
	for a, name := range []string{in.Group.Negative, in.Group.Positive} {
		res.ByGroup = append(res.ByGroup, Group{Group: name, GroupMetrics: groups[a]})
	}
	return res, nil
}

// WriteText prints res as fp audit does: the coding of the label and
// group values, the metrics, then one row per group.
func WriteText(w io.Writer, in *datasets.Predictions, res *Result) error {
	if note := in.CodingNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
	t = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "group\ta\tcount\tbase_rate\tmean_score\taccuracy\tselection_rate")
	for _, g := range res.ByGroup {
		fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\n", g.Group, g.A, g.Count, g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate)
	}
	return t.Flush()
}

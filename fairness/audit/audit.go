package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// Group is one row of the per-group table. Its selection rate and accuracy
// are those of the decisions (at the threshold, or expected over a
// randomized classifier's decisions).
type Group struct {
	Group string `json:"group"` // the value in the file
	fairness.GroupMetrics
	// TPR is P(ŷ = 1 | y = 1) and FPR P(ŷ = 1 | y = 0); nil for a group
	// without positives (negatives).
	TPR *float64 `json:"tpr"`
	FPR *float64 `json:"fpr"`
}

// Options set an audit.
type Options struct {
	// Threshold turns scores into decisions (selected when p ≥ Threshold);
	// 0 is fairness.DefaultThreshold. Unused with a decision column.
	Threshold float64
}

func (o Options) threshold() float64 {
	if o.Threshold == 0 {
		return fairness.DefaultThreshold
	}
	return o.Threshold
}

// DecisionResult are the decision metrics of an audit (fairness.Decision),
// as fp audit prints them.
type DecisionResult struct {
	// Threshold is the one decisions were taken at; 0 when the file gave
	// decision probabilities (Randomized).
	Threshold  float64 `json:"threshold,omitempty"`
	Randomized bool    `json:"randomized,omitempty"`
	DPDiff     float64 `json:"dp_diff"`
	DPRatio    float64 `json:"dp_ratio"`
	EODiff     float64 `json:"eo_diff"`
	EOppDiff   float64 `json:"eopp_diff"`
	// NoPositives and NoNegatives name the groups left out of the TPR
	// (FPR) gap for having no rows with y = 1 (y = 0).
	NoPositives []string `json:"no_positives,omitempty"`
	NoNegatives []string `json:"no_negatives,omitempty"`
}

// decide computes the decision metrics of the rows: of the decision
// column when there is one, else of the scores p at the threshold. names
// gives each group label's name. It returns the per-group rates by label.
func decide(p, d, y []float64, z []int, names func(int) string, opt Options) (DecisionResult, map[int]fairness.GroupRates, float64, error) {
	var dec fairness.Decision
	var err error
	if d != nil {
		dec, err = fairness.DecideRandomized(d, y, z)
	} else {
		dec, err = fairness.DecideScores(p, y, z, opt.threshold())
	}
	if err != nil {
		return DecisionResult{}, nil, 0, err
	}
	res := DecisionResult{Threshold: dec.Threshold, Randomized: d != nil,
		DPDiff: dec.DPDiff, DPRatio: dec.DPRatio, EODiff: dec.EODiff, EOppDiff: dec.EOppDiff}
	for _, g := range dec.NoPositives {
		res.NoPositives = append(res.NoPositives, names(g))
	}
	for _, g := range dec.NoNegatives {
		res.NoNegatives = append(res.NoNegatives, names(g))
	}
	rates := map[int]fairness.GroupRates{}
	for _, g := range dec.Groups {
		rates[g.Group] = g
	}
	return res, rates, dec.Accuracy, nil
}

// setRates puts a group's decision rates into its row.
func setRates(m *fairness.GroupMetrics, tpr, fpr **float64, r fairness.GroupRates) {
	m.SelectionRate, m.Accuracy = r.SelectionRate, r.Accuracy
	if r.Positives > 0 {
		v := r.TPR
		*tpr = &v
	}
	if r.Count > r.Positives {
		v := r.FPR
		*fpr = &v
	}
}

// Result is the audit of a file of predictions (fp audit's JSON output).
type Result struct {
	N        int      `json:"n"`
	Risk     float64  `json:"risk"`
	Accuracy float64  `json:"accuracy"`
	ATO      *float64 `json:"ato,omitempty"`
	DP       float64  `json:"dp"`
	EO       float64  `json:"eo"`
	EOpp     float64  `json:"eopp"`
	DecisionResult
	LabelPositive string  `json:"label_positive"` // the label value coded 1
	GroupPositive string  `json:"group_positive"` // the group value coded 1
	ByGroup       []Group `json:"by_group"`
}

// Compute computes the metrics of the predictions: from logits, the risk
// in the exact form the records use. Accuracy and the decision metrics are
// those of the decision column when the file has one (expectations over a
// randomized classifier's decisions), else of the scores at the threshold.
func Compute(in *datasets.Predictions, opt Options) (*Result, error) {
	z, w, err := fairness.Binary(in.A, in.E)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	var m fairness.Metrics
	p := in.P
	if in.Z != nil {
		m, err = fairness.EvaluateLogits(in.Z, in.Y, z, w)
		p = make([]float64, len(in.Z))
		for i, z := range in.Z {
			p[i] = model.Sigmoid(z)
		}
	} else {
		m, err = fairness.Evaluate(in.P, in.Y, z, w)
	}
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	groups, err := fairness.ByGroup(p, in.Y, z)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	names := []string{in.Group.Negative, in.Group.Positive}
	name := func(g int) string {
		if names[g] == "" {
			return fmt.Sprintf("a = %d", g)
		}
		return names[g]
	}
	dec, rates, acc, err := decide(p, in.D, in.Y, z, name, opt)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	res := &Result{N: m.N, Risk: m.Risk, Accuracy: acc, DP: m.DP, EO: m.EO, EOpp: m.EOpp, DecisionResult: dec,
		LabelPositive: in.Label.Positive, GroupPositive: in.Group.Positive}
	if m.HasATO {
		res.ATO = &m.ATO
	}
	for a, name := range names {
		row := Group{Group: name, GroupMetrics: groups[a]}
		setRates(&row.GroupMetrics, &row.TPR, &row.FPR, rates[a])
		res.ByGroup = append(res.ByGroup, row)
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
	writeDecision(t, res.DecisionResult)
	if err := t.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	t = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "group\ta\tcount\tbase_rate\tmean_score\taccuracy\tselection_rate\ttpr\tfpr")
	for _, g := range res.ByGroup {
		fmt.Fprintf(t, "%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\n", g.Group, g.A, g.Count, g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate,
			rate(g.TPR), rate(g.FPR))
	}
	if err := t.Flush(); err != nil {
		return err
	}
	return writeNotes(w, res.DecisionResult)
}

// writeDecision prints the decision metrics' lines of the metrics table.
func writeDecision(t io.Writer, d DecisionResult) {
	fmt.Fprintf(t, "dp_diff\t%.6g\n", d.DPDiff)
	fmt.Fprintf(t, "dp_ratio\t%.6g\n", d.DPRatio)
	fmt.Fprintf(t, "eo_diff\t%.6g\n", d.EODiff)
	fmt.Fprintf(t, "eopp_diff\t%.6g\n", d.EOppDiff)
}

// writeNotes says how decisions were taken, what scale the metrics are on
// and which groups the error-rate gaps leave out.
func writeNotes(w io.Writer, d DecisionResult) error {
	how := fmt.Sprintf("decisions: selected when the score is ≥ %g", d.Threshold)
	if d.Randomized {
		how = "decisions: the decision column's probabilities P(ŷ = 1); accuracy and rates are expectations over them"
	}
	fmt.Fprintf(w, "\n%s\n%s\n", how, fairness.ScaleNote)
	if len(d.NoPositives) > 0 {
		fmt.Fprintf(w, "no rows with the positive label in %s: left out of the TPR gap (eo_diff, eopp_diff)\n", strings.Join(d.NoPositives, ", "))
	}
	if len(d.NoNegatives) > 0 {
		fmt.Fprintf(w, "no rows with the negative label in %s: left out of the FPR gap (eo_diff)\n", strings.Join(d.NoNegatives, ", "))
	}
	return nil
}

// rate prints a rate, or "-" for none.
func rate(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", *v)
}

package fairness

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// AuditGroup is one group's row of an Audit.
type AuditGroup struct {
	Group string `json:"group"` // the value in the file
	GroupMetrics
}

// Audit are the metrics of a file of predictions, overall and per group;
// its JSON form is fp audit's output.
type Audit struct {
	N             int          `json:"n"`
	Risk          float64      `json:"risk"`
	Accuracy      float64      `json:"accuracy"`
	ATO           *float64     `json:"ato,omitempty"` // nil without propensities
	DP            float64      `json:"dp"`
	EO            float64      `json:"eo"`
	EOpp          float64      `json:"eopp"`
	LabelPositive string       `json:"label_positive"` // the label value coded 1
	GroupPositive string       `json:"group_positive"` // the group value coded 1
	ByGroup       []AuditGroup `json:"by_group"`       // group 0, then group 1
}

// AuditPredictions computes the metrics of predictions read by
// datasets.ReadPredictions: from logits, the risk in the exact form the
// records use (EvaluateLogits).
func AuditPredictions(in *datasets.Predictions) (*Audit, error) {
	var m Metrics
	var err error
	p := in.P
	if in.Z != nil {
		m, err = EvaluateLogits(in.Z, in.Y, in.A, in.E)
		p = make([]float64, len(in.Z))
		for i, z := range in.Z {
			p[i] = model.Sigmoid(z)
		}
	} else {
		m, err = Evaluate(in.P, in.Y, in.A, in.E)
	}
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	groups, err := ByGroup(p, in.Y, in.A)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	res := &Audit{N: m.N, Risk: m.Risk, Accuracy: m.Accuracy, DP: m.DP, EO: m.EO, EOpp: m.EOpp,
		LabelPositive: in.Label.Positive, GroupPositive: in.Group.Positive}
	if m.HasATO {
		res.ATO = &m.ATO
	}
	for a, name := range []string{in.Group.Negative, in.Group.Positive} {
		res.ByGroup = append(res.ByGroup, AuditGroup{Group: name, GroupMetrics: groups[a]})
	}
	return res, nil
}

// WriteText prints the audit as two plain-text tables: the metrics, then
// one row per group.
func (res *Audit) WriteText(w io.Writer) error {
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

package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/model"
)

// MinGroupRows is the fewest rows a group needs for its share of the
// R-group indices to be more than noise: a smaller group is still audited
// and counted in the indices, but flagged (docs/method.md §7).
const MinGroupRows = 30

// GroupRow is one row of the per-group table of an audit in R groups.
type GroupRow struct {
	Group string `json:"group"` // the group's name: a value, or values joined by " × "
	fairness.GroupMetrics
	// OverlapMean is the group's overlap-weighted mean score, of which the
	// ato is the largest pairwise difference; nil without propensities.
	OverlapMean *float64 `json:"overlap_mean,omitempty"`
	// TPR and FPR as in Group.
	TPR   *float64 `json:"tpr"`
	FPR   *float64 `json:"fpr"`
	Small bool     `json:"small"` // fewer than MinGroupRows rows
}

// GroupResult is the audit of a file of predictions in R groups (fp audit's
// JSON output when --group names several columns or a column of more than
// two values). The fairness metrics are the R-group ones of package
// fairness (Evaluate).
type GroupResult struct {
	N        int      `json:"n"`
	Risk     float64  `json:"risk"`
	Accuracy float64  `json:"accuracy"`
	ATO      *float64 `json:"ato,omitempty"`
	// ATOBetween names the groups of the largest and the smallest
	// overlap-weighted mean, whose difference the ato is.
	ATOBetween []string `json:"ato_between,omitempty"`
	DP         float64  `json:"dp"`
	EO         float64  `json:"eo"`
	EOpp       float64  `json:"eopp"`
	DecisionResult
	LabelPositive string     `json:"label_positive"` // the label value coded 1
	GroupColumns  []string   `json:"group_columns"`
	MinGroupRows  int        `json:"min_group_rows"` // groups with fewer rows are flagged small
	ByGroup       []GroupRow `json:"by_group"`
}

// ComputeGroups computes the R-group metrics of the predictions and every
// group's row. With propensities the ato uses the generalised overlap
// weights (fairness.OverlapWeights); a group whose rows all have
// weight 0 leaves it undefined and is an error naming the group.
func ComputeGroups(in *datasets.GroupedPredictions, opt Options) (*GroupResult, error) {
	r := len(in.Groups)
	var w []float64
	if in.E != nil {
		w = make([]float64, len(in.G))
		if err := fairness.OverlapWeights(in.E, r, in.G, w); err != nil {
			return nil, fmt.Errorf("audit %s: %w", in.File, err)
		}
		total := make([]float64, r)
		for i, g := range in.G {
			total[g] += w[i]
		}
		for g, s := range total {
			if !(s > 0) {
				return nil, fmt.Errorf("audit %s: every row of group %q has overlap weight 0 (another group's propensity is 0 on each), so its mean and the ato are undefined",
					in.File, in.Groups[g])
			}
		}
	}
	var m fairness.Metrics
	var err error
	p := in.P
	if in.Z != nil {
		m, err = fairness.EvaluateLogits(in.Z, in.Y, in.G, w)
		p = make([]float64, len(in.Z))
		for i, z := range in.Z {
			p[i] = model.Sigmoid(z)
		}
	} else {
		m, err = fairness.Evaluate(in.P, in.Y, in.G, w)
	}
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	groups, err := fairness.ByGroup(p, in.Y, in.G)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	dec, rates, acc, err := decide(p, in.D, in.Y, in.G, func(g int) string { return in.Groups[g] }, opt)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.File, err)
	}
	res := &GroupResult{N: m.N, Risk: m.Risk, Accuracy: acc, DP: m.DP, EO: m.EO, EOpp: m.EOpp, DecisionResult: dec,
		LabelPositive: in.Label.Positive, GroupColumns: in.Columns, MinGroupRows: MinGroupRows}
	for _, g := range groups {
		row := GroupRow{Group: in.Groups[g.A], GroupMetrics: g, Small: g.Count < MinGroupRows}
		setRates(&row.GroupMetrics, &row.TPR, &row.FPR, rates[g.A])
		res.ByGroup = append(res.ByGroup, row)
	}
	if m.HasATO {
		res.ATO = &m.ATO
		_, means, err := fairness.OverlapMeans(p, in.G, w)
		if err != nil {
			return nil, fmt.Errorf("audit %s: %w", in.File, err)
		}
		hi, lo := 0, 0
		for g := range means {
			res.ByGroup[g].OverlapMean = &means[g]
			if means[g] > means[hi] {
				hi = g
			}
			if means[g] < means[lo] {
				lo = g
			}
		}
		res.ATOBetween = []string{in.Groups[hi], in.Groups[lo]}
	}
	return res, nil
}

// WriteGroupsText prints res as fp audit does for R groups: the coding of
// the label, the grouping, the metrics, then one row per group, groups
// with fewer than MinGroupRows rows marked.
func WriteGroupsText(w io.Writer, in *datasets.GroupedPredictions, res *GroupResult) error {
	if note := in.CodingNote(); note != "" {
		fmt.Fprint(w, note)
	}
	fmt.Fprintf(w, "groups: %d, by %s\n", len(res.ByGroup), printable.String(strings.Join(res.GroupColumns, datasets.GroupSeparator)))
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(t, "n\t%d\n", res.N)
	fmt.Fprintf(t, "risk\t%.6g\n", res.Risk)
	fmt.Fprintf(t, "accuracy\t%.6g\n", res.Accuracy)
	if res.ATO != nil {
		fmt.Fprintf(t, "ato\t%.6g\t(%s − %s)\n", *res.ATO, printable.String(res.ATOBetween[0]), printable.String(res.ATOBetween[1]))
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
	head := "group\tcount\tbase_rate\tmean_score\taccuracy\tselection_rate\ttpr\tfpr"
	if res.ATO != nil {
		head += "\toverlap_mean"
	}
	fmt.Fprintln(t, head)
	small := 0
	for _, g := range res.ByGroup {
		fmt.Fprintf(t, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s", printable.String(g.Group), g.Count, g.BaseRate, g.MeanScore, g.Accuracy, g.SelectionRate, rate(g.TPR), rate(g.FPR))
		if g.OverlapMean != nil {
			fmt.Fprintf(t, "\t%.4f", *g.OverlapMean)
		}
		if g.Small {
			fmt.Fprint(t, "\t*")
			small++
		}
		fmt.Fprintln(t)
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if small > 0 {
		verb := "have"
		if small == 1 {
			verb = "has"
		}
		fmt.Fprintf(w, "* %d of %d groups %s fewer than %d rows: their rows and their part in the indices rest on few examples\n",
			small, len(res.ByGroup), verb, MinGroupRows)
	}
	return writeNotes(w, res.DecisionResult)
}

package fairness

import (
	"fmt"
	"math"
	"slices"

	"github.com/fpareto/fp/model"
)

// This file holds the decision metrics (docs/method.md §7.2): the rates of
// decisions ŷ ∈ {0, 1} that an auditor, the four-fifths rule and
// Fairlearn's demographic_parity_difference, demographic_parity_ratio and
// equalized_odds_difference speak of. Unlike the mean-variance indices
// (MV, DP, EO, EOpp), which compare whole score distributions and never
// exceed 1/4, they depend on the threshold that turns a score into a
// decision, and they are on the scale of rates: a dp_diff of 0.25 means
// one group is selected 25 percentage points more often than another.

// DefaultThreshold is the decision threshold unless one is given: a row is
// selected (ŷ = 1) when its predicted probability p ≥ DefaultThreshold.
const DefaultThreshold = 0.5

// GroupRates are the rates of decisions in one group. With randomized
// decisions (a probability of selection per row) they are expectations over
// the randomization.
type GroupRates struct {
	Group         int     `json:"group"`          // the group's label
	Count         int     `json:"count"`          // its rows
	Positives     int     `json:"positives"`      // its rows with y = 1
	SelectionRate float64 `json:"selection_rate"` // P(ŷ = 1)
	Accuracy      float64 `json:"accuracy"`       // P(ŷ = y)
	// TPR is P(ŷ = 1 | y = 1) and FPR P(ŷ = 1 | y = 0); each is 0 and
	// left out of the gaps when the group has no such rows.
	TPR float64 `json:"tpr"`
	FPR float64 `json:"fpr"`
}

// Decision are the decision metrics of a set of decisions against groups,
// as Fairlearn defines them (docs/method.md §7.2), every one of them
// "lower is fairer" except DPRatio:
//
//   - DPDiff: the largest minus the smallest selection rate over the groups
//     (demographic_parity_difference);
//   - DPRatio: the smallest over the largest selection rate
//     (demographic_parity_ratio, the four-fifths rule's ratio), 1 when
//     every rate is equal, all-zero rates included;
//   - EODiff: the larger of the TPR gap and the FPR gap, each the largest
//     minus the smallest rate (equalized_odds_difference);
//   - EOppDiff: the TPR gap (Fairlearn's true_positive_rate difference).
//
// A group without positives has no TPR and one without negatives no FPR:
// it is left out of that gap and named in NoPositives or NoNegatives (where
// Fairlearn would count its rate as 0). A gap with fewer than two groups
// left is 0.
type Decision struct {
	Threshold float64 `json:"threshold"`
	// Accuracy is the share of rows whose decision equals the label (an
	// expectation for randomized decisions).
	Accuracy    float64      `json:"accuracy"`
	DPDiff      float64      `json:"dp_diff"`
	DPRatio     float64      `json:"dp_ratio"`
	EODiff      float64      `json:"eo_diff"`
	EOppDiff    float64      `json:"eopp_diff"`
	Groups      []GroupRates `json:"groups"`
	NoPositives []int        `json:"no_positives,omitempty"`
	NoNegatives []int        `json:"no_negatives,omitempty"`
}

// MajorityShare is the share of the rows given the more frequent decision:
// the larger of the overall selection rate and its complement (an
// expectation for randomized decisions); 1 for no rows.
func (d *Decision) MajorityShare() float64 {
	var n, sel float64
	for _, g := range d.Groups {
		n += float64(g.Count)
		sel += float64(g.Count) * g.SelectionRate
	}
	if n == 0 {
		return 1
	}
	return max(sel/n, 1-sel/n)
}

// ThresholdOr is a stored threshold t as a threshold: configurations and
// records store the default as 0 (so that they read as those written before
// thresholds existed), which is DefaultThreshold.
func ThresholdOr(t float64) float64 {
	if t == 0 {
		return DefaultThreshold
	}
	return t
}

// Decisions returns the decisions of probabilities p at threshold t: 1
// where p ≥ t, else 0.
func Decisions(p []float64, t float64) []float64 {
	d := make([]float64, len(p))
	for i, v := range p {
		if v >= t {
			d[i] = 1
		}
	}
	return d
}

// DecideScores computes the decision metrics of probabilities p at
// threshold t against labels y and groups z (integer labels; for a binary
// attribute a, z_i = a_i). t must be in (0, 1].
func DecideScores(p, y []float64, z []int, t float64) (Decision, error) {
	if !(t > 0 && t <= 1) {
		return Decision{}, fmt.Errorf("decision threshold %v: want a number in (0, 1]", t)
	}
	d, err := DecideRandomized(Decisions(p, t), y, z)
	d.Threshold = t
	return d, err
}

// DecideLogits is DecideScores for logits z, p = σ(z) (model.Sigmoid, as
// the records' probabilities are computed).
func DecideLogits(z, y []float64, groups []int, t float64) (Decision, error) {
	p := make([]float64, len(z))
	for i, v := range z {
		p[i] = model.Sigmoid(v)
	}
	return DecideScores(p, y, groups, t)
}

// DecideRandomized computes the decision metrics of decisions given as
// probabilities of selection d_i = P(ŷ_i = 1) (0 or 1 for a deterministic
// classifier; a randomized one's, as Fairlearn's ExponentiatedGradient and
// ThresholdOptimizer give): every rate is its expectation over the
// randomization. d must be in [0, 1] (readers of files clip the rounding
// of randomized mixtures first: datasets.ProbabilityTolerance), y 0 or 1, all of one length n ≥ 1, with at
// least two groups present; otherwise the error names the first offending
// row. Threshold is 0 in the result (no threshold was applied).
func DecideRandomized(d, y []float64, z []int) (Decision, error) {
	n := len(d)
	if n == 0 {
		return Decision{}, fmt.Errorf("decisions: no rows")
	}
	if len(y) != n || len(z) != n {
		return Decision{}, fmt.Errorf("decisions: %d decisions, %d labels and %d groups: want equal lengths", n, len(y), len(z))
	}
	index := map[int]int{}
	var labels []int
	for i, g := range z {
		v := d[i]
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return Decision{}, fmt.Errorf("decisions: row %d: decision %v, want a probability in [0, 1]", i, v)
		case v < 0 || v > 1:
			return Decision{}, fmt.Errorf("decisions: row %d: decision %v outside [0, 1]", i, v)
		case y[i] != 0 && y[i] != 1:
			return Decision{}, fmt.Errorf("decisions: row %d: label %v, want 0 or 1", i, y[i])
		}
		if _, ok := index[g]; !ok {
			index[g] = 0
			labels = append(labels, g)
		}
	}
	if len(labels) < 2 {
		return Decision{}, fmt.Errorf("decisions: every row is in group %d: the decision metrics compare groups", labels[0])
	}
	slices.Sort(labels)
	for k, g := range labels {
		index[g] = k
	}
	r := len(labels)
	count, pos := make([]int, r), make([]int, r)
	sel, tp, fp, right := make([]float64, r), make([]float64, r), make([]float64, r), make([]float64, r)
	for i, g := range z {
		k := index[g]
		v := d[i]
		count[k]++
		sel[k] += v
		if y[i] == 1 {
			pos[k]++
			tp[k] += v
			right[k] += v
		} else {
			fp[k] += v
			right[k] += 1 - v
		}
	}
	var correct float64
	for _, c := range right {
		correct += c
	}
	out := Decision{Accuracy: correct / float64(n), Groups: make([]GroupRates, r)}
	var rates, tprs, fprs []float64
	for k, g := range labels {
		c := float64(count[k])
		gr := GroupRates{Group: g, Count: count[k], Positives: pos[k], SelectionRate: sel[k] / c, Accuracy: right[k] / c}
		rates = append(rates, gr.SelectionRate)
		if pos[k] > 0 {
			gr.TPR = tp[k] / float64(pos[k])
			tprs = append(tprs, gr.TPR)
		} else {
			out.NoPositives = append(out.NoPositives, g)
		}
		if neg := count[k] - pos[k]; neg > 0 {
			gr.FPR = fp[k] / float64(neg)
			fprs = append(fprs, gr.FPR)
		} else {
			out.NoNegatives = append(out.NoNegatives, g)
		}
		out.Groups[k] = gr
	}
	lo, hi := slices.Min(rates), slices.Max(rates)
	out.DPDiff = hi - lo
	out.DPRatio = 1
	if hi > 0 {
		out.DPRatio = lo / hi
	}
	out.EOppDiff = gap(tprs)
	out.EODiff = max(out.EOppDiff, gap(fprs))
	return out, nil
}

// gap is the largest minus the smallest of v; 0 for fewer than two values.
func gap(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	return slices.Max(v) - slices.Min(v)
}

// ScaleNote says, once per output that shows them, what scale the score
// metrics and the decision metrics are on (docs/method.md §7.2).
const ScaleNote = "dp, eo, eopp: mean-variance indices of the score distributions (0 when the groups' scores are alike, " +
	"at most 0.25 for two groups; no threshold)\n" +
	"dp_diff, eo_diff, eopp_diff: gaps between the groups' rates of decisions (0 to 1); dp_ratio: the smallest " +
	"selection rate over the largest (the four-fifths rule asks ≥ 0.8)"

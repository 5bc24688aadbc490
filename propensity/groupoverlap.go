package propensity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/internal/printable"
	"gonum.org/v1/gonum/stat"
)

// OverlapWeights writes into w the overlap weights of rows in R = groups
// groups (Li and Li 2019; docs/method.md §4.4): with e row-major n×groups
// the calibrated propensities, row i in group a_i gets
//
//	w_i = h(x_i) / e_{a_i}(x_i),  h(x) = 1 / Σ_r 1/e_r(x).
//
// With two groups, e = (1 − ê, ê) and a ∈ {0, 1}, h = ê(1 − ê) and w is
// 1 − ê for a = 1 and ê for a = 0 (up to rounding), what
// fairness.OverlapWeights gives for the propensity scores ê. Errors: fewer than two groups, shapes that differ, a group
// outside 0…groups−1, or a propensity that is not in (0, 1]; each names the
// row.
func OverlapWeights(e []float64, groups int, a []int, w []float64) error {
	if groups < 2 {
		return fmt.Errorf("overlap weights: %d groups, want ≥ 2", groups)
	}
	if len(e) != len(a)*groups || len(w) != len(a) {
		return fmt.Errorf("overlap weights: %d propensities and %d weights for %d rows of %d groups", len(e), len(w), len(a), groups)
	}
	for i, g := range a {
		if g < 0 || g >= groups {
			return fmt.Errorf("overlap weights: row %d: group %d, want a code in 0…%d", i, g, groups-1)
		}
		for r, v := range e[i*groups : (i+1)*groups] {
			if !(v > 0 && v <= 1) {
				return fmt.Errorf("overlap weights: row %d: propensity of group %d is %v, want a value in (0, 1]", i, r, v)
			}
		}
	}
	// The audit computes the same weights from propensity columns; one
	// arithmetic serves both.
	return fairness.OverlapWeights(e, groups, a, w)
}

// GroupOverlap is Overlap for R groups (docs/method.md §4.4): how far the
// calibrated propensities e_r separate the groups on a set of rows.
type GroupOverlap struct {
	// Temperature is the model's; 0 for rows whose model is not known (a
	// file of predictions).
	Temperature float64 `json:"temperature,omitempty"`
	// Extreme is the share of rows extreme for some group r: e_r below
	// ExtremeBelow(π_r), π_r the share of the rows in group r; with two
	// groups the rows Overlap counts. Summaries written before the bound
	// scaled with the share hold the share with some e_r < 0.01.
	Extreme float64 `json:"extreme"`
	// Clipped is the share of rows whose smallest e_r is at most Clip: a
	// propensity that was floored (CalibratedProbabilities).
	Clipped float64      `json:"clipped"`
	Groups  []GroupStats `json:"groups"`
}

// GroupStats describes one group r on a set of rows.
type GroupStats struct {
	Level string `json:"level"` // the group's name
	N     int    `json:"n"`     // rows in the group
	// ESS is the effective sample size (Σw)²/Σw² of the overlap weights of
	// the group's rows, and MaxShare the largest share of their total
	// weight that one row carries (1/N for uniform weights).
	ESS      float64 `json:"ess"`
	MaxShare float64 `json:"max_share"`
	// Extreme is the share of all rows (of every group) with e_r below
	// ExtremeBelow of the group's share: rows that have almost no
	// counterpart in this group.
	Extreme float64 `json:"extreme"`
	// Quantiles are e_r over all rows at QuantileLevels.
	Quantiles []float64 `json:"quantiles"`
}

// DiagnoseGroups summarises the calibrated propensities e (row-major
// n×len(levels)) of rows with groups a, from a model of temperature t;
// levels names the groups in code order. The weights are OverlapWeights'.
func DiagnoseGroups(e []float64, levels []string, a []int, t float64) (GroupOverlap, error) {
	R, n := len(levels), len(a)
	if R < 2 {
		return GroupOverlap{}, fmt.Errorf("overlap: %d groups, want ≥ 2", R)
	}
	if n == 0 || len(e) != n*R {
		return GroupOverlap{}, fmt.Errorf("overlap: %d propensities for %d rows of %d groups", len(e), n, R)
	}
	w := make([]float64, n)
	if err := OverlapWeights(e, R, a, w); err != nil {
		return GroupOverlap{}, fmt.Errorf("overlap: %w", err)
	}
	o := GroupOverlap{Temperature: t, Groups: make([]GroupStats, R)}
	for _, g := range a {
		o.Groups[g].N++
	}
	// Each group's bound scales with its share, so that a rare group is
	// not extreme for being rare (ExtremeRatio).
	below := make([]float64, R)
	for r, s := range o.Groups {
		below[r] = ExtremeBelow(float64(s.N) / float64(n))
	}
	sum, sq, top := make([]float64, R), make([]float64, R), make([]float64, R)
	extreme, clipped := 0, 0
	low := make([]int, R)
	for i, g := range a {
		row := e[i*R : (i+1)*R]
		if AtClip(slices.Min(row)) {
			clipped++
		}
		some := false
		for r, v := range row {
			if v < below[r] {
				low[r]++
				some = true
			}
		}
		if some {
			extreme++
		}
		sum[g], sq[g], top[g] = sum[g]+w[i], sq[g]+w[i]*w[i], max(top[g], w[i])
	}
	o.Extreme = float64(extreme) / float64(n)
	o.Clipped = float64(clipped) / float64(n)
	col := make([]float64, n)
	for r := range o.Groups {
		s := &o.Groups[r]
		s.Level = levels[r]
		s.Extreme = float64(low[r]) / float64(n)
		if sq[r] > 0 {
			s.ESS = sum[r] * sum[r] / sq[r]
			s.MaxShare = top[r] / sum[r]
		}
		for i := range col {
			col[i] = e[i*R+r]
		}
		slices.Sort(col)
		for _, p := range QuantileLevels {
			s.Quantiles = append(s.Quantiles, stat.Quantile(p, stat.Empirical, col, nil))
		}
	}
	return o, nil
}

// AtMinT reports whether the temperature sits at its lower bound MinT: the
// logits separated the groups on the calibration rows.
func (o GroupOverlap) AtMinT() bool { return atMinT(o.Temperature) }

func atMinT(t float64) bool { return t > 0 && t <= MinT*(1+1e-9) }

// String is a one-line summary: the temperature, then WeightsString.
func (o GroupOverlap) String() string {
	return fmt.Sprintf("T %.3g, %s", o.Temperature, o.WeightsString())
}

// WeightsString is a one-line summary of the weights on some rows: the
// extreme and clipped shares, and per group its effective sample size
// against its rows and the largest share of its weight on one row.
func (o GroupOverlap) WeightsString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "extreme %.1f%%", 100*o.Extreme)
	if o.Clipped > 0 {
		fmt.Fprintf(&b, ", clipped %.1f%%", 100*o.Clipped)
	}
	for _, g := range o.Groups {
		fmt.Fprintf(&b, ", ESS %s %.1f/%d (one row up to %.1f%%)", printable.String(g.Level), g.ESS, g.N, 100*g.MaxShare)
	}
	return b.String()
}

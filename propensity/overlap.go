package propensity

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// QuantileLevels are the levels at which Overlap.Quantiles describe ê.
var QuantileLevels = []float64{0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1}

// Overlap summarises how far the calibrated propensity ê separates the two
// groups on a set of rows, which is what the ATO penalty's overlap weights
// rest on: where ê is near 0 or 1 for most rows, one group has almost no
// counterpart in the other and the weighted contrast rests on few rows.
type Overlap struct {
	Temperature float64   `json:"temperature"`
	Quantiles   []float64 `json:"quantiles"` // ê at QuantileLevels
	// Extreme is the share of rows extreme for a group (ExtremeRatio): with
	// π_1 and π_0 the groups' shares of the rows, ê < ExtremeBelow(π_1)
	// (no counterpart in a = 1) or 1 − ê < ExtremeBelow(π_0) (none in
	// a = 0); Extreme1 and Extreme0 are the shares of rows of each kind.
	// Summaries written before the bounds scaled with the shares hold the
	// share of ê < 0.01 or > 0.99, and no Extreme1 or Extreme0.
	Extreme  float64 `json:"extreme"`
	Extreme1 float64 `json:"extreme1,omitempty"`
	Extreme0 float64 `json:"extreme0,omitempty"`
	// ESS1 and ESS0 are the effective sample sizes (Σw)²/Σw² of the overlap
	// weights w in group a = 1 and a = 0; N1 and N0 are the groups' rows.
	ESS1 float64 `json:"ess1"`
	ESS0 float64 `json:"ess0"`
	N1   int     `json:"n1"`
	N0   int     `json:"n0"`
	// MaxShare1 and MaxShare0 are the largest share of a group's total
	// overlap weight that one row carries (1/N for uniform weights).
	// Clipped is the share of rows whose ê sits at a clip bound (Clip or
	// 1 − Clip): their weight is the clip's, not the model's. Summaries
	// written before these keys existed have them 0.
	MaxShare1 float64 `json:"max_share1,omitempty"`
	MaxShare0 float64 `json:"max_share0,omitempty"`
	Clipped   float64 `json:"clipped,omitempty"`
}

// Diagnose summarises the calibrated scores e of rows with groups a (0/1),
// from a model of temperature t.
func Diagnose(e, a []float64, t float64) (Overlap, error) {
	if len(e) != len(a) || len(e) == 0 {
		return Overlap{}, fmt.Errorf("overlap: %d scores for %d rows", len(e), len(a))
	}
	o := Overlap{Temperature: t}
	for _, g := range a {
		if g == 1 {
			o.N1++
		}
	}
	o.N0 = len(a) - o.N1
	// The bounds scale with each group's share, so that a rare group is
	// not extreme for being rare (ExtremeRatio).
	lo := ExtremeBelow(float64(o.N1) / float64(len(a)))
	hi := 1 - ExtremeBelow(float64(o.N0)/float64(len(a)))
	var s1, q1, s0, q0, m1, m0 float64
	extreme, ext1, ext0, clipped := 0, 0, 0, 0
	for i, v := range e {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return Overlap{}, fmt.Errorf("overlap: row %d: score %v is not a probability", i, v)
		}
		if v < lo {
			ext1++
		}
		if v > hi {
			ext0++
		}
		if v < lo || v > hi {
			extreme++
		}
		if AtClip(v) || AtClip(1-v) {
			clipped++
		}
		if a[i] == 1 {
			w := 1 - v
			s1, q1, m1 = s1+w, q1+w*w, max(m1, w)
		} else {
			s0, q0, m0 = s0+v, q0+v*v, max(m0, v)
		}
	}
	o.Extreme = float64(extreme) / float64(len(e))
	o.Extreme1 = float64(ext1) / float64(len(e))
	o.Extreme0 = float64(ext0) / float64(len(e))
	o.Clipped = float64(clipped) / float64(len(e))
	if s1 > 0 {
		o.MaxShare1 = m1 / s1
	}
	if s0 > 0 {
		o.MaxShare0 = m0 / s0
	}
	ess := func(s, q float64) float64 {
		if q == 0 {
			return 0
		}
		return s * s / q
	}
	o.ESS1, o.ESS0 = ess(s1, q1), ess(s0, q0)
	sorted := slices.Clone(e)
	slices.Sort(sorted)
	for _, p := range QuantileLevels {
		o.Quantiles = append(o.Quantiles, stat.Quantile(p, stat.Empirical, sorted, nil))
	}
	return o, nil
}

// AtMinT reports whether the temperature sits at its lower bound MinT: the
// logits separated the groups on the calibration rows, so the model is as
// sharp as it may be and its ê are pushed to 0 and 1.
func (o Overlap) AtMinT() bool { return o.Temperature > 0 && o.Temperature <= MinT*(1+1e-9) }

// AllClipped reports whether every ê was clipped: the overlap weights are
// then the clip's constants, uniform within each group, so the effective
// sample size reads as every row although the groups do not overlap at all.
func (o Overlap) AllClipped() bool { return o.Clipped == 1 }

// ESSNote explains an effective sample size that reads as every row
// although the overlap is poor: "" unless every ê was clipped.
func (o Overlap) ESSNote() string {
	if !o.AllClipped() {
		return ""
	}
	return fmt.Sprintf("every ê is clipped to %g or %g, so the weights are uniform within each group: the effective sample size counts every row, yet the groups do not overlap", Clip, 1-Clip)
}

// WeightsString is a one-line summary of the weights on rows where a
// metric is measured: the extreme share, and per group the effective sample
// size and the largest share of the group's weight on one row, with ESSNote
// when every ê is clipped.
func (o Overlap) WeightsString() string {
	s := fmt.Sprintf("extreme %.1f%%, ESS a=1 %.1f/%d (one row up to %.1f%% of the weight), a=0 %.1f/%d (up to %.1f%%)",
		100*o.Extreme, o.ESS1, o.N1, 100*o.MaxShare1, o.ESS0, o.N0, 100*o.MaxShare0)
	if note := o.ESSNote(); note != "" {
		s += " (" + note + ")"
	}
	return s
}

// String is a one-line summary: temperature, median and 1%/99% quantiles of
// ê, the extreme share and the effective sample sizes, with ESSNote when
// every ê is clipped (the sizes then read as every row).
func (o Overlap) String() string {
	q := func(level float64) float64 {
		for i, l := range QuantileLevels {
			if l == level && i < len(o.Quantiles) {
				return o.Quantiles[i]
			}
		}
		return math.NaN()
	}
	s := fmt.Sprintf("T %.3g, ê 1%%/50%%/99%% %.3f/%.3f/%.3f, extreme %.1f%%, ESS a=1 %.0f/%d, a=0 %.0f/%d",
		o.Temperature, q(0.01), q(0.5), q(0.99), 100*o.Extreme, o.ESS1, o.N1, o.ESS0, o.N0)
	if note := o.ESSNote(); note != "" {
		s += " (" + note + ")"
	}
	return s
}

// Predictor is a source column of the data and how strongly it goes with
// the sensitive attribute, and with the target: leaving out a column that
// stands in for the attribute is the usual remedy for poor overlap, and it
// costs accuracy when the column also predicts the target (WithTarget).
type Predictor struct {
	Column string  `json:"column"` // the source column ("sex" for "sex=Male")
	Corr   float64 `json:"corr"`   // the largest |correlation| of its encoded columns with a
	// Target is the largest |correlation| of its encoded columns with the
	// target y; Strongest says that no feature column's is larger, and Only
	// that it is the only feature column. Absent from summaries written
	// before they were measured.
	Target    float64 `json:"target_corr,omitempty"`
	Strongest bool    `json:"strongest_target,omitempty"`
	Only      bool    `json:"only_feature,omitempty"`
}

// associations is the largest absolute Pearson correlation with v of the
// encoded columns of each source column of x (n rows × len(sources)
// encoded columns; sources[j] is the source of encoded column j), the
// sources in their first column's order; constant columns are left out.
func associations(x []float64, n int, sources []string, v []float64) ([]string, map[string]float64) {
	dim := len(sources)
	if n < 2 || len(x) != n*dim || len(v) != n {
		return nil, nil
	}
	best := map[string]float64{}
	var order []string
	col := make([]float64, n)
	for j, src := range sources {
		for i := range n {
			col[i] = x[i*dim+j]
		}
		if stat.Variance(col, nil) == 0 {
			continue
		}
		c := math.Abs(stat.Correlation(col, v, nil))
		if math.IsNaN(c) {
			continue
		}
		if old, ok := best[src]; !ok || c > old {
			if !ok {
				order = append(order, src)
			}
			best[src] = c
		}
	}
	return order, best
}

// Predictors ranks the source columns of x (n rows × len(sources) encoded
// columns; sources[j] is the source column encoded column j comes from,
// "sex" for "sex=Male", datasets.Schema.Sources) by the largest absolute
// Pearson correlation of any of their encoded columns with a, and returns
// the first k. It is a cheap answer to "which inputs give the group away",
// for a poor-overlap warning; constant columns are left out.
func Predictors(x []float64, n int, sources []string, a []float64, k int) []Predictor {
	order, best := associations(x, n, sources, a)
	out := make([]Predictor, 0, len(order))
	for _, s := range order {
		out = append(out, Predictor{Column: s, Corr: best[s]})
	}
	slices.SortStableFunc(out, func(p, q Predictor) int {
		switch {
		case p.Corr > q.Corr:
			return -1
		case p.Corr < q.Corr:
			return 1
		}
		return 0
	})
	return out[:min(k, len(out))]
}

// WithTarget sets what leaving each of preds out would cost, measured as
// Predictors measures the attribute: each column's largest |correlation|
// with the target y, whether it is the strongest single predictor of y
// among the feature columns (the first of equals), and whether it is the
// only feature column. x, n and sources are Predictors'.
func WithTarget(preds []Predictor, x []float64, n int, sources []string, y []float64) []Predictor {
	order, corr := associations(x, n, sources, y)
	strongest := ""
	for _, s := range order {
		if strongest == "" || corr[s] > corr[strongest] {
			strongest = s
		}
	}
	columns := map[string]bool{}
	for _, s := range sources {
		columns[s] = true
	}
	out := slices.Clone(preds)
	for i := range out {
		p := &out[i]
		p.Target, p.Strongest, p.Only = corr[p.Column], p.Column == strongest, len(columns) == 1
	}
	return out
}

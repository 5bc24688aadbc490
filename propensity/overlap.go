package propensity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// QuantileLevels are the levels at which Overlap.Quantiles describe ê.
var QuantileLevels = []float64{0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1}

// Extreme is how close to 0 or 1 a calibrated score must come to count as
// extreme: ê < Extreme or ê > 1 − Extreme.
const Extreme = 0.01

// Poor-overlap thresholds: more than PoorExtremeShare of the rows extreme,
// or a group whose overlap weights have an effective sample size below
// PoorESSShare of its rows.
const (
	PoorExtremeShare = 0.1
	PoorESSShare     = 0.1
)

// Overlap summarises how far the calibrated propensity ê separates the two
// groups on a set of rows, which is what the ATO penalty's overlap weights
// rest on: where ê is near 0 or 1 for most rows, one group has almost no
// counterpart in the other and the weighted contrast rests on few rows.
type Overlap struct {
	Temperature float64   `json:"temperature"`
	Quantiles   []float64 `json:"quantiles"` // ê at QuantileLevels
	Extreme     float64   `json:"extreme"`   // share of rows with ê < 0.01 or ê > 0.99
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
	var s1, q1, s0, q0, m1, m0 float64
	extreme, clipped := 0, 0
	for i, v := range e {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return Overlap{}, fmt.Errorf("overlap: row %d: score %v is not a probability", i, v)
		}
		if v < Extreme || v > 1-Extreme {
			extreme++
		}
		if v <= Clip || v >= 1-Clip {
			clipped++
		}
		if a[i] == 1 {
			w := 1 - v
			s1, q1, m1 = s1+w, q1+w*w, max(m1, w)
			o.N1++
		} else {
			s0, q0, m0 = s0+v, q0+v*v, max(m0, v)
			o.N0++
		}
	}
	o.Extreme = float64(extreme) / float64(len(e))
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

// Poor reports whether the overlap is too weak for the ATO estimate to be
// trusted, and why, in a phrase ("" when it is not).
func (o Overlap) Poor() (bool, string) {
	var why []string
	if o.Extreme > PoorExtremeShare {
		why = append(why, fmt.Sprintf("%.0f%% of the rows have ê < %g or > %g", 100*o.Extreme, Extreme, 1-Extreme))
	}
	for _, g := range []struct {
		name string
		ess  float64
		n    int
	}{{"a = 1", o.ESS1, o.N1}, {"a = 0", o.ESS0, o.N0}} {
		if g.n > 0 && g.ess < PoorESSShare*float64(g.n) {
			why = append(why, fmt.Sprintf("the overlap weights of group %s count as %.0f of its %d rows", g.name, g.ess, g.n))
		}
	}
	return len(why) > 0, strings.Join(why, "; ")
}

// AtMinT reports whether the temperature sits at its lower bound MinT: the
// logits separated the groups on the calibration rows, so the model is as
// sharp as it may be and its ê are pushed to 0 and 1.
func (o Overlap) AtMinT() bool { return o.Temperature > 0 && o.Temperature <= MinT*(1+1e-9) }

// AllClipped reports whether every ê was clipped: the overlap weights are
// then the clip's constants, uniform within each group, so the effective
// sample size reads as every row although the groups do not overlap at all.
func (o Overlap) AllClipped() bool { return o.Clipped == 1 }

// Unreliable is the rule that says when a split's ATO, measured on some
// rows with the overlap weights of its calibrated propensity, cannot be
// trusted. train is the overlap on the training rows (where the propensity
// was fitted), eval on the rows the ATO is measured on (test or selection
// rows). The ATO is unreliable when any of these holds:
//   - the temperature is at its lower bound (AtMinT): the groups were
//     separable on the calibration rows;
//   - more than PoorExtremeShare of the rows are extreme (ê < 0.01 or
//     > 0.99), on either set of rows;
//   - on the evaluation rows a group's effective sample size is below
//     PoorESSShare of its rows, or one row carries more than
//     UnreliableMaxShare of the group's weight.
//
// why lists every reason that holds, in a phrase ("" when reliable).
func Unreliable(train, eval Overlap) (bool, string) {
	var why []string
	if train.AtMinT() {
		why = append(why, fmt.Sprintf("the calibration temperature is at its lower bound %g (the groups are separable on the training rows)", MinT))
	}
	for _, s := range []struct {
		name string
		o    Overlap
	}{{"training", train}, {"evaluation", eval}} {
		if s.o.Extreme > PoorExtremeShare {
			why = append(why, fmt.Sprintf("%.0f%% of the %s rows have ê < %g or > %g", 100*s.o.Extreme, s.name, Extreme, 1-Extreme))
		}
	}
	for _, g := range []struct {
		name  string
		ess   float64
		n     int
		share float64
	}{{"a = 1", eval.ESS1, eval.N1, eval.MaxShare1}, {"a = 0", eval.ESS0, eval.N0, eval.MaxShare0}} {
		switch {
		case g.n > 0 && g.ess < PoorESSShare*float64(g.n):
			why = append(why, fmt.Sprintf("on the evaluation rows the overlap weights of group %s count as %.1f of its %d rows", g.name, g.ess, g.n))
		case g.share > UnreliableMaxShare:
			why = append(why, fmt.Sprintf("on the evaluation rows one row carries %.0f%% of group %s's weight", 100*g.share, g.name))
		}
	}
	return len(why) > 0, strings.Join(why, "; ")
}

// UnreliableMaxShare is the largest share of a group's overlap weight one
// evaluation row may carry before the ATO counts as unreliable: above it a
// single row moves the group's weighted mean by more than a tenth of its
// score.
const UnreliableMaxShare = 0.1

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
// the sensitive attribute.
type Predictor struct {
	Column string  `json:"column"` // the source column ("sex" for "sex=Male")
	Corr   float64 `json:"corr"`   // the largest |correlation| of its encoded columns with a
}

// Predictors ranks the source columns of x (n rows × len(sources) encoded
// columns; sources[j] is the source column encoded column j comes from,
// "sex" for "sex=Male", datasets.Schema.Sources) by the largest absolute
// Pearson correlation of any of their encoded columns with a, and returns
// the first k. It is a cheap answer to "which inputs give the group away",
// for a poor-overlap warning; constant columns are left out.
func Predictors(x []float64, n int, sources []string, a []float64, k int) []Predictor {
	dim := len(sources)
	if n < 2 || len(x) != n*dim || len(a) != n {
		return nil
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
		c := math.Abs(stat.Correlation(col, a, nil))
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

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
}

// Diagnose summarises the calibrated scores e of rows with groups a (0/1),
// from a model of temperature t.
func Diagnose(e, a []float64, t float64) (Overlap, error) {
	if len(e) != len(a) || len(e) == 0 {
		return Overlap{}, fmt.Errorf("overlap: %d scores for %d rows", len(e), len(a))
	}
	o := Overlap{Temperature: t}
	var s1, q1, s0, q0 float64
	extreme := 0
	for i, v := range e {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return Overlap{}, fmt.Errorf("overlap: row %d: score %v is not a probability", i, v)
		}
		if v < Extreme || v > 1-Extreme {
			extreme++
		}
		if a[i] == 1 {
			w := 1 - v
			s1, q1 = s1+w, q1+w*w
			o.N1++
		} else {
			s0, q0 = s0+v, q0+v*v
			o.N0++
		}
	}
	o.Extreme = float64(extreme) / float64(len(e))
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

// String is a one-line summary: temperature, median and 1%/99% quantiles of
// ê, the extreme share and the effective sample sizes.
func (o Overlap) String() string {
	q := func(level float64) float64 {
		for i, l := range QuantileLevels {
			if l == level && i < len(o.Quantiles) {
				return o.Quantiles[i]
			}
		}
		return math.NaN()
	}
	return fmt.Sprintf("T %.3g, ê 1%%/50%%/99%% %.3f/%.3f/%.3f, extreme %.1f%%, ESS a=1 %.0f/%d, a=0 %.0f/%d",
		o.Temperature, q(0.01), q(0.5), q(0.99), 100*o.Extreme, o.ESS1, o.N1, o.ESS0, o.N0)
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

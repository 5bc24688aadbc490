package bootstrap

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ScoreOrder writes into dst the multiplicities m given in the order of
// the rows as the sample was made (row i of its inputs counted m[i]
// times), rearranged into the sample's score order, as Metrics and
// Decision take them. A single sample needs no such mapping (its
// multiplicities are exchangeable, see Metrics); two networks scored on
// the same rows sort them differently, and a paired resample must count
// the same row the same number of times in both.
func (s *Sample) ScoreOrder(m, dst []float64) {
	if len(m) != len(s.p) || len(dst) != len(s.p) {
		panic(fmt.Sprintf("bootstrap: %d multiplicities into %d for %d rows", len(m), len(dst), len(s.p)))
	}
	for k, i := range s.order {
		dst[k] = m[i]
	}
}

// Differences draws resamples paired bootstrap resamples of the rows that
// a and b share and returns, for every metric, the percentile interval at
// level of the difference b − a: each resample draws the rows once, and
// both networks' metrics are computed with the same row counted the same
// number of times. a and b must be samples of the same rows in the same
// order (their labels and groups agree row by row), scored by two
// networks.
//
// Pairing removes the variation the two networks share: two networks of
// one split that rank the rows alike have differences far less variable
// than their metrics, so that a difference can be told from 0 even where
// their two intervals overlap.
//
// A resample that lacks a group (or, for the ATO, the overlap weight of
// one) is left out of the fairness differences; when fewer than
// MinValidShare of the resamples are left, the fairness intervals are NaN
// and the error says why, and the risk and accuracy intervals are still
// given. HasATO is set when both samples have a propensity.
func Differences(a, b *Sample, resamples int, level float64, rng *rand.Rand) (Intervals, error) {
	if resamples < 2 {
		return Intervals{}, fmt.Errorf("bootstrap: %d resamples, want ≥ 2", resamples)
	}
	if !(level > 0 && level < 1) {
		return Intervals{}, fmt.Errorf("bootstrap: level %g, want a value in (0, 1)", level)
	}
	if err := sameRows(a, b); err != nil {
		return Intervals{}, err
	}
	n := a.Len()
	m, ma, mb := make([]float64, n), make([]float64, n), make([]float64, n)
	hasATO := a.HasATO() && b.HasATO()
	var risk, acc, ato, dp, eo, eopp, dpDiff, dpRatio, eoDiff, eoppDiff []float64
	risk = make([]float64, 0, resamples)
	acc = make([]float64, 0, resamples)
	for range resamples {
		// Draw counts rows by position; here the positions are read as
		// the rows' given order, which both samples share.
		a.Draw(rng, m)
		a.ScoreOrder(m, ma)
		b.ScoreOrder(m, mb)
		ea, okA := a.Metrics(ma)
		eb, okB := b.Metrics(mb)
		risk = append(risk, eb.Risk-ea.Risk)
		acc = append(acc, eb.Accuracy-ea.Accuracy)
		if okA && okB {
			dp, eo, eopp = append(dp, eb.DP-ea.DP), append(eo, eb.EO-ea.EO), append(eopp, eb.EOpp-ea.EOpp)
			da, db := a.Decision(ma), b.Decision(mb)
			dpDiff, dpRatio = append(dpDiff, db.DPDiff-da.DPDiff), append(dpRatio, db.DPRatio-da.DPRatio)
			eoDiff, eoppDiff = append(eoDiff, db.EODiff-da.EODiff), append(eoppDiff, db.EOppDiff-da.EOppDiff)
			if hasATO {
				ato = append(ato, eb.ATO-ea.ATO)
			}
		}
	}
	out := Intervals{Resamples: resamples, Valid: len(dp), Level: level, HasATO: hasATO}
	out.Risk, out.Accuracy = percentile(risk, level), percentile(acc, level)
	if float64(len(dp)) < MinValidShare*float64(resamples) {
		nan := Interval{math.NaN(), math.NaN()}
		out.ATO, out.DP, out.EO, out.EOpp = nan, nan, nan, nan
		out.DPDiff, out.DPRatio, out.EODiff, out.EOppDiff = nan, nan, nan, nan
		return out, fmt.Errorf("bootstrap: only %d of %d paired resamples hold every group: a group is too small for fairness differences", len(dp), resamples)
	}
	out.DP, out.EO, out.EOpp = percentile(dp, level), percentile(eo, level), percentile(eopp, level)
	out.DPDiff, out.DPRatio = percentile(dpDiff, level), percentile(dpRatio, level)
	out.EODiff, out.EOppDiff = percentile(eoDiff, level), percentile(eoppDiff, level)
	if hasATO {
		out.ATO = percentile(ato, level)
	} else {
		out.ATO = Interval{math.NaN(), math.NaN()}
	}
	return out, nil
}

// sameRows checks that a and b hold the same rows: as many, in as many
// groups, with the same label and group row by row in the given order.
func sameRows(a, b *Sample) error {
	if a.Len() != b.Len() || a.r != b.r {
		return fmt.Errorf("bootstrap: paired samples of %d rows in %d groups and %d rows in %d groups", a.Len(), a.r, b.Len(), b.r)
	}
	at := make([]int, a.Len()) // at[i]: the score-order position of given row i in b
	for k, i := range b.order {
		at[i] = k
	}
	for k, i := range a.order {
		j := at[i]
		if a.y[k] != b.y[j] || a.g[k] != b.g[j] {
			return fmt.Errorf("bootstrap: paired samples differ at row %d (label %g, group %d against label %g, group %d): they are not of the same rows",
				i, a.y[k], a.g[k], b.y[j], b.g[j])
		}
	}
	return nil
}

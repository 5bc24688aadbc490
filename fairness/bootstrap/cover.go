package bootstrap

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds what makes the intervals cover near 0 as well as away
// from it (docs/method.md §7.1). The metrics that are absolute values or
// maxima of gaps (the ATO, dp_diff, eo_diff, eopp_diff, dp_ratio) are
// bootstrapped through their signed pairwise contrasts, whose sampling
// distributions are smooth at 0, and the metric's interval is the image of
// the contrasts' simultaneous intervals; the mean-variance indices (dp, eo,
// eopp), sums of squares biased upward by about 1/(6n), are bootstrapped
// through their unbiased (U-statistic) form.

// mvUnbiased is the unbiased counterpart of mv: with p_s a group's share of
// a subset and F_s its distribution function, the index is the mean over
// the subset's rows of Σ_s p_s·F_s(S)² − (Σ_s p_s·F_s(S))², and every
// product F_s·F_t at a row is estimated from the other rows only — k_s/n'_s
// with the row itself left out, and k_s(k_s−1)/(n'_s(n'_s−1)) for a square —
// so that, given the groups' counts, its expectation is the population
// index at those shares. A row counted m times counts as m rows tied with
// one another. It can be negative where the index is near 0.
func (s *Sample) mvUnbiased(m []float64, W [3][]float64) [3]float64 {
	r := s.r
	buf := make([]float64, 7*r)
	cum := [3][]float64{buf[:r], buf[r : 2*r], buf[2*r : 3*r]}
	blk := [3][]float64{buf[3*r : 4*r], buf[4*r : 5*r], buf[5*r : 6*r]}
	p := buf[6*r:]
	var tot [3]float64
	var use [3]bool
	for j := range 3 {
		present := 0
		for _, wg := range W[j] {
			tot[j] += wg
			if wg > 0 {
				present++
			}
		}
		use[j] = present >= 2
	}
	var sum [3]float64
	for k, mk := range m {
		if mk != 0 {
			g, sub := s.g[k], s.sub[k]
			cum[0][g] += mk
			cum[sub][g] += mk
			blk[0][g] += mk
			blk[sub][g] += mk
		}
		if !s.last[k] {
			continue
		}
		for j := range 3 {
			if !use[j] {
				clear(blk[j])
				continue
			}
			for g := range r {
				p[g] = W[j][g] / tot[j]
			}
			for h, bh := range blk[j] {
				if bh == 0 {
					continue
				}
				// The rows of group h in this block: each leaves itself out.
				var sq, lin, lin2 float64
				for g := range r {
					if W[j][g] == 0 {
						continue
					}
					kk, nn := cum[j][g], W[j][g]
					if g == h {
						kk, nn = kk-1, nn-1
					}
					var a, u float64
					if nn >= 2 {
						a, u = kk/nn, kk*(kk-1)/(nn*(nn-1))
					} else {
						// Too few other rows for an unbiased square: the
						// plug-in value of the row's own group.
						a = cum[j][g] / W[j][g]
						u = a * a
					}
					sq += p[g] * (1 - p[g]) * u
					lin += p[g] * a
					lin2 += p[g] * p[g] * a * a
				}
				sum[j] += bh * (sq - lin*lin + lin2)
			}
			clear(blk[j])
		}
	}
	var out [3]float64
	for j := range 3 {
		if use[j] {
			out[j] = sum[j] / tot[j]
		}
	}
	return out
}

// groupRates are one resample's per-group quantities whose pairwise
// differences make the gap metrics: the overlap-weighted mean score (the
// ATO's m_r; NaN without a propensity or weight), the selection rate, the
// TPR and the FPR (NaN for a group without positives, negatives).
type groupRates struct{ ato, sel, tpr, fpr []float64 }

func (s *Sample) rates(m []float64) groupRates {
	r, c := s.r, s.counts(m)
	out := groupRates{ato: make([]float64, r), sel: make([]float64, r), tpr: make([]float64, r), fpr: make([]float64, r)}
	div := func(a, b float64) float64 {
		if b == 0 {
			return math.NaN()
		}
		return a / b
	}
	for g := range r {
		out.ato[g], out.sel[g] = div(c.tw[g], c.sw[g]), div(c.sel[g], c.n[g])
		out.tpr[g], out.fpr[g] = div(c.tp[g], c.pos[g]), div(c.fp[g], c.neg[g])
	}
	return out
}

// pairs holds, for each pair of groups r < s in a fixed order, the values
// of one contrast over the resamples (NaN-free: a resample where the
// contrast is undefined adds nothing to that pair).
type pairs [][]float64

func newPairs(r int) pairs { return make(pairs, r*(r-1)/2) }

// add appends v_r − v_s of every pair.
func (p pairs) add(v []float64) {
	k := 0
	for a := range v {
		for b := a + 1; b < len(v); b++ {
			if c := v[a] - v[b]; !math.IsNaN(c) {
				p[k] = append(p[k], c)
			}
			k++
		}
	}
}

// absMaxImage is the interval of max_k |d_k| from the contrasts' resampled
// values p: the lower end the largest of the smallest |d| in each
// contrast's interval, each at the Bonferroni level over the contrasts
// (every one must hold from below), the upper end the largest |d|, each at
// level (only the largest contrast must hold from above). When ess is not
// nil, ess[k] is the effective number of rows behind contrast k (the
// smaller of its two groups' Kish sizes), and each percentile interval is
// Hesterberg's expanded percentile interval (The American Statistician 69,
// 2015): its level raised so that its normal quantile is √(n/(n−1)) times
// Student's t quantile on n − 1 degrees of freedom, which undoes most of
// the percentile interval's narrowness with a handful of rows. A pair
// without values (a rate undefined in every resample) is left out, as the
// metric leaves such a group out.
func absMaxImage(level float64, p pairs, ess []float64) Interval {
	k := 0
	for _, v := range p {
		if len(v) > 0 {
			k++
		}
	}
	if k == 0 {
		return Interval{0, 0}
	}
	each := 1 - (1-level)/float64(k)
	out := Interval{0, 0}
	for i, v := range p {
		if len(v) == 0 {
			continue
		}
		lo, hi := each, level
		if ess != nil {
			lo, hi = expanded(lo, ess[i]), expanded(hi, ess[i])
		}
		out.Lo, out.Hi = max(out.Lo, absLo(percentile(v, lo))), max(out.Hi, absHi(percentile(v, hi)))
	}
	return out
}

// expanded is the level of the expanded percentile interval of nominal
// level for n effective rows (absMaxImage); below two rows it is that of
// two.
func expanded(level, n float64) float64 {
	n = max(n, 2)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-level)/2)
	z := math.Sqrt(n/(n-1)) * t
	return 1 - 2*distuv.UnitNormal.Survival(z)
}

// absLo and absHi are the smallest and the largest |d| for d in iv.
func absLo(iv Interval) float64 {
	if iv.Lo <= 0 && iv.Hi >= 0 {
		return 0
	}
	return min(math.Abs(iv.Lo), math.Abs(iv.Hi))
}

func absHi(iv Interval) float64 { return max(math.Abs(iv.Lo), math.Abs(iv.Hi)) }

// recentred is the interval of a nonnegative index from its unbiased
// estimates v over the resamples and u, the sample's own: the percentile
// interval of v moved down by the bootstrap's bias, mean(v) − u, its ends
// raised to 0 where they fall below. The resamples are drawn from the
// sample, whose index — the value their unbiased estimates are unbiased
// for — is the plug-in one, about 1/(6n) above u; unmoved, the interval
// sat that much too high, missing from below near 0 (eopp near 0 covered
// 68–86% of the trained networks of a 4% minority, docs/method.md §7.1).
// (Centring it on u as a basic bootstrap would, reflecting the resamples
// about it, covers less well: 77–89% away from 0.) For eo = max(MV | y = 0,
// MV | y = 1), v are the resamples' maxima and u the sample's: the maximum
// of two noisy estimates is biased upward most where the two are equal,
// and the re-centring removes the bootstrap's estimate of that bias too.
// (The image of the two conditional intervals, the alternative, is wider
// than either wherever the two indices are close, and covered eo away
// from 0 in 99.3%.)
func recentred(v []float64, u, level float64) Interval {
	var mean float64
	for _, x := range v {
		mean += x
	}
	bias := mean/float64(len(v)) - u
	iv := percentile(v, level)
	return Interval{max(0, iv.Lo-bias), max(0, iv.Hi-bias)}
}

// Corrected are the unbiased (U-statistic) estimates of the mean-variance
// indices on the sample's own rows, raised to 0 where negative: the values
// the intervals of DP, EO and EOpp are built around (the plug-in values,
// fairness.Evaluate's, are biased upward by about 1/(6n) near 0).
type Corrected struct{ DP, EO, EOpp float64 }

// Corrected computes them.
func (s *Sample) Corrected() Corrected { return correctedOf(s.unbiased()) }

// correctedOf is Corrected of the sample's unbiased estimates u.
func correctedOf(u [3]float64) Corrected {
	return Corrected{DP: max(0, u[0]), EO: max(0, u[1], u[2]), EOpp: max(0, u[2])}
}

// unbiased is the sample's own unbiased estimates of the indices over all
// rows, the rows with y = 0 and those with y = 1 (mvUnbiased), not raised
// to 0.
func (s *Sample) unbiased() [3]float64 {
	one := ones(s.Len())
	return s.mvUnbiased(one, s.totals(one))
}

// ones is n multiplicities of 1: the sample itself.
func ones(n int) []float64 {
	m := make([]float64, n)
	for i := range m {
		m[i] = 1
	}
	return m
}

// totals are the group weights of each subset (every row, y = 0, y = 1).
func (s *Sample) totals(m []float64) [3][]float64 {
	r := s.r
	buf := make([]float64, 3*r)
	W := [3][]float64{buf[:r], buf[r : 2*r], buf[2*r:]}
	for k, mk := range m {
		if mk != 0 {
			W[0][s.g[k]] += mk
			W[s.sub[k]][s.g[k]] += mk
		}
	}
	return W
}

// hasAll reports whether every group has rows in the resample.
func hasAll(W [3][]float64) bool { return !slices.Contains(W[0], 0) }

// pairESS is, for each pair of groups in the order of pairs, the smaller of
// the two groups' Kish effective sizes (Σw)²/Σw² under the overlap weights:
// how many rows the pair's ATO contrast effectively rests on.
func (s *Sample) pairESS() []float64 {
	sum, sq := make([]float64, s.r), make([]float64, s.r)
	for k, w := range s.w {
		sum[s.g[k]] += w
		sq[s.g[k]] += w * w
	}
	out := make([]float64, 0, s.r*(s.r-1)/2)
	for a := range s.r {
		for b := a + 1; b < s.r; b++ {
			ea, eb := 0.0, 0.0
			if sq[a] > 0 {
				ea = sum[a] * sum[a] / sq[a]
			}
			if sq[b] > 0 {
				eb = sum[b] * sum[b] / sq[b]
			}
			out = append(out, min(ea, eb))
		}
	}
	return out
}

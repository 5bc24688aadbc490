package pareto

import (
	"math"
	"slices"
)

// KneeEpsilon is the neighbourhood radius of HighTradeoff, in min–max
// normalised coordinates (pymoo's default).
const KneeEpsilon = 0.125

// Tradeoffs returns, for each point of a front, the least sacrifice per
// unit of gain against its neighbours, as pymoo's HighTradeoffPoints
// (pymoo/mcdm/high_tradeoff.py) defines it:
//
//	μ_i = min over neighbours j of Σ_k max(0, f_jk − f_ik) / Σ_k max(0, f_ik − f_jk)
//
// Both coordinates are first min–max normalised over pts, so that risk and
// unfairness weigh alike. The neighbours of i are the points within
// KneeEpsilon of it; when there are fewer than min(4, n−1) of them, its
// min(4, n−1) nearest points instead. A neighbour at the same place (0/0)
// is ignored; μ_i is NaN when every neighbour is, +Inf when moving to any
// neighbour only loses.
func Tradeoffs(pts []Point) []float64 {
	n := len(pts)
	mu := make([]float64, n)
	if n == 0 {
		return mu
	}
	norm := kneeNormalise(pts)
	minNeighbours := min(4, n-1)
	type near struct {
		d float64
		j int
	}
	all := make([]near, 0, n)
	for i, p := range norm {
		all = all[:0]
		for j, q := range norm {
			all = append(all, near{math.Hypot(p.X-q.X, p.Y-q.Y), j})
		}
		slices.SortFunc(all, func(a, b near) int {
			if a.d != b.d {
				if a.d < b.d {
					return -1
				}
				return 1
			}
			return a.j - b.j
		})
		// The point itself is among its neighbours (distance 0), as in a
		// ball query; it contributes 0/0 and is ignored.
		k := 0
		for k < len(all) && all[k].d <= KneeEpsilon {
			k++
		}
		if k < minNeighbours {
			k = minNeighbours + 1
		}
		mu[i] = math.NaN()
		for _, nb := range all[:k] {
			q := norm[nb.j]
			sacrifice := math.Max(0, q.X-p.X) + math.Max(0, q.Y-p.Y)
			gain := math.Max(0, p.X-q.X) + math.Max(0, p.Y-q.Y)
			if sacrifice == 0 && gain == 0 {
				continue
			}
			t := sacrifice / gain // +Inf when nothing is gained
			if math.IsNaN(mu[i]) || t < mu[i] {
				mu[i] = t
			}
		}
	}
	return mu
}

// HighTradeoff returns the indices of the front's points of high trade-off,
// as pymoo's find_outliers_upper_tail selects them from Tradeoffs: the
// points whose μ is at least two standard deviations above the mean of the
// finite μ; when there is none, the point of largest μ if it lies more than
// one standard deviation above the mean; else none. The indices are
// ordered by decreasing μ.
func HighTradeoff(pts []Point) []int {
	mu := Tradeoffs(pts)
	var idx []int
	var sum float64
	for i, m := range mu {
		if !math.IsNaN(m) && !math.IsInf(m, 0) {
			idx = append(idx, i)
			sum += m
		}
	}
	if len(idx) == 0 {
		return nil
	}
	mean := sum / float64(len(idx))
	var ss float64
	for _, i := range idx {
		ss += (mu[i] - mean) * (mu[i] - mean)
	}
	sigma := math.Sqrt(ss / float64(len(idx))) // population σ, as numpy's std
	if sigma == 0 {
		return nil
	}
	var out []int
	best := idx[0]
	for _, i := range idx {
		if (mu[i]-mean)/sigma >= 2 {
			out = append(out, i)
		}
		if mu[i] > mu[best] {
			best = i
		}
	}
	if len(out) == 0 && (mu[best]-mean)/sigma > 1 {
		out = []int{best}
	}
	slices.SortStableFunc(out, func(a, b int) int {
		switch {
		case mu[a] > mu[b]:
			return -1
		case mu[a] < mu[b]:
			return 1
		}
		return 0
	})
	return out
}

// kneeNormalise maps both coordinates of pts to [0, 1] by their minimum and
// maximum; a coordinate that does not vary maps to 0.
func kneeNormalise(pts []Point) []Point {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo.X, lo.Y = math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)
		hi.X, hi.Y = math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)
	}
	scale := func(v, l, h float64) float64 {
		if h == l {
			return 0
		}
		return (v - l) / (h - l)
	}
	out := make([]Point, len(pts))
	for i, p := range pts {
		out[i] = Point{scale(p.X, lo.X, hi.X), scale(p.Y, lo.Y, hi.Y)}
	}
	return out
}

package pareto

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// SplitHypervolume is one group's hypervolume on one split, on the scale
// of that split's candidates of every compared group (reference point
// Reference).
type SplitHypervolume struct {
	Group       string  `json:"group"`
	Split       int     `json:"split"`
	Hypervolume float64 `json:"hypervolume"`
}

// PerSplit returns the hypervolume of every group on every split, both
// axes min–max normalised over the split's candidates, ordered by split
// then group. splits maps a split number to that split's candidates by
// group; a group without candidates on a split has no row for it.
func PerSplit(splits map[int]map[string][]Point) []SplitHypervolume {
	return PerSplitDecided(splits, nil)
}

// PerSplitDecided is PerSplit with each group's front on each split
// decided on other points: decide holds, like splits, one point for each of
// splits' points, and a group's hypervolume is that of its points (from
// splits, normalised over the split's candidates) of the candidates
// non-dominated in decide. A nil decide is PerSplit.
func PerSplitDecided(splits, decide map[int]map[string][]Point) []SplitHypervolume {
	out, _ := PerSplitWith(splits, SplitOptions{Decide: decide}) // min–max needs no constant: no error
	return out
}

// SplitOptions set PerSplitWith. The zero value is PerSplit.
type SplitOptions struct {
	// Decide, when set, decides each group's front on each split, as in
	// PerSplitDecided.
	Decide map[int]map[string][]Point
	// Rule scales each split's plane over that split's candidates
	// (NewScale); the zero value is RuleMinMax. Under RuleConstant,
	// Constants gives each split's constant predictor x.
	Rule      Rule
	Constants map[int]float64
	// Reference is the hypervolumes' reference point in the normalised
	// space; the zero Point is Reference.
	Reference Point
}

// PerSplitWith returns the hypervolume of every group on every split,
// each split on its own scale under opt.Rule, ordered by split then group.
// Under RuleConstant a split without a constant in opt.Constants is an
// error.
func PerSplitWith(splits map[int]map[string][]Point, opt SplitOptions) ([]SplitHypervolume, error) {
	ms := make([]int, 0, len(splits))
	for m := range splits {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	var out []SplitHypervolume
	for _, m := range ms {
		groups := splits[m]
		names := make([]string, 0, len(groups))
		sets := make([][]Point, 0, len(groups))
		for name, pts := range groups {
			if len(pts) > 0 {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			sets = append(sets, groups[name])
		}
		c, ok := opt.Constants[m]
		if opt.Rule.NeedsConstant() && !ok {
			return nil, fmt.Errorf("split %d: no constant predictor for the %s front rule", m, opt.Rule)
		}
		scale := NewScale(opt.Rule, c, sets...)
		scale.Ref = opt.Reference
		for k, name := range names {
			chosen := sets[k] // every point: dominated ones add nothing
			if opt.Decide != nil {
				chosen = nil
				for _, i := range Front(opt.Decide[m][name]) {
					chosen = append(chosen, sets[k][i])
				}
			}
			out = append(out, SplitHypervolume{Group: name, Split: m, Hypervolume: scale.Hypervolume(chosen)})
		}
	}
	return out, nil
}

// Paired compares two groups split by split: D is the hypervolume of A
// minus that of B on each split both reached.
type Paired struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Splits int     `json:"splits"`       // splits with a hypervolume for both
	Mean   float64 `json:"hv_diff_mean"` // mean of D
	// CILow and CIHigh bound the 95% percentile bootstrap interval of the
	// mean of D.
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	// PValue is the two-sided p-value of the Wilcoxon signed-rank test of
	// D (see SignedRank).
	PValue float64 `json:"p_value"`
	// MinPValue is the smallest PValue the test can give with these
	// splits (MinSignedRankP of the non-zero differences): above the
	// level of a test, PValue says nothing whatever the data.
	MinPValue float64 `json:"min_p_value"`
	AWins     int     `json:"a_wins"` // splits on which A's hypervolume is higher
}

// MinSignedRankP is the smallest two-sided p-value the Wilcoxon signed-rank
// test (SignedRank) can give for n non-zero paired differences: 2/2ⁿ, when
// every difference has the same sign, and 1 for n ≤ 1. Two splits cannot go
// below 0.5, five not below 0.0625; p < 0.05 needs at least six.
func MinSignedRankP(n int) float64 {
	if n < 1 {
		return 1
	}
	return math.Min(1, math.Ldexp(2, -n))
}

// SplitsForLevel is the fewest non-zero paired differences with which the
// signed-rank p-value can fall below alpha (6 for 0.05).
func SplitsForLevel(alpha float64) int {
	n := 1
	for MinSignedRankP(n) >= alpha && n < 1100 { // 2/2ⁿ underflows past 1074
		n++
	}
	return n
}

// PairedOptions set the bootstrap of ComparePairs. Zero values take the
// defaults noted.
type PairedOptions struct {
	Resamples int    // bootstrap resamples; default 10,000
	Seed      uint64 // with the two group names, seeds the resampling
	// Order lists the groups in the order of the output: A is the group
	// listed first. Groups left out follow by name. Default: by name.
	Order []string
	// SeedOrder names the order in which a pair's two names seed its
	// bootstrap (the one listed first hashed first; groups left out
	// follow by name). Default: Order. A comparison that lists the groups
	// the other way round with the same SeedOrder draws the same resamples,
	// so its interval is exactly the negated one.
	SeedOrder []string
}

// ComparePairs compares every pair of groups of hv (A before B in
// opt.Order) over the splits on which both have a hypervolume. The bootstrap
// of each pair draws from a generator seeded by opt.Seed and the two group
// names, so a pair's interval does not depend on which other groups are
// compared. A pair without a common split has Splits 0 and NaN statistics
// except PValue, which is 1.
func ComparePairs(hv []SplitHypervolume, opt PairedOptions) []Paired {
	if opt.Resamples <= 0 {
		opt.Resamples = 10_000
	}
	by := map[string]map[int]float64{}
	for _, h := range hv {
		if by[h.Group] == nil {
			by[h.Group] = map[int]float64{}
		}
		by[h.Group][h.Split] = h.Hypervolume
	}
	names := make([]string, 0, len(by))
	for name := range by {
		names = append(names, name)
	}
	if opt.SeedOrder == nil {
		opt.SeedOrder = opt.Order
	}
	byOrder, bySeed := listedFirst(opt.Order), listedFirst(opt.SeedOrder)
	slices.SortFunc(names, byOrder)
	var out []Paired
	for i, a := range names {
		for _, b := range names[i+1:] {
			var ms []int
			for m := range by[a] {
				if _, ok := by[b][m]; ok {
					ms = append(ms, m)
				}
			}
			slices.Sort(ms)
			d := make([]float64, len(ms))
			p := Paired{A: a, B: b, Splits: len(ms)}
			nonZero := 0
			for k, m := range ms {
				d[k] = by[a][m] - by[b][m]
				if d[k] > 0 {
					p.AWins++
				}
				if d[k] != 0 && !math.IsNaN(d[k]) {
					nonZero++
				}
			}
			p.MinPValue = MinSignedRankP(nonZero)
			h := fnv.New64a()
			if bySeed(a, b) <= 0 {
				h.Write([]byte(a + "\x00" + b))
			} else {
				h.Write([]byte(b + "\x00" + a))
			}
			p.Mean = mean(d)
			p.CILow, p.CIHigh = bootstrapMean(d, opt.Resamples, rand.New(rand.NewPCG(opt.Seed, h.Sum64())))
			p.PValue = SignedRank(d)
			out = append(out, p)
		}
	}
	return out
}

// listedFirst returns the comparison of two group names that puts the ones
// in order first, in its order, and the rest after them by name.
func listedFirst(order []string) func(a, b string) int {
	rank := map[string]int{}
	for i, name := range order {
		if _, dup := rank[name]; !dup {
			rank[name] = i
		}
	}
	return func(a, b string) int {
		ra, oka := rank[a]
		rb, okb := rank[b]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a, b)
	}
}

func mean(d []float64) float64 {
	if len(d) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range d {
		s += v
	}
	return s / float64(len(d))
}

// bootstrapMean returns the 2.5% and 97.5% percentiles of the means of r
// resamples of d drawn with replacement.
func bootstrapMean(d []float64, r int, rng *rand.Rand) (lo, hi float64) {
	if len(d) == 0 {
		return math.NaN(), math.NaN()
	}
	means := make([]float64, r)
	for k := range means {
		var s float64
		for range d {
			s += d[rng.IntN(len(d))]
		}
		means[k] = s / float64(len(d))
	}
	slices.Sort(means)
	return means[int(math.Floor(0.025*float64(r)))], means[int(math.Ceil(0.975*float64(r)))-1]
}

// exactLimit is the largest number of non-zero differences for which
// SignedRank enumerates the exact null distribution.
const exactLimit = 50

// SignedRank returns the two-sided p-value of the Wilcoxon signed-rank test
// that the differences d are symmetric about 0. Zero differences are
// dropped (Wilcoxon's convention) and tied absolute values share their
// mean rank. Up to 50 non-zero differences the p-value is exact: the
// permutation distribution of the positive rank sum over the 2ⁿ sign
// assignments of the observed ranks (ties included), p = min(1,
// 2·min(P(W⁺ ≤ w), P(W⁺ ≥ w))). Beyond, the normal approximation with the
// tie-corrected variance and a continuity correction of ½. No non-zero
// difference gives 1.
func SignedRank(d []float64) float64 {
	var abs []float64
	var pos []bool
	for _, v := range d {
		if v != 0 && !math.IsNaN(v) {
			abs = append(abs, math.Abs(v))
			pos = append(pos, v > 0)
		}
	}
	n := len(abs)
	if n == 0 {
		return 1
	}
	// Doubled mean ranks are integers: 2·rank of a tie block spanning
	// positions i+1 … j is i+1+j.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case abs[a] < abs[b]:
			return -1
		case abs[a] > abs[b]:
			return 1
		}
		return 0
	})
	rank2 := make([]int, n)
	var tieTerm float64
	for i := 0; i < n; {
		j := i
		for j+1 < n && abs[order[j+1]] == abs[order[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			rank2[order[k]] = (i + 1) + (j + 1)
		}
		t := float64(j - i + 1)
		tieTerm += t*t*t - t
		i = j + 1
	}
	w2 := 0 // doubled W⁺
	total := 0
	for i := range abs {
		total += rank2[i]
		if pos[i] {
			w2 += rank2[i]
		}
	}
	if n <= exactLimit {
		// counts[s]: sign assignments whose doubled positive rank sum is s.
		counts := make([]float64, total+1)
		counts[0] = 1
		top := 0
		for _, r := range rank2 {
			for s := top; s >= 0; s-- {
				if counts[s] != 0 {
					counts[s+r] += counts[s]
				}
			}
			top += r
		}
		var le, ge, all float64
		for s, c := range counts {
			all += c
			if s <= w2 {
				le += c
			}
			if s >= w2 {
				ge += c
			}
		}
		return math.Min(1, 2*math.Min(le, ge)/all)
	}
	nf := float64(n)
	w := float64(w2) / 2
	mu := nf * (nf + 1) / 4
	sd := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - tieTerm/48)
	if sd == 0 {
		return 1
	}
	z := (math.Abs(w-mu) - 0.5) / sd
	if z < 0 {
		return 1
	}
	return math.Min(1, 2*distuv.UnitNormal.Survival(z))
}

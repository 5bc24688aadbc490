package fairness

import (
	"fmt"
	"math"
	"slices"
)

// MV returns the mean-variance index of the scores s against the groups z
// (docs/method.md §7; Cui et al. 2015):
//
//	MV = Σ_r P̂(Z=r) · (1/n) Σ_i (F̂_r(s_i) − F̂(s_i))²,
//
// where F̂(t) is the fraction of all scores ≤ t and F̂_r(t) the fraction of
// group r's scores ≤ t, so tied scores count as ≤ each other. MV is 0 when
// every group has the same empirical distribution and grows with the
// dependence of s on z; for two groups it is at most 1/4.
//
// When s is empty or every example is in one group, no contrast between
// groups can be measured and MV is 0. A NaN score makes the result NaN.
// s and z must have the same length (MV panics otherwise, as a programming
// error).
//
// The cost is O(n log n) for sorting each group's scores once, plus O(R) per
// distinct score for R groups.
func MV(s []float64, z []int) float64 {
	if len(s) != len(z) {
		panic(fmt.Sprintf("fairness.MV: %d scores and %d groups", len(s), len(z)))
	}
	codes, r := denseCodes(z)
	return mvGroups(partition(s, codes, r, nil, 0))
}

// DP is demographic parity: MV(p, z), the mean-variance index of the
// scores p over every group at once. The groups z are integer labels (a
// binary attribute a is the labels 0 and 1: BinaryGroups). The conventions
// of MV apply: one group only gives 0, a NaN score gives NaN, and
// mismatched lengths panic.
func DP(p []float64, z []int) float64 {
	checkLen("DP", len(p), len(z), -1)
	return MV(p, z)
}

// EO is equalized odds: the larger of the MV of p against z within the
// examples with y = 0 and within those with y = 1 (the conditional
// mean-variance index of the paper's appendix: P̂, F̂ and F̂_r are all
// computed within the subset). A subset that is empty or holds one group
// only contributes 0. y is a 0/1 label; any value other than 1 counts as 0.
func EO(p, y []float64, z []int) float64 {
	checkLen("EO", len(p), len(z), len(y))
	codes, r := denseCodes(z)
	return max(mvGroups(partition(p, codes, r, y, 0)), mvGroups(partition(p, codes, r, y, 1)))
}

// EOpp is equal opportunity: the MV of p against z within the examples with
// y = 1 (0 when that subset is empty or holds one group only).
func EOpp(p, y []float64, z []int) float64 {
	checkLen("EOpp", len(p), len(z), len(y))
	codes, r := denseCodes(z)
	return mvGroups(partition(p, codes, r, y, 1))
}

func checkLen(fn string, np, nz, ny int) {
	if nz != np || (ny >= 0 && ny != np) {
		panic(fmt.Sprintf("fairness.%s: %d scores, %d groups and %d labels", fn, np, nz, max(ny, 0)))
	}
}

// partition returns the scores of each of the r groups, in one backing
// array. With y != nil only the examples whose label equals k (k = 1 means
// y_i = 1, k = 0 any other label) are kept: the subset of a conditional index.
func partition(s []float64, codes []int32, r int, y []float64, k int) [][]float64 {
	keep := func(i int) bool { return y == nil || (y[i] == 1) == (k == 1) }
	size := make([]int, r)
	for i, g := range codes {
		if keep(i) {
			size[g]++
		}
	}
	total := 0
	for _, c := range size {
		total += c
	}
	buf := make([]float64, total)
	groups := make([][]float64, r)
	off := 0
	for g, c := range size {
		groups[g] = buf[off : off : off+c]
		off += c
	}
	for i, g := range codes {
		if keep(i) {
			groups[g] = append(groups[g], s[i])
		}
	}
	return groups
}

// mvGroups computes MV from the scores of each group (empty groups are
// ignored). It sorts each group's scores in place.
func mvGroups(groups [][]float64) float64 {
	n, nonEmpty := 0, 0
	for _, g := range groups {
		for _, v := range g {
			if math.IsNaN(v) {
				return math.NaN()
			}
		}
		if len(g) > 0 {
			n += len(g)
			nonEmpty++
		}
	}
	if nonEmpty < 2 {
		return 0
	}
	groups = slices.DeleteFunc(slices.Clone(groups), func(g []float64) bool { return len(g) == 0 })
	for _, g := range groups {
		slices.Sort(g)
	}
	// Merge the sorted groups one block of tied scores at a time: after a
	// block, pos[g] counts group g's scores ≤ its value, so every member of
	// the block shares F̂ and F̂_r.
	pos := make([]int, len(groups))
	fn := float64(n)
	var sum float64 // n·Σ_i Σ_r P̂(Z=r)·(F̂_r(s_i) − F̂(s_i))²
	for done := 0; done < n; {
		v := math.Inf(1)
		for g, sg := range groups {
			if pos[g] < len(sg) && sg[pos[g]] < v {
				v = sg[pos[g]]
			}
		}
		before := done
		for g, sg := range groups {
			p := pos[g]
			for p < len(sg) && sg[p] == v {
				p++
			}
			done += p - pos[g]
			pos[g] = p
		}
		f := float64(done) / fn
		var block float64 // Σ_r n_r·(F̂_r − F̂)²
		for g, sg := range groups {
			d := float64(pos[g])/float64(len(sg)) - f
			block += float64(len(sg)) * d * d
		}
		sum += float64(done-before) * block
	}
	return sum / (fn * fn)
}

// denseCodes maps the group labels z to codes 0 … r−1.
func denseCodes(z []int) (codes []int32, r int) {
	codes = make([]int32, len(z))
	if len(z) == 0 {
		return codes, 0
	}
	lo, hi := slices.Min(z), slices.Max(z)
	if span := uint(hi - lo); span < uint(len(z)) {
		// Labels in a range no wider than n: a lookup table.
		table := make([]int32, span+1)
		for _, v := range z {
			table[v-lo] = 1
		}
		for i, used := range table {
			if used == 1 {
				table[i] = int32(r)
				r++
			} else {
				table[i] = -1
			}
		}
		for i, v := range z {
			codes[i] = table[v-lo]
		}
		return codes, r
	}
	// Sparse labels: binary search in the sorted distinct labels.
	labels := slices.Clone(z)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	for i, v := range z {
		k, _ := slices.BinarySearch(labels, v)
		codes[i] = int32(k)
	}
	return codes, len(labels)
}

package pareto

import (
	"math"
	"slices"
)

// DefaultTolerance is the default ε of docs/method.md §8: two points whose normalised
// coordinates differ by less than it in both axes are one point.
const DefaultTolerance = 1e-4

// Clusters assigns each point of pts a cluster number (0, 1, …, in order of
// first appearance) by single linkage: two points whose coordinates differ
// by less than tol in both axes are in one cluster, and clusters sharing a
// point merge (so a chain of near points is one cluster however long it
// is). pts are expected already normalised. tol ≤ 0 merges exact
// duplicates only. Points with NaN are each their own cluster. O(n log n)
// plus the pairs within tol in X.
func Clusters(pts []Point, tol float64) []int {
	parent := make([]int, len(pts))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	order := make([]int, 0, len(pts))
	for i, p := range pts {
		if !math.IsNaN(p.X) && !math.IsNaN(p.Y) {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return comparePoints(pts[a], pts[b]) })
	near := func(p, q Point) bool {
		if tol <= 0 {
			return p == q
		}
		return math.Abs(p.X-q.X) < tol && math.Abs(p.Y-q.Y) < tol
	}
	for k, i := range order {
		for _, j := range order[k+1:] {
			if pts[j].X-pts[i].X >= max(tol, 0) && pts[j].X != pts[i].X {
				break // sorted by X: every later point is too far
			}
			if near(pts[i], pts[j]) {
				if ri, rj := find(i), find(j); ri != rj {
					parent[max(ri, rj)] = min(ri, rj)
				}
			}
		}
	}
	ids := make([]int, len(pts))
	num := map[int]int{}
	for i := range pts {
		r := find(i)
		id, ok := num[r]
		if !ok {
			id = len(num)
			num[r] = id
		}
		ids[i] = id
	}
	return ids
}

// Distinct returns the number of distinct points among pts[idx] after
// normalising them with norm: the non-dominated count of docs/method.md §8 when idx
// is a front. Points within tol of each other in both normalised axes,
// directly or through a chain of such points, count once.
func Distinct(pts []Point, idx []int, norm Normalizer, tol float64) int {
	sel := make([]Point, len(idx))
	for k, i := range idx {
		sel[k] = norm.Apply(pts[i])
	}
	n := 0
	for _, id := range Clusters(sel, tol) {
		n = max(n, id+1)
	}
	return n
}

// WeaklyDominated returns how many points of the front pts[front] are
// weakly dominated within tol after normalising with norm: points p for
// which another candidate q of pts is the same in one normalised axis
// (|q − p| < tol there) and better by at least tol in the other. Such a p
// is on the front only by a difference the distinct-points rule treats as
// none (docs/method.md §8.3): the minimisers that a Chebyshev
// scalarization can return and an augmented one cannot (§3.5).
func WeaklyDominated(pts []Point, front []int, norm Normalizer, tol float64) int {
	n := 0
	for _, i := range front {
		p := norm.Apply(pts[i])
		for j, q := range pts {
			if j == i || math.IsNaN(q.X) || math.IsNaN(q.Y) {
				continue
			}
			q = norm.Apply(q)
			if (math.Abs(q.X-p.X) < tol && p.Y-q.Y >= tol) || (math.Abs(q.Y-p.Y) < tol && p.X-q.X >= tol) {
				n++
				break
			}
		}
	}
	return n
}

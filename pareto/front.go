package pareto

import (
	"math"
	"slices"
)

// Point is a candidate: X is its risk, Y its unfairness; both are minimised.
type Point struct{ X, Y float64 }

// Dominates reports whether p dominates q: p is no worse than q in both
// coordinates and strictly better in at least one. A point does not
// dominate an exact duplicate of itself.
func Dominates(p, q Point) bool {
	return p.X <= q.X && p.Y <= q.Y && (p.X < q.X || p.Y < q.Y)
}

// Front returns the indices of the points of pts that no other point
// dominates, ordered by increasing X (then Y, then index). Exact duplicates
// of a non-dominated point are all kept. Points with a NaN coordinate cannot
// be compared and are left out.
//
// It sorts once and sweeps, O(n log n).
func Front(pts []Point) []int {
	type entry struct {
		Point
		i int
	}
	es := make([]entry, 0, len(pts))
	for i, p := range pts {
		if !math.IsNaN(p.X) && !math.IsNaN(p.Y) {
			es = append(es, entry{p, i})
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := comparePoints(a.Point, b.Point); c != 0 {
			return c
		}
		return a.i - b.i
	})
	// Every point before q in this order has X ≤ q.X. q is dominated iff one
	// of them has a smaller Y, or the same Y with a smaller X. So keep the
	// smallest Y seen and the X at which it was first reached.
	out := make([]int, 0, 16)
	var minY, xAtMin float64
	for k, e := range es {
		switch {
		case k == 0 || e.Y < minY:
			minY, xAtMin = e.Y, e.X
			out = append(out, e.i)
		case e.Y == minY && e.X == xAtMin:
			out = append(out, e.i) // an exact duplicate of a front point
		}
	}
	return out
}

// CountDistinct returns the number of distinct points among pts[idx]: the
// non-dominated count of docs/method.md §8 when idx is a front, where exact
// duplicates count once.
func CountDistinct(pts []Point, idx []int) int {
	sel := make([]Point, len(idx))
	for k, i := range idx {
		sel[k] = pts[i]
	}
	slices.SortFunc(sel, comparePoints)
	return len(slices.Compact(sel))
}

// comparePoints orders by X, then Y. Callers leave out NaN.
func comparePoints(p, q Point) int {
	switch {
	case p.X < q.X:
		return -1
	case p.X > q.X:
		return 1
	case p.Y < q.Y:
		return -1
	case p.Y > q.Y:
		return 1
	}
	return 0
}

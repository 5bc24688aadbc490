package pareto

import (
	"slices"
)

// Summary describes one group of candidates (e.g. one method) in a
// comparison.
type Summary struct {
	Group        string  `json:"group"`
	Candidates   int     `json:"candidates"`
	NonDominated int     `json:"nondominated"` // distinct points on the group's own front
	Hypervolume  float64 `json:"hypervolume"`  // in the shared normalisation, reference (1.1, 1.1)
	Share        float64 `json:"share"`        // fraction of the pooled front's distinct points that the group has
}

// Compare summarises each group of candidates, sorted by group name (SPEC §8):
// its candidate count, the number of distinct points on its own front, its
// hypervolume after min–max normalising both axes over the union of all
// groups (reference point Reference), and its share of the pooled front.
//
// The share of a group is the fraction of the distinct non-dominated points
// of the union that the group has among its candidates. A point on the
// pooled front that several groups reached exactly counts for each of them,
// so shares sum to 1 when no pooled-front point is shared and to more than 1
// otherwise. Dominance is decided on the raw coordinates, so normalisation
// round-off cannot merge distinct points.
func Compare(groups map[string][]Point) []Summary {
	names := make([]string, 0, len(groups))
	var all []Point
	for name, pts := range groups {
		names = append(names, name)
		all = append(all, pts...)
	}
	slices.Sort(names)
	norm := NewNormalizer(all)

	pooled := Front(all)
	frontPts := make([]Point, len(pooled))
	for k, i := range pooled {
		frontPts[k] = all[i]
	}
	slices.SortFunc(frontPts, comparePoints)
	frontPts = slices.Compact(frontPts)

	out := make([]Summary, 0, len(names))
	for _, name := range names {
		pts := groups[name]
		s := Summary{Group: name, Candidates: len(pts)}
		front := Front(pts)
		s.NonDominated = CountDistinct(pts, front)
		normed := make([]Point, len(front))
		for k, i := range front {
			normed[k] = norm.Apply(pts[i])
		}
		s.Hypervolume = Hypervolume(normed, Reference)
		if len(frontPts) > 0 {
			// A pooled-front point that the group has is necessarily on
			// the group's own front, so searching that front suffices.
			own := make([]Point, len(front))
			for k, i := range front {
				own[k] = pts[i]
			}
			slices.SortFunc(own, comparePoints)
			hits := 0
			for _, p := range frontPts {
				if _, ok := slices.BinarySearchFunc(own, p, comparePoints); ok {
					hits++
				}
			}
			s.Share = float64(hits) / float64(len(frontPts))
		}
		out = append(out, s)
	}
	return out
}

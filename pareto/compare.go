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
	Hypervolume  float64 `json:"hypervolume"`  // on the shared scale of Options.Rule, reference (1.1, 1.1)
	Share        float64 `json:"share"`        // fraction of the pooled front's distinct points that the group has
}

// Options set how groups are compared. The zero value uses
// DefaultTolerance.
type Options struct {
	// Tolerance is ε of docs/method.md §8 on the normalised axes: points closer than
	// it in both are one distinct point. Zero means DefaultTolerance; a
	// negative value merges exact duplicates only.
	Tolerance float64
	// Decide, when set, holds for each group the points its front is
	// decided on, one for each of its points (same order): the fronts,
	// the distinct counts and the shares are then of these points, and the
	// hypervolume is that of the group's points (those shown) of the
	// candidates non-dominated in Decide. Nil decides on the points
	// themselves.
	Decide map[string][]Point
	// Rule scales the plane for the hypervolumes (NewScale); the zero
	// value is RuleMinMax. Under RuleConstant, Constant is the x of the
	// constant predictor. The distinct counts and the shares are on the
	// min–max normalisation of the deciding points under either rule: the
	// tolerance is a resolution of the candidates' spread, not an area.
	Rule     Rule
	Constant float64
	// Reference is the hypervolumes' reference point in the normalised
	// space; the zero Point is Reference.
	Reference Point
}

func (o Options) tolerance() float64 {
	if o.Tolerance == 0 {
		return DefaultTolerance
	}
	return o.Tolerance
}

// Compare is CompareWith with the default options.
func Compare(groups map[string][]Point) []Summary { return CompareWith(groups, Options{}) }

// CompareWith summarises each group of candidates, sorted by group name
// (docs/method.md §8): its candidate count, the number of distinct points on its own
// front, its hypervolume on the scale of opt.Rule over the union of all
// groups (reference point Reference), and its share of the pooled front.
//
// Points are distinct when they differ by at least opt's tolerance in one
// normalised axis; nearer points merge transitively (see Clusters). The
// share of a group is the fraction of the distinct points of the pooled
// front (the front of the union) of which the group has at least one
// candidate. A distinct point that several groups reached counts for each
// of them, so shares sum to 1 when no pooled-front point is shared and to
// more than 1 otherwise. Dominance is decided on the raw coordinates.
func CompareWith(groups map[string][]Point, opt Options) []Summary {
	tol := opt.tolerance()
	names := make([]string, 0, len(groups))
	var all []Point
	for name := range groups {
		names = append(names, name)
	}
	slices.Sort(names)
	owner := []int{} // all[i] belongs to names[owner[i]]
	for g, name := range names {
		all = append(all, groups[name]...)
		for range groups[name] {
			owner = append(owner, g)
		}
	}
	scale := NewScale(opt.Rule, opt.Constant, all) // of the shown points: for the hypervolumes
	scale.Ref = opt.Reference
	dec, decAll := groups, all
	if opt.Decide != nil {
		dec, decAll = opt.Decide, nil
		for _, name := range names {
			decAll = append(decAll, dec[name]...)
		}
	}
	decNorm := NewNormalizer(decAll) // of the deciding points: for distinct counts
	pooled := Front(decAll)
	normed := make([]Point, len(pooled))
	for k, i := range pooled {
		normed[k] = decNorm.Apply(decAll[i])
	}
	ids := Clusters(normed, tol)
	clusters := 0
	has := make([]map[int]bool, len(names)) // group → clusters it reached
	for g := range has {
		has[g] = map[int]bool{}
	}
	for k, i := range pooled {
		clusters = max(clusters, ids[k]+1)
		has[owner[i]][ids[k]] = true
	}
	out := make([]Summary, 0, len(names))
	for g, name := range names {
		pts := groups[name]
		s := Summary{Group: name, Candidates: len(pts)}
		front := Front(dec[name])
		s.NonDominated = Distinct(dec[name], front, decNorm, tol)
		own := make([]Point, len(front))
		for k, i := range front {
			own[k] = pts[i]
		}
		s.Hypervolume = scale.Hypervolume(own)
		if clusters > 0 {
			s.Share = float64(len(has[g])) / float64(clusters)
		}
		out = append(out, s)
	}
	return out
}

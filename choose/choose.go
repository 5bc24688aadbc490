package choose

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fpareto/fp/pareto"
)

// Point is a candidate as the choice sees it; risk and unfairness are
// minimised, accuracy only enters MinAccuracy.
type Point struct{ Risk, Unfairness, Accuracy float64 }

// Kind is the kind of a Rule.
type Kind int

// The requirements.
const (
	MaxUnfairness Kind = iota + 1 // the lowest risk among points with unfairness ≤ Bound
	MaxRisk                       // the lowest unfairness among points with risk ≤ Bound
	MinAccuracy                   // the lowest unfairness among points with accuracy ≥ Bound
	Knee                          // the point of highest trade-off (pareto.HighTradeoff)
	// MinRatio is MaxUnfairness stated as a ratio, for the metric dp-ratio,
	// whose points carry 1 − dp_ratio: the lowest risk among points with
	// dp_ratio ≥ Bound (the four-fifths rule is Bound 0.8).
	MinRatio
)

// Rule is one requirement.
type Rule struct {
	Kind  Kind
	Bound float64 // unused by Knee
}

func (r Rule) String() string {
	switch r.Kind {
	case MaxUnfairness:
		return fmt.Sprintf("unfairness ≤ %g", r.Bound)
	case MaxRisk:
		return fmt.Sprintf("risk ≤ %g", r.Bound)
	case MinAccuracy:
		return fmt.Sprintf("accuracy ≥ %g", r.Bound)
	case Knee:
		return "the knee"
	case MinRatio:
		return fmt.Sprintf("dp_ratio ≥ %g", r.Bound)
	}
	return fmt.Sprintf("rule %d", int(r.Kind))
}

// ErrNone is wrapped by the *NoneError of a rule no point meets.
var ErrNone = errors.New("no point meets the requirement")

// NoneError says that no point of the front meets a rule, and which comes
// closest: the lowest unfairness, the lowest risk, the highest accuracy,
// or for the knee the point of largest finite trade-off (−1 when none).
// For the knee, Alternatives are at most KneeAlternatives points nearest
// to standing out (Closest is the first): those of largest finite
// trade-off first, then, where fewer have one (a front of two points has
// none), the others by their distance to the ideal point (0, 0) of the
// min–max normalised front.
type NoneError struct {
	Rule         Rule
	Closest      int
	Alternatives []int
}

// KneeAlternatives is how many points a knee that does not stand out
// offers instead.
const KneeAlternatives = 3

func (e *NoneError) Error() string {
	if e.Rule.Kind == Knee {
		return "no point of the front stands out by its trade-off"
	}
	return fmt.Sprintf("no point of the front has %s", e.Rule)
}

func (e *NoneError) Unwrap() error { return ErrNone }

// Front returns the indices of the points not dominated in (risk,
// unfairness), by increasing risk: the ones a choice is made among.
func Front(pts []Point) []int {
	pp := make([]pareto.Point, len(pts))
	for i, p := range pts {
		pp[i] = pareto.Point{X: p.Risk, Y: p.Unfairness}
	}
	return pareto.Front(pp)
}

// Choose returns the index of the point of front that r picks. Ties go to
// the earlier point. When no point meets r the error is a *NoneError.
func Choose(front []Point, r Rule) (int, error) {
	// best returns the point minimising key among those passing ok, or −1.
	best := func(ok func(Point) bool, key func(Point) float64) int {
		b := -1
		for i, p := range front {
			if ok(p) && (b < 0 || key(p) < key(front[b])) {
				b = i
			}
		}
		return b
	}
	all := func(Point) bool { return true }
	risk := func(p Point) float64 { return p.Risk }
	unfair := func(p Point) float64 { return p.Unfairness }
	var chosen, closest int
	switch r.Kind {
	case MaxUnfairness:
		chosen = best(func(p Point) bool { return p.Unfairness <= r.Bound }, risk)
		closest = best(all, unfair)
	case MinRatio:
		chosen = best(func(p Point) bool { return 1-p.Unfairness >= r.Bound }, risk)
		closest = best(all, unfair)
	case MaxRisk:
		chosen = best(func(p Point) bool { return p.Risk <= r.Bound }, unfair)
		closest = best(all, risk)
	case MinAccuracy:
		chosen = best(func(p Point) bool { return p.Accuracy >= r.Bound }, unfair)
		closest = best(all, func(p Point) float64 { return -p.Accuracy })
	case Knee:
		pp := make([]pareto.Point, len(front))
		for i, p := range front {
			pp[i] = pareto.Point{X: p.Risk, Y: p.Unfairness}
		}
		if knee := pareto.HighTradeoff(pp); len(knee) > 0 {
			return knee[0], nil
		}
		// No point stands out: the nearest to standing out are those of
		// largest finite trade-off (ties by position on the front), then
		// the rest by distance to the ideal point.
		mu := pareto.Tradeoffs(pp)
		norm := pareto.NewNormalizer(pp)
		ideal := func(i int) float64 { q := norm.Apply(pp[i]); return math.Hypot(q.X, q.Y) }
		var alt, rest []int
		for i, m := range mu {
			if !math.IsNaN(m) && !math.IsInf(m, 0) {
				alt = append(alt, i)
			} else {
				rest = append(rest, i)
			}
		}
		slices.SortStableFunc(alt, func(a, b int) int { return cmp.Compare(mu[b], mu[a]) })
		slices.SortStableFunc(rest, func(a, b int) int { return cmp.Compare(ideal(a), ideal(b)) })
		alt = append(alt, rest...)
		alt = alt[:min(len(alt), KneeAlternatives)]
		closest := -1
		if len(alt) > 0 {
			closest = alt[0]
		}
		return -1, &NoneError{Rule: r, Closest: closest, Alternatives: alt}
	default:
		return -1, fmt.Errorf("choose: unknown rule %d", int(r.Kind))
	}
	if chosen < 0 {
		return -1, &NoneError{Rule: r, Closest: closest}
	}
	return chosen, nil
}

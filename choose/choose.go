package choose

import (
	"errors"
	"fmt"
	"math"

	"github.com/fpareto/fp/pareto"
)

// Point is a candidate as the choice sees it; risk and unfairness are
// minimised, accuracy only enters MinAccuracy. Risk is the front's x axis:
// the risk, or the error 1 − accuracy on a front against the error
// (Options.Axis).
type Point struct{ Risk, Unfairness, Accuracy float64 }

// Kind is the kind of a Rule.
type Kind int

// The requirements.
const (
	MaxUnfairness Kind = iota + 1 // the lowest risk among points with unfairness ≤ Bound
	MaxRisk                       // the lowest unfairness among points with risk ≤ Bound
	MinAccuracy                   // the lowest unfairness among points with accuracy ≥ Bound
	Knee                          // the point of highest trade-off (pareto.HighTradeoff), else the best balanced (KneeOf)
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
// closest: the lowest unfairness, the lowest risk or the highest accuracy
// (−1 when the front is empty).
type NoneError struct {
	Rule    Rule
	Closest int
}

func (e *NoneError) Error() string {
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
// the earlier point. When no point meets r the error is a *NoneError; the
// knee is met by every front but an empty one (see KneeOf).
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
		chosen, _ = KneeOf(front)
		closest = -1
	default:
		return -1, fmt.Errorf("choose: unknown rule %d", int(r.Kind))
	}
	if chosen < 0 {
		return -1, &NoneError{Rule: r, Closest: closest}
	}
	return chosen, nil
}

// KneeNote says how the knee was chosen when no point stands out by its
// trade-off.
const KneeNote = "no point of the front stands out by its trade-off; the best-balanced point was taken: " +
	"the one whose larger min–max normalised coordinate (risk or unfairness) is smallest, ties by distance to (0, 0)"

// kneeNote is the note of a pick by r from front: KneeNote for a knee
// that does not stand out, "" otherwise.
func kneeNote(front []Point, r Rule) string {
	if r.Kind != Knee {
		return ""
	}
	if len(front) == 1 {
		return "the front is one point: it was taken as the knee"
	}
	if _, stands := KneeOf(front); !stands {
		return KneeNote
	}
	return ""
}

// KneeOf returns the index of the front's knee, the point of highest
// trade-off (pareto.HighTradeoff), and true. When no point stands out, it
// returns the best-balanced point (Balanced) and false: a front whose
// trade-offs are all alike still has a point that gives up least on
// either axis, and a requirement the user did not state is no better
// answer than that. −1 and false for an empty front.
func KneeOf(front []Point) (int, bool) {
	pp := make([]pareto.Point, len(front))
	for i, p := range front {
		pp[i] = pareto.Point{X: p.Risk, Y: p.Unfairness}
	}
	if knee := pareto.HighTradeoff(pp); len(knee) > 0 {
		return knee[0], true
	}
	return Balanced(front), false
}

// Balanced returns the index of the front's best-balanced point: with risk
// and unfairness min–max normalised over the front, the point whose larger
// coordinate is smallest (the Chebyshev distance to the ideal point (0, 0),
// which is what the sweep's Chebyshev scalarization at λ = ½ minimises,
// here on the front's own scale), ties broken by the Euclidean distance to
// (0, 0) and then by position. −1 for an empty front.
func Balanced(front []Point) int {
	if len(front) == 0 {
		return -1
	}
	pp := make([]pareto.Point, len(front))
	for i, p := range front {
		pp[i] = pareto.Point{X: p.Risk, Y: p.Unfairness}
	}
	norm := pareto.NewNormalizer(pp)
	best, bestCheb, bestL2 := -1, math.Inf(1), math.Inf(1)
	for i := range pp {
		q := norm.Apply(pp[i])
		cheb, l2 := max(q.X, q.Y), math.Hypot(q.X, q.Y)
		if cheb < bestCheb || (cheb == bestCheb && l2 < bestL2) {
			best, bestCheb, bestL2 = i, cheb, l2
		}
	}
	return best
}

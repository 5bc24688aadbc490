package pareto

import (
	"fmt"
	"math"
)

// Rule names how a comparison maps each plane onto the normalised space in
// which its hypervolumes are taken (docs/method.md §8.4).
type Rule string

const (
	// RuleConstant: the x axis (risk or error) runs from the best compared
	// candidate (0) to the constant predictor at the training base rate
	// (1), the unfairness axis from 0 to the largest compared value, and
	// the constant predictor (1, 0) joins every front. A front gains no
	// area from candidates no better than the constant predictor, which it
	// dominates, and the scale does not move with where the worst
	// candidates happen to sit.
	RuleConstant Rule = "constant"
	// RuleMinMax: both axes min–max normalised over the compared
	// candidates, nothing added (the paper's protocol).
	RuleMinMax Rule = "minmax"
)

// DefaultRule is the rule comparisons use unless told otherwise. It needs
// the constant predictor's x; this package's zero Options and
// SplitOptions, which carry none, use RuleMinMax.
const DefaultRule = RuleConstant

// Rules lists the rules, the default first.
var Rules = []Rule{RuleConstant, RuleMinMax}

// ParseRule checks a rule's name; "" is DefaultRule.
func ParseRule(name string) (Rule, error) {
	switch r := Rule(name); r {
	case "":
		return DefaultRule, nil
	case RuleConstant, RuleMinMax:
		return r, nil
	}
	return "", fmt.Errorf("front rule %q: want %s or %s", name, RuleConstant, RuleMinMax)
}

// NeedsConstant reports whether the rule places the constant predictor.
func (r Rule) NeedsConstant() bool { return r == RuleConstant }

// Scale is the normalised space of one plane's hypervolumes under a rule:
// the normalizer and, under RuleConstant, the constant predictor.
type Scale struct {
	Normalizer
	// Constant is the constant predictor (c, 0) in the plane's own
	// coordinates; nil under RuleMinMax.
	Constant *Point
	// Ref is the hypervolume's reference point in the normalised space;
	// the zero Point is Reference.
	Ref Point
}

// NewScale returns the scale of the plane whose compared candidates are
// sets. Under RuleConstant, constant is the x of the constant predictor:
// x maps from the smallest x of the candidates (or constant, when no
// candidate is below it) to constant, y from 0 to the largest y (an axis
// of zero span maps to 0). Under RuleMinMax (or the zero Rule) it is
// NewNormalizer(sets...) and constant is ignored. NaN coordinates are
// ignored.
func NewScale(rule Rule, constant float64, sets ...[]Point) Scale {
	if rule != RuleConstant {
		return Scale{Normalizer: NewNormalizer(sets...)}
	}
	n := Normalizer{MinX: constant, MaxX: constant, MinY: 0, MaxY: 0}
	for _, set := range sets {
		for _, p := range set {
			if !math.IsNaN(p.X) {
				n.MinX = min(n.MinX, p.X)
			}
			if !math.IsNaN(p.Y) {
				n.MaxY = max(n.MaxY, p.Y)
			}
		}
	}
	return Scale{Normalizer: n, Constant: &Point{constant, 0}}
}

// Normalize maps a front onto the scale: under RuleConstant the points
// the constant predictor dominates or equals are left out (they add no
// area, and when no candidate beats the constant the x axis has no span to
// place them on) and the constant predictor, at (1, 0), is added.
func (s Scale) Normalize(front []Point) []Point {
	out := make([]Point, 0, len(front)+1)
	for _, p := range front {
		if s.Constant != nil && (p == *s.Constant || Dominates(*s.Constant, p)) {
			continue
		}
		out = append(out, s.Apply(p))
	}
	if s.Constant != nil {
		out = append(out, Point{1, 0})
	}
	return out
}

// Hypervolume is the hypervolume of front on the scale, reference point
// s.Ref (Reference when zero).
func (s Scale) Hypervolume(front []Point) float64 {
	ref := s.Ref
	if ref == (Point{}) {
		ref = Reference
	}
	return Hypervolume(s.Normalize(front), ref)
}

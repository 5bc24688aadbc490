package pareto

import (
	"math"
	"strings"
	"testing"
)

// One split worked out by hand under both rules, the constant predictor at
// x = 0.7:
//
//	a: (0.5, 0.2), (0.6, 0.1)    b: (0.55, 0.4), (0.8, 0)   (b's second is worse than constant)
//
// constant: x from 0.5 (best) to 0.7, y from 0 to 0.4, (1, 0) added.
//
//	a → (0, 0.5), (0.5, 0.25), (1, 0): 1.1·0.6 + 0.6·0.25 + 0.1·0.25 = 0.66 + 0.15 + 0.025 = 0.835
//	b → (0.25, 1), (1, 0) (the constant dominates (0.8, 0)): 0.85·0.1 + 0.1·1 = 0.185
//
// minmax: x from 0.5 to 0.8, y from 0 to 0.4, nothing added.
//
//	a → (0, 0.5), (1/3, 0.25): 0.66 + (1.1 − 1/3)·0.25 = 0.85166…
//	b → (1/6, 1), (1, 0): (1.1 − 1/6)·0.1 + 0.1·1 = 0.19333…
//
// Under minmax b's network that is worse than the constant predictor earns
// it the strip at x = 1; under constant that strip is every front's.
var (
	handA = []Point{{0.5, 0.2}, {0.6, 0.1}}
	handB = []Point{{0.55, 0.4}, {0.8, 0}}
)

func TestScaleHandWorked(t *testing.T) {
	for _, tc := range []struct {
		rule         Rule
		wantA, wantB float64
	}{
		{RuleConstant, 0.835, 0.185},
		{RuleMinMax, 0.66 + (1.1-1.0/3)*0.25, (1.1-1.0/6)*0.1 + 0.1},
		{"", 0.66 + (1.1-1.0/3)*0.25, (1.1-1.0/6)*0.1 + 0.1}, // the zero Rule is min–max
	} {
		s := NewScale(tc.rule, 0.7, handA, handB)
		if got := s.Hypervolume(handA); math.Abs(got-tc.wantA) > 1e-12 {
			t.Errorf("%q: a's hypervolume %.17g, want %.17g", tc.rule, got, tc.wantA)
		}
		if got := s.Hypervolume(handB); math.Abs(got-tc.wantB) > 1e-12 {
			t.Errorf("%q: b's hypervolume %.17g, want %.17g", tc.rule, got, tc.wantB)
		}
		if (s.Constant != nil) != (tc.rule == RuleConstant) {
			t.Errorf("%q: constant %v", tc.rule, s.Constant)
		}
	}
}

// Under the constant rule a candidate no better than the constant predictor
// (the constant itself, or one of higher x) adds no area: a front of such
// candidates has the hypervolume of the constant predictor alone, (1, 0),
// 0.1·1.1 = 0.11, whatever the other groups; so has every front when no
// candidate beats the constant.
func TestScaleConstantDegenerateAddsNothing(t *testing.T) {
	const alone = 0.1 * 1.1
	for _, tc := range []struct {
		name  string
		sets  [][]Point // the compared candidates
		front []Point
		want  float64
	}{
		{"the constant predictor itself", [][]Point{handA, {{0.7, 0}}}, []Point{{0.7, 0}}, alone},
		{"worse than constant", [][]Point{handA, {{0.9, 0.05}}}, []Point{{0.9, 0.05}}, alone},
		{"worse than constant, zero unfairness", [][]Point{handA, {{0.9, 0}}}, []Point{{0.9, 0}}, alone},
		{"log-loss above constant in every candidate", [][]Point{handA, {{0.75, 0.01}, {2.3, 0}, {0.71, 0.3}}},
			[]Point{{0.75, 0.01}, {2.3, 0}, {0.71, 0.3}}, alone},
		{"degenerate networks beside good ones", [][]Point{handA, handB}, append([]Point{{0.7, 0}, {0.9, 0.05}, {5, 0}}, handA...), 0.835},
		{"no candidate beats the constant", [][]Point{{{0.8, 0.1}, {0.9, 0}}, {{1.5, 0.2}}}, []Point{{0.8, 0.1}, {0.9, 0}}, alone},
		{"an empty front", [][]Point{handA}, nil, alone},
		{"NaN adds nothing", [][]Point{handA, {{math.NaN(), 0}}}, []Point{{math.NaN(), 0}}, alone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NewScale(RuleConstant, 0.7, tc.sets...).Hypervolume(tc.front); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("hypervolume %.17g, want %.17g", got, tc.want)
			}
		})
	}
	// Under min–max the same worse-than-constant network is one extreme of
	// the plane and bounds area of its own: the rule is what removes it.
	if got := NewScale(RuleMinMax, 0, handA, []Point{{0.9, 0}}).Hypervolume([]Point{{0.9, 0}}); !(got > alone) {
		t.Errorf("min–max hypervolume of the degenerate front %g: want it above the constant's %g", got, alone)
	}
}

// Two splits, each on its own scale (split 0 as TestScaleHandWorked, split
// 1 with its constant at x = 1):
//
//	split 1: a (1.2, 0.3) → dominated by the constant: (1, 0) alone, 0.11
//	         b (0.8, 0.6), (0.9, 0.3) → x from 0.8 to 1, y from 0 to 0.6:
//	         (0, 1), (0.5, 0.5), (1, 0): 0.11 + 0.3 + 0.05 = 0.46
//
// D = a − b is 0.835 − 0.185 = 0.65 on split 0 and 0.11 − 0.46 = −0.35 on
// split 1: mean 0.15, a wins one.
func TestPerSplitWithConstant(t *testing.T) {
	splits := map[int]map[string][]Point{
		0: {"a": handA, "b": handB},
		1: {"a": {{1.2, 0.3}}, "b": {{0.8, 0.6}, {0.9, 0.3}}},
	}
	hv, err := PerSplitWith(splits, SplitOptions{Rule: RuleConstant, Constants: map[int]float64{0: 0.7, 1: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []SplitHypervolume{{"a", 0, 0.835}, {"b", 0, 0.185}, {"a", 1, 0.11}, {"b", 1, 0.46}}
	if len(hv) != len(want) {
		t.Fatalf("PerSplitWith = %+v", hv)
	}
	for i := range want {
		if hv[i].Group != want[i].Group || hv[i].Split != want[i].Split || math.Abs(hv[i].Hypervolume-want[i].Hypervolume) > 1e-12 {
			t.Errorf("row %d = %+v, want %+v", i, hv[i], want[i])
		}
	}
	p := ComparePairs(hv, PairedOptions{Seed: 1})[0]
	if p.Splits != 2 || p.AWins != 1 || math.Abs(p.Mean-0.15) > 1e-12 {
		t.Errorf("pair %+v: want mean a − b 0.15 over 2 splits, a wins 1", p)
	}
	// Deciding on other points chooses each front there, as PerSplitDecided.
	decide := map[int]map[string][]Point{
		0: {"a": {{0.5, 0.2}, {0.4, 0.1}}, "b": {{0.55, 0.4}, {0.8, 0}}}, // a's second dominates its first
		1: {"a": {{1.2, 0.3}}, "b": {{0.8, 0.6}, {0.9, 0.3}}},
	}
	hv, err = PerSplitWith(splits, SplitOptions{Decide: decide, Rule: RuleConstant, Constants: map[int]float64{0: 0.7, 1: 1}})
	// a keeps (0.6, 0.1) only: (0.5, 0.25), (1, 0) → 0.6·0.85 + 0.1·0.25 = 0.535.
	if err != nil || math.Abs(hv[0].Hypervolume-0.535) > 1e-12 {
		t.Errorf("decided: %+v, %v; want a's split 0 hypervolume 0.535", hv, err)
	}
	if _, err := PerSplitWith(splits, SplitOptions{Rule: RuleConstant, Constants: map[int]float64{0: 0.7}}); err == nil ||
		!strings.Contains(err.Error(), "split 1") {
		t.Errorf("split 1 without a constant: err = %v", err)
	}
	minmax, err := PerSplitWith(splits, SplitOptions{})
	if err != nil || !equalSplitHV(minmax, PerSplit(splits)) {
		t.Errorf("the zero options are not PerSplit: %+v %v", minmax, err)
	}
}

func equalSplitHV(a, b []SplitHypervolume) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The pooled comparison scales by the rule it is given.
func TestCompareWithRule(t *testing.T) {
	groups := map[string][]Point{"a": handA, "b": handB}
	for _, tc := range []struct {
		opt          Options
		wantA, wantB float64
	}{
		{Options{Rule: RuleConstant, Constant: 0.7}, 0.835, 0.185},
		{Options{}, 0.66 + (1.1-1.0/3)*0.25, (1.1-1.0/6)*0.1 + 0.1},
	} {
		got := CompareWith(groups, tc.opt)
		if math.Abs(got[0].Hypervolume-tc.wantA) > 1e-12 || math.Abs(got[1].Hypervolume-tc.wantB) > 1e-12 {
			t.Errorf("%q: %+v, want hypervolumes %g, %g", tc.opt.Rule, got, tc.wantA, tc.wantB)
		}
	}
}

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rule
		err  bool
	}{{"", RuleConstant, false}, {"constant", RuleConstant, false}, {"minmax", RuleMinMax, false}, {"min-max", "", true}} {
		got, err := ParseRule(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("ParseRule(%q) = %q, %v", tc.in, got, err)
		}
	}
}

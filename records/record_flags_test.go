package records

import (
	"math"
	"testing"
)

func TestDegenerateKinds(t *testing.T) {
	c := 0.6
	cases := []struct {
		name            string
		r               Record
		noBetter, degen bool
	}{
		{"ordinary", Record{Risk: 0.5, ConstRisk: &c}, false, false},
		{"no const_risk recorded", Record{Risk: 0.9}, false, false},
		{"as good as constant", Record{Risk: 0.6, ConstRisk: &c}, true, true},
		{"worse than constant", Record{Risk: 0.7, ConstRisk: &c}, true, true},
		{"near-constant", Record{Risk: 0.5, NearConstant: true}, false, true},
		{"single class", Record{Risk: 0.5, SingleClass: true}, false, true},
		{"collapsed", Record{Risk: 0.5, Collapsed: true}, false, true},
		// base rate 30%: the limit is min(1%, 3%) = 1%.
		{"approves 99.5%", Record{Risk: 0.5, MajorityShare: ptr(0.995), ConstError: ptr(0.3)}, false, true},
		{"approves 98%", Record{Risk: 0.5, MajorityShare: ptr(0.98), ConstError: ptr(0.3)}, false, false},
		// base rate 5%: the limit is 0.5%, so 99% is an honest predictor.
		{"rare class, 99%", Record{Risk: 0.5, MajorityShare: ptr(0.99), ConstError: ptr(0.05)}, false, false},
		{"rare class, 99.6%", Record{Risk: 0.5, MajorityShare: ptr(0.996), ConstError: ptr(0.95)}, false, true},
		{"no majority_share recorded", Record{Risk: 0.5, ConstError: ptr(0.3)}, false, false},
	}
	for _, tc := range cases {
		if got := tc.r.NoBetterThanConstant(); got != tc.noBetter {
			t.Errorf("%s: NoBetterThanConstant = %v", tc.name, got)
		}
		if got := tc.r.Degenerate(); got != tc.degen {
			t.Errorf("%s: Degenerate = %v", tc.name, got)
		}
	}
}

func ptr(v float64) *float64 { return &v }

func TestMinorityDecisionLimit(t *testing.T) {
	for _, tc := range []struct{ rate, want float64 }{{0.5, 0.01}, {0.1, 0.01}, {0.04, 0.004}, {0, 0}} {
		if got := MinorityDecisionLimit(tc.rate); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("MinorityDecisionLimit(%g) = %g, want %g", tc.rate, got, tc.want)
		}
	}
}

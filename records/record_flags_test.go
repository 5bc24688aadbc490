package records

import "testing"

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

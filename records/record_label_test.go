package records

import "testing"

// The method label tells the adversarial baseline's strengths and budgets
// apart, and is the method alone for every other candidate.
func TestMethodLabel(t *testing.T) {
	for _, tc := range []struct {
		r    Record
		want string
	}{
		{Record{Method: "cheb"}, "cheb"},
		{Record{Method: "adversarial", BetaScale: 1}, "adversarial"},
		{Record{Method: "adversarial", BetaScale: 200}, "adversarial(β×200)"},
		{Record{Method: "adversarial", BetaScale: 1, AdvClfSteps: 53}, "adversarial(K=53)"},
		{Record{Method: "adversarial", BetaScale: 200, AdvClfSteps: 53}, "adversarial(β×200, K=53)"},
	} {
		if got := tc.r.MethodLabel(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

package scalarize

import (
	"math"
	"strings"
	"testing"
)

// std: R̃ = (R − 0.2)/0.8 and Ũ = (U − 1)/4, so dR̃/dR = 1.25 and dŨ/dU = 0.25.
var std = Standardizer{RMin: 0.2, RMax: 1, UMin: 1, UMax: 5}

func TestObjectiveValue(t *testing.T) {
	cases := []struct {
		name      string
		obj       Objective
		r, u      float64
		v, dR, dU float64
	}{
		{"risk", Objective{Method: Risk}, 0.7, 3, 0.7, 1, 0},
		{"penalty", Objective{Method: Penalty}, 0.7, 3, 3, 0, 1},
		// R̃ = 0.5/0.8 = 0.625, Ũ = 2/4 = 0.5; λ = 0.2:
		// (1−λ)R̃ + λŨ = 0.8·0.625 + 0.2·0.5 = 0.6; dR = 0.8·1.25 = 1; dU = 0.2·0.25 = 0.05.
		{"linear", Objective{Method: Linear, Lambda: 0.2, Std: std}, 0.7, 3, 0.6, 1, 0.05},
		// a = 0.8·0.625 = 0.5 > b = 0.2·0.5 = 0.1: the risk side, dR = 1.
		{"cheb risk side", Objective{Method: Chebyshev, Lambda: 0.2, Std: std}, 0.7, 3, 0.5, 1, 0},
		// λ = 0.9: a = 0.1·0.625 = 0.0625 < b = 0.9·0.5 = 0.45: the penalty side, dU = 0.9·0.25 = 0.225.
		{"cheb penalty side", Objective{Method: Chebyshev, Lambda: 0.9, Std: std}, 0.7, 3, 0.45, 0, 0.225},
		// λ = 0.5, R = 0.6, U = 2.6: R̃ = 0.4/0.8 = 0.5, Ũ = 1.6/4 = 0.4; a = 0.25, b = 0.2.
		{"cheb λ=0.5", Objective{Method: Chebyshev, Lambda: 0.5, Std: std}, 0.6, 2.6, 0.25, 0.625, 0},
		// An exact tie in binary: with RMin = UMin = 0, RMax = 1, UMax = 2, λ = 0.5,
		// R = 0.25 and U = 0.5 give a = 0.5·0.25 = 0.125 = b = 0.5·(0.5/2). The
		// subgradient is the risk side's alone: dR = 0.5, dU = 0 (never the sum).
		{"cheb tie", Objective{Method: Chebyshev, Lambda: 0.5, Std: Standardizer{RMax: 1, UMax: 2}}, 0.25, 0.5, 0.125, 0.5, 0},
		// λ = 0 and λ = 1 keep one side only.
		{"linear λ=0", Objective{Method: Linear, Lambda: 0, Std: std}, 0.7, 3, 0.625, 1.25, 0},
		{"cheb λ=1", Objective{Method: Chebyshev, Lambda: 1, Std: std}, 0.7, 3, 0.5, 0, 0.25},
		// Sum: R + λU unstandardized, λ any value ≥ 0: 0.7 + 2·3 = 6.7.
		{"sum", Objective{Method: Sum, Lambda: 2}, 0.7, 3, 6.7, 1, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.obj.Validate(); err != nil {
				t.Fatal(err)
			}
			v, dR, dU := tc.obj.Value(tc.r, tc.u)
			if math.Abs(v-tc.v) > 1e-15 || math.Abs(dR-tc.dR) > 1e-15 || math.Abs(dU-tc.dU) > 1e-15 {
				t.Errorf("Value(%v, %v) = %v, %v, %v; want %v, %v, %v", tc.r, tc.u, v, dR, dU, tc.v, tc.dR, tc.dU)
			}
		})
	}
}

// The derivatives Value reports are those of the value it reports, away from ties.
func TestObjectiveValueDerivatives(t *testing.T) {
	const h = 1e-6
	for _, o := range []Objective{
		{Method: Linear, Lambda: 0.35, Std: std},
		{Method: Chebyshev, Lambda: 0.35, Std: std},
		{Method: Chebyshev, Lambda: 0.8, Std: std},
	} {
		r, u := 0.9, 2.2
		_, dR, dU := o.Value(r, u)
		vp, _, _ := o.Value(r+h, u)
		vm, _, _ := o.Value(r-h, u)
		if n := (vp - vm) / (2 * h); math.Abs(n-dR) > 1e-8 {
			t.Errorf("%s λ=%g: dR = %v, finite difference %v", o.Method, o.Lambda, dR, n)
		}
		vp, _, _ = o.Value(r, u+h)
		vm, _, _ = o.Value(r, u-h)
		if n := (vp - vm) / (2 * h); math.Abs(n-dU) > 1e-8 {
			t.Errorf("%s λ=%g: dU = %v, finite difference %v", o.Method, o.Lambda, dU, n)
		}
	}
}

func TestObjectiveValidate(t *testing.T) {
	cases := []struct {
		name string
		obj  Objective
		want string // "" means valid
	}{
		{"risk needs no constants", Objective{Method: Risk}, ""},
		{"penalty needs no constants", Objective{Method: Penalty, Lambda: 7}, ""},
		{"cheb", Objective{Method: Chebyshev, Lambda: 0.5, Std: std}, ""},
		{"unknown method", Objective{Method: "max"}, `objective method "max"`},
		{"λ > 1", Objective{Method: Linear, Lambda: 1.5, Std: std}, "outside [0, 1]"},
		{"λ NaN", Objective{Method: Chebyshev, Lambda: math.NaN(), Std: std}, "outside [0, 1]"},
		{"constant risk", Objective{Method: Chebyshev, Lambda: 0.5, Std: Standardizer{RMin: 0.3, RMax: 0.3, UMax: 1}}, "R_max = R_min"},
		{"constant penalty", Objective{Method: Linear, Lambda: 0.5, Std: Standardizer{RMax: 1, UMin: 2, UMax: 2}}, "U_max = U_min"},
		{"inverted range", Objective{Method: Linear, Lambda: 0.5, Std: Standardizer{RMin: 1, RMax: 0.5, UMax: 1}}, "R_max = R_min"},
		{"infinite", Objective{Method: Linear, Lambda: 0.5, Std: Standardizer{RMax: math.Inf(1), UMax: 1}}, "not finite"},
	}
	for _, tc := range cases {
		err := tc.obj.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if (Objective{Method: Risk}).UsesPenalty() || !(Objective{Method: Linear}).UsesPenalty() {
		t.Error("UsesPenalty: risk uses no penalty, linear does")
	}
}

func TestStandardizer(t *testing.T) {
	r, dr := std.R(0.6)
	u, du := std.U(3)
	// 0.6 − 0.2 is 0.39999999999999997 in binary, hence the tolerance.
	if math.Abs(r-0.5) > 1e-15 || dr != 1.25 || u != 0.5 || du != 0.25 {
		t.Errorf("R(0.6) = %v, %v; U(3) = %v, %v; want 0.5, 1.25, 0.5, 0.25", r, dr, u, du)
	}
}

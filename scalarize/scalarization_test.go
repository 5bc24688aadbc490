package scalarize

import (
	"math"
	"strings"
	"testing"
)

// The augmented Chebyshev value, worked out by hand, and its derivatives
// against central finite differences on both sides of the maximum.
func TestChebAugValue(t *testing.T) {
	cases := []struct {
		name      string
		o         Objective
		r, u      float64
		v, dR, dU float64
	}{
		// R̃ = 0.625, Ũ = 0.5, λ = 0.2: a = 0.5, b = 0.1; 0.5 + 0.1·0.6 = 0.56;
		// dR = (0.8 + 0.1·0.8)·1.25 = 1.1; dU = 0.1·0.2·0.25 = 0.005.
		{"risk side", Objective{Method: ChebyshevAugmented, Lambda: 0.2, Std: std, Scalarization: ChebAug{Rho: 0.1}}, 0.7, 3, 0.56, 1.1, 0.005},
		// λ = 0.9: a = 0.0625, b = 0.45; 0.45 + 0.1·0.5125 = 0.50125;
		// dR = 0.1·0.1·1.25 = 0.0125; dU = (0.9 + 0.09)·0.25 = 0.2475.
		{"penalty side", Objective{Method: ChebyshevAugmented, Lambda: 0.9, Std: std, Scalarization: ChebAug{Rho: 0.1}}, 0.7, 3, 0.50125, 0.0125, 0.2475},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.o.Validate(); err != nil {
				t.Fatal(err)
			}
			v, dR, dU := tc.o.Value(tc.r, tc.u)
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"value", v, tc.v}, {"dR", dR, tc.dR}, {"dU", dU, tc.dU}} {
				if math.Abs(c.got-c.want) > 1e-12 {
					t.Errorf("%s = %.15g, want %.15g", c.what, c.got, c.want)
				}
			}
			const h = 1e-6
			vp, _, _ := tc.o.Value(tc.r+h, tc.u)
			vm, _, _ := tc.o.Value(tc.r-h, tc.u)
			if fd := (vp - vm) / (2 * h); math.Abs(fd-dR) > 1e-9*math.Max(1, math.Abs(dR)) {
				t.Errorf("dR = %.12g, finite differences %.12g", dR, fd)
			}
			vp, _, _ = tc.o.Value(tc.r, tc.u+h)
			vm, _, _ = tc.o.Value(tc.r, tc.u-h)
			if fd := (vp - vm) / (2 * h); math.Abs(fd-dU) > 1e-9*math.Max(1, math.Abs(dU)) {
				t.Errorf("dU = %.12g, finite differences %.12g", dU, fd)
			}
		})
	}
}

// Cheb and Lin are the arithmetic Objective.Value had before scalarizations
// were values: the same bits for value and derivatives on a grid of points.
func TestBuiltinsKeepTheirBits(t *testing.T) {
	for _, lam := range []float64{0, 0.001, 0.0017012542798525892, 0.2030917620904735, 0.5, 0.97, 1} {
		for _, r := range []float64{0.2, 0.3333, 0.7, 1.4} {
			for _, u := range []float64{1, 1.77, 3, 9} {
				rt, drt := std.R(r)
				ut, dut := std.U(u)
				a, b := (1-lam)*rt, lam*ut
				lv, ldR, ldU := Objective{Method: Linear, Lambda: lam, Std: std}.Value(r, u)
				if lv != a+b || ldR != (1-lam)*drt || ldU != lam*dut {
					t.Errorf("linear λ=%g r=%g u=%g: (%v, %v, %v)", lam, r, u, lv, ldR, ldU)
				}
				cv, cdR, cdU := Objective{Method: Chebyshev, Lambda: lam, Std: std}.Value(r, u)
				wv, wdR, wdU := b, 0.0, lam*dut
				if a >= b {
					wv, wdR, wdU = a, (1-lam)*drt, 0
				}
				if cv != wv || cdR != wdR || cdU != wdU {
					t.Errorf("cheb λ=%g r=%g u=%g: (%v, %v, %v), want (%v, %v, %v)", lam, r, u, cv, cdR, cdU, wv, wdR, wdU)
				}
			}
		}
	}
}

// A custom scalarization is used through Objective when its name is the method.
type squares struct{}

func (squares) Name() string    { return "squares" }
func (squares) Version() string { return "1" }
func (squares) Value(rt, ut, l float64) (float64, float64, float64) {
	return (1-l)*rt*rt + l*ut*ut, 2 * (1 - l) * rt, 2 * l * ut
}

func TestObjectiveScalarizationValidate(t *testing.T) {
	ok := []Objective{
		{Method: Chebyshev, Lambda: 0.5, Std: std},
		{Method: ChebyshevAugmented, Lambda: 0.5, Std: std, Scalarization: ChebAug{Rho: DefaultRho}},
		{Method: "squares", Lambda: 0.5, Std: std, Scalarization: squares{}},
	}
	for _, o := range ok {
		if err := o.Validate(); err != nil {
			t.Errorf("%s: %v", o.Method, err)
		}
	}
	bad := []struct {
		o    Objective
		want string
	}{
		{Objective{Method: ChebyshevAugmented, Lambda: 0.5, Std: std}, "give its Scalarization"},
		{Objective{Method: ChebyshevAugmented, Lambda: 0.5, Std: std, Scalarization: ChebAug{}}, "ρ = 0"},
		{Objective{Method: ChebyshevAugmented, Lambda: 0.5, Std: std, Scalarization: ChebAug{Rho: math.Inf(1)}}, "ρ = +Inf"},
		{Objective{Method: "squares", Lambda: 0.5, Std: std}, `"squares"`},
		{Objective{Method: Chebyshev, Lambda: 0.5, Std: std, Scalarization: squares{}}, `called "squares"`},
		{Objective{Method: "squares", Lambda: 1.5, Std: std, Scalarization: squares{}}, "outside [0, 1]"},
	}
	for _, c := range bad {
		err := c.o.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.o.Method, err, c.want)
		}
	}
	v, dR, dU := Objective{Method: "squares", Lambda: 0.5, Std: std, Scalarization: squares{}}.Value(0.7, 3)
	// R̃ = 0.625, Ũ = 0.5: 0.5·0.390625 + 0.5·0.25 = 0.3203125; dR = 0.625·1.25, dU = 0.5·0.25.
	if math.Abs(v-0.3203125) > 1e-15 || math.Abs(dR-0.625*1.25) > 1e-15 || dU != 0.5*0.25 {
		t.Errorf("custom: (%v, %v, %v)", v, dR, dU)
	}
}

func TestBuiltin(t *testing.T) {
	for _, c := range []struct {
		m    Method
		rho  float64
		want string
	}{{Chebyshev, 0, "cheb"}, {Linear, 0, "linear"}, {ChebyshevAugmented, 0.01, "cheb-aug"}} {
		s, err := Builtin(c.m, c.rho)
		if err != nil || s.Name() != c.want {
			t.Errorf("Builtin(%s): %v, %v", c.m, s, err)
		}
	}
	if _, err := Builtin(ChebyshevAugmented, -1); err == nil || !strings.Contains(err.Error(), "ρ = -1") {
		t.Errorf("negative ρ: %v", err)
	}
	if _, err := Builtin("max", 0); err == nil || !strings.Contains(err.Error(), "want cheb, linear or cheb-aug") {
		t.Errorf("unknown: %v", err)
	}
}

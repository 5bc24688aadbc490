package graph

import (
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/scalarize"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// evalNode builds ObjectiveNode on scalar inputs r and u and returns its
// value and its derivatives with respect to r and u.
func evalNode(t *testing.T, o scalarize.Objective, r, u float64) (v, dR, dU float64) {
	t.Helper()
	g := G.NewGraph()
	rn := G.NewScalar(g, G.Float64, G.WithName("r"), G.WithValue(r))
	un := G.NewScalar(g, G.Float64, G.WithName("u"), G.WithValue(u))
	var rIn, uIn *G.Node
	if o.Method != scalarize.Penalty {
		rIn = rn
	}
	if o.UsesPenalty() {
		uIn = un
	}
	out, err := ObjectiveNode(o, rIn, uIn)
	if err != nil {
		t.Fatal(err)
	}
	var wrt G.Nodes
	for _, n := range []*G.Node{rIn, uIn} {
		if n != nil {
			wrt = append(wrt, n)
		}
	}
	grads, err := G.Grad(out, wrt...)
	if err != nil {
		t.Fatal(err)
	}
	var vv G.Value
	gv := make([]G.Value, len(grads))
	reads := G.Nodes{G.Read(out, &vv)}
	for i, gr := range grads {
		reads = append(reads, G.Read(gr, &gv[i]))
	}
	prog, locs, err := G.CompileFunction(g, wrt, reads)
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.WithPrecompiled(prog, locs))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	f := func(v G.Value) float64 {
		switch x := v.(type) {
		case *G.F64:
			return float64(*x)
		default:
			return x.Data().(float64)
		}
	}
	v = f(vv)
	k := 0
	if rIn != nil {
		dR = f(gv[k])
		k++
	}
	if uIn != nil {
		dU = f(gv[k])
	}
	return v, dR, dU
}

// The graph node and Value agree on the value and on the (sub)gradient,
// including at an exact Chebyshev tie, where both take the risk side.
func TestObjectiveNodeMatchesValue(t *testing.T) {
	cases := []struct {
		name string
		o    scalarize.Objective
		r, u float64
	}{
		{"risk", scalarize.Objective{Method: scalarize.Risk}, 0.7, 3},
		{"penalty", scalarize.Objective{Method: scalarize.Penalty}, 0.7, 3},
		{"linear", scalarize.Objective{Method: scalarize.Linear, Lambda: 0.2, Std: std}, 0.7, 3},
		{"sum", scalarize.Objective{Method: scalarize.Sum, Lambda: 2.5}, 0.7, 3},
		{"cheb risk side", scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.2, Std: std}, 0.7, 3},
		{"cheb penalty side", scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.9, Std: std}, 0.7, 3},
		{"cheb tie", scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5, Std: scalarize.Standardizer{RMax: 1, UMax: 2}}, 0.25, 0.5},
		{"cheb-aug risk side", scalarize.Objective{Method: scalarize.ChebyshevAugmented, Lambda: 0.2, Std: std, Scalarization: scalarize.ChebAug{Rho: 0.01}}, 0.7, 3},
		{"cheb-aug penalty side", scalarize.Objective{Method: scalarize.ChebyshevAugmented, Lambda: 0.9, Std: std, Scalarization: scalarize.ChebAug{Rho: 0.3}}, 0.7, 3},
		{"cheb-aug tie", scalarize.Objective{Method: scalarize.ChebyshevAugmented, Lambda: 0.5, Std: scalarize.Standardizer{RMax: 1, UMax: 2}, Scalarization: scalarize.ChebAug{Rho: 0.01}}, 0.25, 0.5},
		{"cheb tie, awkward constants", scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
			Std: scalarize.Standardizer{RMin: 0.1, RMax: 0.7, UMin: 0.05, UMax: 2.9}}, 0.4, 0},
	}
	// Make the last case an exact tie in floating point: move U until
	// (1−λ)R̃ = λŨ holds to the last bit in Value's own arithmetic.
	last := &cases[len(cases)-1]
	rt, _ := last.o.Std.R(last.r)
	a := (1 - last.o.Lambda) * rt
	last.u = a/last.o.Lambda*(last.o.Std.UMax-last.o.Std.UMin) + last.o.Std.UMin
	for up, down, k := last.u, last.u, 0; ; k++ {
		if k > 1000 {
			t.Fatal("no exact tie found")
		}
		if ut, _ := last.o.Std.U(up); last.o.Lambda*ut == a {
			last.u = up
			break
		}
		if ut, _ := last.o.Std.U(down); last.o.Lambda*ut == a {
			last.u = down
			break
		}
		up, down = math.Nextafter(up, 10), math.Nextafter(down, -10)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, dR, dU := evalNode(t, tc.o, tc.r, tc.u)
			wv, wdR, wdU := tc.o.Value(tc.r, tc.u)
			// The augmented form adds ρ(a+b) in another order than its
			// numeric twin: equal to rounding, not to the bit.
			if v != wv && !(tc.o.Method == scalarize.ChebyshevAugmented && math.Abs(v-wv) <= 1e-15*math.Abs(wv)) {
				t.Errorf("value %.17g, Value %.17g", v, wv)
			}
			if math.Abs(dR-wdR) > 1e-15 || math.Abs(dU-wdU) > 1e-15 {
				t.Errorf("gradient (%v, %v), Value's (%v, %v)", dR, dU, wdR, wdU)
			}
			if strings.Contains(tc.name, "tie") && tc.o.Method == scalarize.Chebyshev && (dU != 0 || dR == 0) {
				t.Errorf("tie: gradient (%v, %v) is not the risk side alone", dR, dU)
			}
		})
	}
}

// std are the standardization constants of the objective tests.
var std = scalarize.Standardizer{RMin: 0.2, RMax: 1, UMin: 1, UMax: 5}

func TestObjectiveNodeErrors(t *testing.T) {
	g := G.NewGraph()
	r := G.NewScalar(g, G.Float64, G.WithName("r"), G.WithValue(0.5))
	vec := G.NewVector(g, G.Float64, G.WithShape(3), G.WithName("v"), G.WithValue(tensor.New(tensor.WithBacking([]float64{1, 2, 3}))))
	cheb := scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5, Std: std}
	cases := []struct {
		name string
		o    scalarize.Objective
		r, u *G.Node
		want string
	}{
		{"risk without r", scalarize.Objective{Method: scalarize.Risk}, nil, r, "no risk node"},
		{"penalty without u", scalarize.Objective{Method: scalarize.Penalty}, r, nil, "no penalty node"},
		{"cheb without u", cheb, r, nil, "needs both"},
		{"sum without u", scalarize.Objective{Method: scalarize.Sum, Lambda: 1}, r, nil, "needs both"},
		{"vector penalty", cheb, r, vec, "want a scalar"},
		{"invalid objective", scalarize.Objective{Method: scalarize.Linear, Lambda: 2, Std: std}, r, r, "outside [0, 1]"},
	}
	for _, tc := range cases {
		if _, err := ObjectiveNode(tc.o, tc.r, tc.u); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	u := G.NewScalar(g, G.Float64, G.WithName("u"), G.WithValue(0.25))
	if _, err := ObjectiveNodeAt(cheb, r, u, vec); err == nil || !strings.Contains(err.Error(), "λ node v has shape (3) and type float64, want a float64 scalar") {
		t.Errorf("vector λ: error %v", err)
	}
}

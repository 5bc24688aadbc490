package scalarize

import (
	"math"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// evalNode builds Objective.Node on scalar inputs r and u and returns its
// value and its derivatives with respect to r and u.
func evalNode(t *testing.T, o Objective, r, u float64) (v, dR, dU float64) {
	t.Helper()
	g := G.NewGraph()
	rn := G.NewScalar(g, G.Float64, G.WithName("r"), G.WithValue(r))
	un := G.NewScalar(g, G.Float64, G.WithName("u"), G.WithValue(u))
	var rIn, uIn *G.Node
	if o.Method != Penalty {
		rIn = rn
	}
	if o.UsesPenalty() {
		uIn = un
	}
	out, err := o.Node(rIn, uIn)
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
func TestNodeMatchesValue(t *testing.T) {
	cases := []struct {
		name string
		o    Objective
		r, u float64
	}{
		{"risk", Objective{Method: Risk}, 0.7, 3},
		{"penalty", Objective{Method: Penalty}, 0.7, 3},
		{"linear", Objective{Method: Linear, Lambda: 0.2, Std: std}, 0.7, 3},
		{"sum", Objective{Method: Sum, Lambda: 2.5}, 0.7, 3},
		{"cheb risk side", Objective{Method: Chebyshev, Lambda: 0.2, Std: std}, 0.7, 3},
		{"cheb penalty side", Objective{Method: Chebyshev, Lambda: 0.9, Std: std}, 0.7, 3},
		{"cheb tie", Objective{Method: Chebyshev, Lambda: 0.5, Std: Standardizer{RMax: 1, UMax: 2}}, 0.25, 0.5},
		{"cheb tie, awkward constants", Objective{Method: Chebyshev, Lambda: 0.3,
			Std: Standardizer{RMin: 0.1, RMax: 0.7, UMin: 0.05, UMax: 2.9}}, 0.4, 0},
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
			if v != wv {
				t.Errorf("value %.17g, Value %.17g", v, wv)
			}
			if math.Abs(dR-wdR) > 1e-15 || math.Abs(dU-wdU) > 1e-15 {
				t.Errorf("gradient (%v, %v), Value's (%v, %v)", dR, dU, wdR, wdU)
			}
			if strings.Contains(tc.name, "tie") && (dU != 0 || dR == 0) {
				t.Errorf("tie: gradient (%v, %v) is not the risk side alone", dR, dU)
			}
		})
	}
}

func TestNodeErrors(t *testing.T) {
	g := G.NewGraph()
	r := G.NewScalar(g, G.Float64, G.WithName("r"), G.WithValue(0.5))
	vec := G.NewVector(g, G.Float64, G.WithShape(3), G.WithName("v"), G.WithValue(tensor.New(tensor.WithBacking([]float64{1, 2, 3}))))
	cheb := Objective{Method: Chebyshev, Lambda: 0.5, Std: std}
	cases := []struct {
		name string
		o    Objective
		r, u *G.Node
		want string
	}{
		{"risk without r", Objective{Method: Risk}, nil, r, "no risk node"},
		{"penalty without u", Objective{Method: Penalty}, r, nil, "no penalty node"},
		{"cheb without u", cheb, r, nil, "needs both"},
		{"sum without u", Objective{Method: Sum, Lambda: 1}, r, nil, "needs both"},
		{"vector penalty", cheb, r, vec, "want a scalar"},
		{"invalid objective", Objective{Method: Linear, Lambda: 2, Std: std}, r, r, "outside [0, 1]"},
	}
	for _, tc := range cases {
		if _, err := tc.o.Node(tc.r, tc.u); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

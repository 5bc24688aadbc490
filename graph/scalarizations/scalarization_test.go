package scalarizations_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/graph/scalarizations"
	"github.com/fpareto/fp/scalarize"
	G "gorgonia.org/gorgonia"
)

// evalNode runs s.Node on scalar inputs (R̃, Ũ) at λ and returns the value
// and Gorgonia's derivatives with respect to R̃ and Ũ.
func evalNode(t *testing.T, s scalarizations.Scalarization, rt, ut, lambda float64) (v, dRt, dUt float64) {
	t.Helper()
	g := G.NewGraph()
	rn := G.NewScalar(g, G.Float64, G.WithName("rt"), G.WithValue(rt))
	un := G.NewScalar(g, G.Float64, G.WithName("ut"), G.WithValue(ut))
	out, err := s.Node(rn, un, g.Constant(G.NewF64(lambda)))
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(out, rn, un)
	if err != nil {
		t.Fatal(err)
	}
	var vv, gr, gu G.Value
	reads := G.Nodes{G.Read(out, &vv), G.Read(grads[0], &gr), G.Read(grads[1], &gu)}
	prog, locs, err := G.CompileFunction(g, G.Nodes{rn, un}, reads)
	if err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.WithPrecompiled(prog, locs))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	f := func(v G.Value) float64 {
		if x, ok := v.(*G.F64); ok {
			return float64(*x)
		}
		return v.Data().(float64)
	}
	return f(vv), f(gr), f(gu)
}

// squares is (1−λ)R̃² + λŨ², a custom scalarization with its numeric twin.
var squares = scalarizations.New("squares", "1",
	func(rt, ut, lambda *G.Node) (*G.Node, error) {
		w := G.Must(G.Sub(G.NewConstant(1.0), lambda))
		return G.Add(G.Must(G.Mul(w, G.Must(G.Square(rt)))), G.Must(G.Mul(lambda, G.Must(G.Square(ut)))))
	},
	func(rt, ut, l float64) (float64, float64, float64) {
		return (1-l)*rt*rt + l*ut*ut, 2 * (1 - l) * rt, 2 * l * ut
	})

// The graph form of every built-in and of a custom scalarization agrees
// with its numeric form on the value (to rounding) and on the gradient
// (relative 1e-12), and the numeric gradient with central finite
// differences (relative 1e-7), on both sides of the maximum.
func TestNodeMatchesValue(t *testing.T) {
	cases := []struct {
		name   string
		s      scalarizations.Scalarization
		rt, ut float64
		lambda float64
	}{
		{"cheb risk side", scalarizations.Chebyshev, 0.625, 0.5, 0.2},
		{"cheb penalty side", scalarizations.Chebyshev, 0.625, 0.5, 0.9},
		{"linear", scalarizations.Linear, 0.625, 0.5, 0.3},
		{"cheb-aug risk side", scalarizations.AugmentedChebyshev(0.01), 0.625, 0.5, 0.2},
		{"cheb-aug penalty side", scalarizations.AugmentedChebyshev(0.01), 0.625, 0.5, 0.9},
		{"cheb-aug large ρ", scalarizations.AugmentedChebyshev(2), 0.11, 1.3, 0.45},
		{"custom", squares, 0.625, 0.5, 0.3},
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-12) }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, dRt, dUt := evalNode(t, tc.s, tc.rt, tc.ut, tc.lambda)
			wv, wdRt, wdUt := tc.s.Value(tc.rt, tc.ut, tc.lambda)
			if rel(v, wv) > 1e-15 {
				t.Errorf("value %.17g, Value %.17g", v, wv)
			}
			if rel(dRt, wdRt) > 1e-12 || rel(dUt, wdUt) > 1e-12 {
				t.Errorf("gradient (%.17g, %.17g), Value's (%.17g, %.17g)", dRt, dUt, wdRt, wdUt)
			}
			const h = 1e-6
			fr := func(x float64) float64 { v, _, _ := tc.s.Value(x, tc.ut, tc.lambda); return v }
			fu := func(x float64) float64 { v, _, _ := tc.s.Value(tc.rt, x, tc.lambda); return v }
			if fd := (fr(tc.rt+h) - fr(tc.rt-h)) / (2 * h); math.Abs(fd-wdRt) > 1e-7*math.Max(1, math.Abs(wdRt)) {
				t.Errorf("∂/∂R̃ = %.12g, finite differences %.12g", wdRt, fd)
			}
			if fd := (fu(tc.ut+h) - fu(tc.ut-h)) / (2 * h); math.Abs(fd-wdUt) > 1e-7*math.Max(1, math.Abs(wdUt)) {
				t.Errorf("∂/∂Ũ = %.12g, finite differences %.12g", wdUt, fd)
			}
		})
	}
}

type numericOnly struct{ scalarize.Lin }

func (numericOnly) Name() string { return "numeric-only" }

func TestOf(t *testing.T) {
	for _, c := range []struct {
		in   scalarize.Scalarization
		want string
	}{{scalarize.Cheb{}, "cheb"}, {scalarize.Lin{}, "linear"}, {scalarize.ChebAug{Rho: 0.5}, "cheb-aug"}, {squares, "squares"}} {
		s, err := scalarizations.Of(c.in)
		if err != nil || s.Name() != c.want {
			t.Errorf("Of(%s): %v, %v", c.want, s, err)
		}
	}
	if s, _ := scalarizations.Of(scalarize.ChebAug{Rho: 0.5}); s.(interface{ AugmentedChebyshevRho() float64 }).AugmentedChebyshevRho() != 0.5 {
		t.Error("Of(ChebAug) lost ρ")
	}
	if _, err := scalarizations.Of(numericOnly{}); err == nil || !strings.Contains(err.Error(), `"numeric-only" has no graph form`) {
		t.Errorf("numeric only: %v", err)
	}
	if _, err := scalarizations.AugmentedChebyshev(0).Node(nil, nil, nil); err == nil || !strings.Contains(err.Error(), "ρ = 0") {
		t.Errorf("ρ = 0: %v", err)
	}
}

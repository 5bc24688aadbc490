package graph

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// hiddenPenalties are the built-in penalties that read hidden layers, the
// ones a penalty position "before" applies to.
var hiddenPenalties = []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized}

func beforeSpec(c smallCase, obj scalarize.Objective, pen penalties.Penalty, dropout float64, film *model.FiLM, where string) train.Spec {
	s := condSpec(c, obj, pen, dropout, film)
	s.FiLMPenalty = where
	return s
}

// With the penalty read before the modulation, the conditioned trainer's
// gradient with respect to every parameter, the conditioning network's
// included, matches central finite differences: every penalty on hidden
// layers, Chebyshev and linear, with and without dropout, at λ on and off
// the grid.
func TestConditionedBeforeGradientMatchesFiniteDifferences(t *testing.T) {
	for pi, pen := range hiddenPenalties {
		for oi, obj := range condObjectives(0.5)[:2] {
			for _, dropout := range []float64{0, 0.2} {
				name := pen.Name() + "/" + obj.Scalar().Name()
				if dropout > 0 {
					name += "/dropout"
				}
				t.Run(name, func(t *testing.T) {
					c := newSmallCase(uint64(10*pi + oi + 300))
					rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)+30))
					tr, err := NewConditioned(beforeSpec(c, obj, pen, dropout, movedFiLM(rng, 3, 0.3, false), train.PenaltyBeforeFiLM))
					if err != nil {
						t.Fatal(err)
					}
					for _, lambda := range condLambdas {
						if err := tr.SetLambda(lambda); err != nil {
							t.Fatal(err)
						}
						l, err := tr.Gradient(c.b)
						if err != nil {
							t.Fatal(err)
						}
						if !(l.U > 1e-6) {
							t.Fatalf("λ = %g: U = %g: the case does not exercise the penalty", lambda, l.U)
						}
						got := clone(tr.Grads())
						num := numGrad(t, tr, c.b, func(l train.Loss) float64 { return l.Objective }, 1e-6)
						if e := relDiff(got, num); e > 1e-6 {
							t.Errorf("λ = %g: ‖analytic − numeric‖/‖numeric‖ = %.3g, want ≤ 1e-6", lambda, e)
						}
						k := len(smallArch.Shapes(smallDim)) * 2
						if norm(num[k:]) == 0 {
							t.Fatalf("λ = %g: the conditioning network's numeric gradient is zero", lambda)
						}
						if e := relDiff(got[k:], num[k:]); e > 1e-6 {
							t.Errorf("λ = %g: conditioning network: ‖analytic − numeric‖/‖numeric‖ = %.3g, want ≤ 1e-6", lambda, e)
						}
					}
				})
			}
		}
	}
}

// At the identity conditioning network (γ = 1, δ = 0) the layer before the
// modulation is the layer after it, so the two penalty positions give the
// same R, U and objective, to the last bit, and the same gradient with
// respect to the MLP's weights. The conditioning network's gradient differs:
// after the modulation U moves with γ and δ, before it only through the
// layers that follow (none for the last hidden layer).
func TestConditionedBeforeEqualsAfterAtIdentity(t *testing.T) {
	for pi, pen := range hiddenPenalties {
		for oi, obj := range condObjectives(0.3)[:2] {
			for _, dropout := range []float64{0, 0.2} {
				name := pen.Name() + "/" + obj.Scalar().Name()
				if dropout > 0 {
					name += "/dropout"
				}
				t.Run(name, func(t *testing.T) {
					c := newSmallCase(uint64(10*pi + oi + 400))
					film := model.NewFiLM(smallArch, 4, false, rand.New(rand.NewPCG(6, uint64(pi))))
					after, err := NewConditioned(beforeSpec(c, obj, pen, dropout, film, ""))
					if err != nil {
						t.Fatal(err)
					}
					before, err := NewConditioned(beforeSpec(c, obj, pen, dropout, film, train.PenaltyBeforeFiLM))
					if err != nil {
						t.Fatal(err)
					}
					for _, lambda := range []float64{0.3, 0.0123, 1} {
						for _, tr := range []*ConditionedTrainer{after, before} {
							if err := tr.SetLambda(lambda); err != nil {
								t.Fatal(err)
							}
						}
						la, err := after.Gradient(c.b)
						if err != nil {
							t.Fatal(err)
						}
						lb, err := before.Gradient(c.b)
						if err != nil {
							t.Fatal(err)
						}
						if la != lb || !(la.U > 0) {
							t.Errorf("λ = %g: loss before the modulation %+v, after %+v", lambda, lb, la)
						}
						k := len(smallArch.Shapes(smallDim)) * 2
						ga, gb := after.Grads(), before.Grads()
						if d := relDiff(gb[:k], ga[:k]); d > 1e-14 {
							t.Errorf("λ = %g: the MLP's gradients differ by %g", lambda, d)
						}
						// At λ = 1 every scalarization weighs U alone.
						if lambda == 1 && relDiff(gb[k:], ga[k:]) == 0 {
							t.Errorf("λ = %g: the conditioning network's gradient does not see where the penalty reads", lambda)
						}
					}
				})
			}
		}
	}
}

// Away from the identity the two positions read different layers: U and
// the gradient differ, while R, which reads the modulated network in both,
// does not. The scale-free ato-penultimate-normalized is the exception: γ_u
// scales a unit's τ̂ and σ alike and δ_u moves neither, so its U is the
// same (up to its ε) in both positions.
func TestConditionedBeforeDiffersAwayFromIdentity(t *testing.T) {
	for pi, pen := range hiddenPenalties {
		scaleFree := pen == penalties.ATOPenultimateNormalized
		t.Run(pen.Name(), func(t *testing.T) {
			c := newSmallCase(uint64(pi + 500))
			film := model.NewFiLM(smallArch, 4, false, rand.New(rand.NewPCG(7, uint64(pi))))
			obj := condObjectives(0.4)[0]
			// Only the conditioning network's output layer moves: γ ≠ 1, δ ≠ 0.
			rng := rand.New(rand.NewPCG(8, uint64(pi)))
			for _, v := range [][]float64{film.W2, film.B2} {
				for i := range v {
					v[i] = 0.3 * rng.NormFloat64()
				}
			}
			var losses []train.Loss
			var grads [][][]float64
			for _, where := range []string{train.PenaltyAfterFiLM, train.PenaltyBeforeFiLM} {
				tr, err := NewConditioned(beforeSpec(c, obj, pen, 0.2, film, where))
				if err != nil {
					t.Fatal(err)
				}
				l, err := tr.Gradient(c.b)
				if err != nil {
					t.Fatal(err)
				}
				losses = append(losses, l)
				grads = append(grads, clone(tr.Grads()))
			}
			if losses[0].R != losses[1].R {
				t.Errorf("R after the modulation %g, before %g: the risk must read the modulated network in both", losses[0].R, losses[1].R)
			}
			if scaleFree {
				if !nearly(losses[0].U, losses[1].U, 1e-10) || relDiff(grads[1], grads[0]) > 1e-8 {
					t.Errorf("U = %.17g after the modulation, %.17g before (gradients %g apart): want the same", losses[0].U, losses[1].U, relDiff(grads[1], grads[0]))
				}
				return
			}
			if losses[0].U == losses[1].U {
				t.Errorf("U = %g in both positions", losses[0].U)
			}
			if d := relDiff(grads[1], grads[0]); !(d > 1e-6) {
				t.Errorf("the gradients differ by only %g", d)
			}
		})
	}
}

// The default position "after" is the position "": the same graph, the
// same numbers.
func TestConditionedAfterIsDefault(t *testing.T) {
	c := newSmallCase(600)
	film := movedFiLM(rand.New(rand.NewPCG(6, 0)), 3, 0.3, false)
	var losses []train.Loss
	var grads [][][]float64
	for _, where := range []string{"", train.PenaltyAfterFiLM} {
		tr, err := NewConditioned(beforeSpec(c, condObjectives(0.4)[0], penalties.ATOAll, 0.2, film, where))
		if err != nil {
			t.Fatal(err)
		}
		l, err := tr.Gradient(c.b)
		if err != nil {
			t.Fatal(err)
		}
		losses = append(losses, l)
		grads = append(grads, clone(tr.Grads()))
	}
	if losses[0] != losses[1] || relDiff(grads[0], grads[1]) != 0 {
		t.Errorf("position after: %+v, default: %+v", losses[1], losses[0])
	}
}

// What cannot read before the modulation is refused in one line before a
// graph is built: a penalty on the output, a plain network, an unknown
// position; the backprop engine refuses the position through its
// capability check.
func TestConditionedBeforeRefusals(t *testing.T) {
	c := newSmallCase(1)
	cheb := condObjectives(0.5)[0]
	film := movedFiLM(rand.New(rand.NewPCG(1, 1)), 3, 0.3, false)
	for _, tc := range []struct {
		name   string
		engine train.Engine
		spec   train.Spec
		want   string
	}{
		{"output penalty", Engine{}, beforeSpec(c, cheb, penalties.ATOOutput, 0.2, film, train.PenaltyBeforeFiLM),
			`ato-output reads the predicted probability`},
		{"R-group output penalty", Engine{}, beforeSpec(c, cheb, must(penalties.ForGroups(penalties.ATOOutput, 3)), 0.2, film, train.PenaltyBeforeFiLM),
			`ato-output reads the predicted probability`},
		{"plain network", Engine{}, beforeSpec(c, cheb, penalties.ATOAll, 0.2, nil, train.PenaltyBeforeFiLM),
			"only a λ-conditioned network"},
		{"unknown position", Engine{}, beforeSpec(c, cheb, penalties.ATOAll, 0.2, film, "inside"),
			`penalty position "inside": want after or before`},
		{"backprop engine", backprop.Engine{}, beforeSpec(c, cheb, penalties.ATOPenultimate, 0.2, film, train.PenaltyBeforeFiLM),
			`the backprop engine cannot train the penalty position "before"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.engine.NewTrainer(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line containing %q", err, tc.want)
			}
			if tc.engine.Name() == backprop.Name {
				if !errors.Is(err, train.ErrUnsupported) || !strings.Contains(err.Error(), "use the graph engine") {
					t.Errorf("error %v: want ErrUnsupported pointing to the graph engine", err)
				}
				if err := tc.engine.Check(tc.spec.Requirements()); !errors.Is(err, train.ErrUnsupported) {
					t.Errorf("Check: %v, want ErrUnsupported", err)
				}
			}
		})
	}
	// The graph engine's capability check accepts the position.
	s := beforeSpec(c, cheb, penalties.ATOPenultimate, 0.2, film, train.PenaltyBeforeFiLM)
	if err := (Engine{}).Check(s.Requirements()); err != nil {
		t.Errorf("graph engine: Check: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

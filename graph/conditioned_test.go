package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// condStd has ranges that keep R̃ and Ũ of order 1 on the small case.
var condStd = scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 0.4}

// condObjectives are the scalarizations a conditioned network trains on.
func condObjectives(lambda float64) []scalarize.Objective {
	return []scalarize.Objective{
		{Method: scalarize.Chebyshev, Lambda: lambda, Std: condStd},
		{Method: scalarize.Linear, Lambda: lambda, Std: condStd},
		{Method: scalarize.ChebyshevAugmented, Lambda: lambda, Std: condStd, Scalarization: scalarize.ChebAug{Rho: 0.05}},
	}
}

var condPenalties = []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll,
	penalties.ATOPenultimateNormalized, penalties.ATOOutput}

// condLambdas are grid points of log:15 (10⁻³, 1) and points off any grid.
var condLambdas = []float64{1e-3, 0.2718281828, 0.7071067812, 1}

// movedFiLM is a conditioning network for the small case away from the
// identity: W2 and B2 drawn too, so γ ≠ 1 and δ ≠ 0; with output it
// modulates the output layer too.
func movedFiLM(rng *rand.Rand, width int, scale float64, output bool) *model.FiLM {
	f := model.NewFiLM(smallArch, width, output, rng)
	for _, t := range [][]float64{f.W2, f.B2} {
		for i := range t {
			t[i] = scale * rng.NormFloat64()
		}
	}
	return f
}

func condSpec(c smallCase, obj scalarize.Objective, pen penalties.Penalty, dropout float64, film *model.FiLM) train.Spec {
	s := c.spec(obj, pen, nil)
	s.Dropout = dropout
	s.FiLM = film
	return s
}

// The conditioned trainer's gradient with respect to every parameter, the
// conditioning network's included, matches central finite differences for
// every built-in penalty and scalarization, with and without dropout, at
// λ on and off the grid, the λ set at construction or by SetLambda, and
// with the output layer modulated too.
func TestConditionedGradientMatchesFiniteDifferences(t *testing.T) {
	for pi, pen := range condPenalties {
		for oi, obj := range condObjectives(0.5) {
			for _, cs := range []struct {
				dropout float64
				output  bool
			}{{0, false}, {0.2, false}, {0.2, true}} {
				dropout, output := cs.dropout, cs.output
				name := pen.Name() + "/" + obj.Scalar().Name()
				if dropout > 0 {
					name += "/dropout"
				}
				if output {
					name += "/output"
				}
				t.Run(name, func(t *testing.T) {
					c := newSmallCase(uint64(10*pi + oi))
					rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)))
					tr, err := NewConditioned(condSpec(c, obj, pen, dropout, movedFiLM(rng, 3, 0.3, output)))
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
						// The conditioning network's part on its own, so that
						// the MLP's larger gradient cannot hide an error in it.
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

// With the identity conditioning network (model.NewFiLM) the conditioned
// trainer computes the plain network: the same loss and the same gradient
// with respect to the MLP's weights, to the last bit, while the conditioning
// network's own gradient is not zero; with the output layer modulated too.
func TestConditionedAtIdentityIsPlain(t *testing.T) {
	for pi, pen := range condPenalties {
		for oi, obj := range condObjectives(0.3) {
			for _, cs := range []struct {
				dropout float64
				output  bool
			}{{0, false}, {0.2, false}, {0.2, true}} {
				dropout, output := cs.dropout, cs.output
				t.Run(fmt.Sprintf("%s/%s/dropout-%g/output-%t", pen.Name(), obj.Scalar().Name(), dropout, output), func(t *testing.T) {
					c := newSmallCase(uint64(10*pi + oi + 100))
					film := model.NewFiLM(smallArch, 4, output, rand.New(rand.NewPCG(5, uint64(pi))))
					cond, err := NewConditioned(condSpec(c, obj, pen, dropout, film))
					if err != nil {
						t.Fatal(err)
					}
					for _, lambda := range []float64{0.3, 0.0123, 1} {
						o := obj
						o.Lambda = lambda
						plain, err := New(condSpec(c, o, pen, dropout, nil))
						if err != nil {
							t.Fatal(err)
						}
						if err := cond.SetLambda(lambda); err != nil {
							t.Fatal(err)
						}
						lc, err := cond.Gradient(c.b)
						if err != nil {
							t.Fatal(err)
						}
						lp, err := plain.Gradient(c.b)
						if err != nil {
							t.Fatal(err)
						}
						if lc != lp {
							t.Errorf("λ = %g: loss %+v, plain %+v", lambda, lc, lp)
						}
						gc, gp := cond.Grads(), plain.Grads()
						for k := range gp {
							for i := range gp[k] {
								if gc[k][i] != gp[k][i] {
									t.Fatalf("λ = %g: gradient tensor %d [%d] = %.17g, plain %.17g", lambda, k, i, gc[k][i], gp[k][i])
								}
							}
						}
						if norm(gc[len(gp):]) == 0 {
							t.Errorf("λ = %g: the conditioning network's gradient is zero", lambda)
						}
						if d := relDiff(cond.Network().Tensors(), c.p.Tensors()); d != 0 {
							t.Errorf("λ = %g: Network() differs from the MLP by %g at the identity", lambda, d)
						}
					}
				})
			}
		}
	}
}

// SetLambda on a plain trainer gives, to the last bit, what a trainer built
// for that λ gives: the λ fed to the graph is the λ of the objective.
func TestSetLambdaEqualsNewTrainer(t *testing.T) {
	for pi, pen := range condPenalties {
		for _, obj := range condObjectives(0.5) {
			t.Run(pen.Name()+"/"+obj.Scalar().Name(), func(t *testing.T) {
				c := newSmallCase(uint64(pi + 200))
				moved, err := New(condSpec(c, obj, pen, 0.2, nil))
				if err != nil {
					t.Fatal(err)
				}
				for _, lambda := range []float64{0, 1e-3, 0.37, 1} {
					o := obj
					o.Lambda = lambda
					fresh, err := New(condSpec(c, o, pen, 0.2, nil))
					if err != nil {
						t.Fatal(err)
					}
					if err := moved.SetLambda(lambda); err != nil {
						t.Fatal(err)
					}
					if got := moved.Spec().Objective.Lambda; got != lambda {
						t.Errorf("Spec().Objective.Lambda = %g after SetLambda(%g)", got, lambda)
					}
					lm, err := moved.Gradient(c.b)
					if err != nil {
						t.Fatal(err)
					}
					lf, err := fresh.Gradient(c.b)
					if err != nil {
						t.Fatal(err)
					}
					if lm != lf {
						t.Errorf("λ = %g: loss %+v, a trainer built for it %+v", lambda, lm, lf)
					}
					if d := relDiff(moved.Grads(), fresh.Grads()); d != 0 {
						t.Errorf("λ = %g: gradients differ by %g", lambda, d)
					}
				}
			})
		}
	}
}

func TestSetLambdaRefusals(t *testing.T) {
	c := newSmallCase(1)
	cheb := condObjectives(0.5)[0]
	film := movedFiLM(rand.New(rand.NewPCG(1, 1)), 3, 0.3, false)
	build := func(obj scalarize.Objective, pen penalties.Penalty, film *model.FiLM) train.Trainer {
		t.Helper()
		tr, err := Engine{}.NewTrainer(condSpec(c, obj, pen, 0.2, film))
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	cases := []struct {
		name   string
		tr     train.Trainer
		lambda float64
		want   string
	}{
		{"risk", build(scalarize.Objective{Method: scalarize.Risk}, nil, nil), 0.5, `objective "risk" has no trade-off weight`},
		{"penalty", build(scalarize.Objective{Method: scalarize.Penalty}, penalties.ATOAll, nil), 0.5, `objective "penalty" has no trade-off weight`},
		{"sum", build(scalarize.Objective{Method: scalarize.Sum, Lambda: 2}, penalties.ATOAll, nil), 0.5, `objective "sum" has no trade-off weight`},
		{"negative", build(cheb, penalties.ATOAll, nil), -0.1, "-0.1 is outside [0, 1]"},
		{"above one", build(cheb, penalties.ATOAll, nil), 1.5, "1.5 is outside [0, 1]"},
		{"NaN", build(cheb, penalties.ATOAll, nil), math.NaN(), "NaN is outside [0, 1]"},
		{"conditioned above one", build(cheb, penalties.ATOOutput, film), 2, "2 is outside [0, 1]"},
		{"conditioned NaN", build(cheb, penalties.ATOOutput, film), math.NaN(), "NaN is outside [0, 1]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := tc.tr.(train.LambdaSetter)
			if !ok {
				t.Fatalf("%T is not a train.LambdaSetter", tc.tr)
			}
			before := tc.tr.Spec().Objective.Lambda
			err := s.SetLambda(tc.lambda)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if got := tc.tr.Spec().Objective.Lambda; got != before {
				t.Errorf("a refused SetLambda moved λ from %g to %g", before, got)
			}
		})
	}
}

// Predict and Network give the network at the current λ:
// model.Conditioned.At(λ) and its Forward, with and without the output
// layer modulated.
func TestConditionedPredictMatchesAt(t *testing.T) {
	for _, output := range []bool{false, true} {
		t.Run(fmt.Sprintf("output-%t", output), func(t *testing.T) { testConditionedPredictMatchesAt(t, output) })
	}
}

func testConditionedPredictMatchesAt(t *testing.T, output bool) {
	c := newSmallCase(9)
	rng := rand.New(rand.NewPCG(9, 9))
	tr, err := NewConditioned(condSpec(c, condObjectives(0.5)[0], penalties.ATOOutput, 0.2, movedFiLM(rng, 4, 0.4, output)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Gradient(c.b); err != nil {
		t.Fatal(err)
	}
	cond := tr.Conditioned()
	d := synth(rng, 30, smallDim)
	for _, lambda := range []float64{0, 1e-3, 0.4142, 1} {
		if err := tr.SetLambda(lambda); err != nil {
			t.Fatal(err)
		}
		if tr.Lambda() != lambda {
			t.Errorf("Lambda() = %g after SetLambda(%g)", tr.Lambda(), lambda)
		}
		at := cond.At(lambda)
		if d := relDiff(tr.Network().Tensors(), at.Tensors()); d != 0 {
			t.Errorf("λ = %g: Network() differs from Conditioned().At(λ) by %g", lambda, d)
		}
		for _, n := range []int{1, smallSize, 30} {
			got := make([]float64, n)
			if err := tr.Predict(d.X[:n*smallDim], n, got); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n)
			at.Forward(d.X[:n*smallDim], n, want)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("λ = %g, n = %d: logit %d = %.15g, At(λ).Forward %.15g", lambda, n, i, got[i], want[i])
				}
			}
		}
	}
	// The copy is a copy.
	cond.FiLM.W2[0] += 1
	cond.Net.W[0][0] += 1
	if again := tr.Conditioned(); again.FiLM.W2[0] == cond.FiLM.W2[0] || again.Net.W[0][0] == cond.Net.W[0][0] {
		t.Error("Conditioned() returned the trainer's own weights")
	}
}

// Params and Grads list the MLP's tensors, then the conditioning network's
// (model.Conditioned.Tensors order), and writing to Params reaches the graph.
func TestConditionedParamsOrder(t *testing.T) {
	c := newSmallCase(4)
	film := movedFiLM(rand.New(rand.NewPCG(4, 4)), 3, 0.3, false)
	tr, err := NewConditioned(condSpec(c, condObjectives(0.5)[1], penalties.ATOAll, 0.2, film))
	if err != nil {
		t.Fatal(err)
	}
	want := (&model.Conditioned{Net: c.p, FiLM: film}).Tensors()
	got := tr.Params()
	if len(got) != len(want) || len(tr.Grads()) != len(want) {
		t.Fatalf("%d parameter and %d gradient tensors, want %d", len(got), len(tr.Grads()), len(want))
	}
	if d := relDiff(got, want); d != 0 {
		t.Fatalf("Params() differ from model.Conditioned.Tensors() by %g", d)
	}
	l0, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	got[len(got)-1][0] += 0.5 // a δ of the first hidden layer
	l1, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if l1.Objective == l0.Objective {
		t.Error("writing to the conditioning network's Params did not change the next run")
	}
	if tr.Conditioned().FiLM.B2[0] != film.B2[0]+0.5 {
		t.Error("Conditioned() does not reflect the write")
	}
}

func TestNewConditionedErrors(t *testing.T) {
	c := newSmallCase(1)
	cheb := condObjectives(0.5)[0]
	film := movedFiLM(rand.New(rand.NewPCG(1, 1)), 3, 0.3, false)
	wrong := model.NewFiLM(model.Arch{Layers: 3, Hidden: 6}, 3, false, rand.New(rand.NewPCG(1, 1)))
	for _, tc := range []struct {
		name string
		new  func() error
		want string
	}{
		{"New with a conditioning network", func() error { _, err := New(condSpec(c, cheb, penalties.ATOAll, 0.2, film)); return err }, "build it with NewConditioned"},
		{"NewConditioned without one", func() error {
			_, err := NewConditioned(condSpec(c, cheb, penalties.ATOAll, 0.2, nil))
			return err
		}, "no conditioning network"},
		{"risk objective", func() error {
			_, err := NewConditioned(condSpec(c, scalarize.Objective{Method: scalarize.Risk}, nil, 0.2, film))
			return err
		}, "needs a scalarized objective"},
		{"wrong shape", func() error { _, err := NewConditioned(condSpec(c, cheb, penalties.ATOAll, 0.2, wrong)); return err }, "want width ≥ 1 and 2 layers of 5 units"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.new(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// The conditioned trainer's executor keeps its values between runs, with
// and without the fast paths (Gorgonia's slice gradient, left to itself,
// accumulates into a reused value), and follows bit for bit the trajectory
// of one that computes fresh values on every run, λ changing every step;
// the fast paths agree with Gorgonia's ops to rounding; with the penalty
// read before the modulation too, where two paths leave each unmodulated
// layer.
func TestConditionedReuseAndFastOps(t *testing.T) {
	for ai, arch := range []model.Arch{{Layers: 4, Hidden: 4}, {Layers: 3, Hidden: 9}, {Layers: 4, Hidden: 4}} {
		rng := rand.New(rand.NewPCG(1, 2))
		d := synth(rng, 200, 6)
		spec := train.Spec{Arch: arch, Dim: 6, BatchSize: 32, Dropout: 0.2, Init: model.Init(arch, 6, rng),
			Objective: condObjectives(0.3)[0], Penalty: penalties.ATOPenultimate,
			FiLM: model.NewFiLM(arch, model.DefaultFiLMWidth, false, rng)}
		if ai == 2 {
			spec.Penalty, spec.FiLMPenalty = penalties.ATOAll, train.PenaltyBeforeFiLM
		}
		var trs []*ConditionedTrainer
		for i := range 3 { // reused values, fresh values, Gorgonia's ops
			fastOps = i < 2
			tr, err := NewConditioned(spec)
			fastOps = true
			if err != nil {
				t.Fatal(err)
			}
			trs = append(trs, tr)
		}
		trs[1].trainM.freshValues()
		trs[1].evalM.freshValues()
		var adams []*optim.Adam
		for _, tr := range trs {
			a, err := optim.NewAdamFor(optim.DefaultAdam, tr.Params())
			if err != nil {
				t.Fatal(err)
			}
			adams = append(adams, a)
		}
		b := train.NewBatch(32, 6, arch.HiddenLayers(), arch.Hidden, allColumns...)
		for step := 0; step < 60; step++ {
			b.Fill(d, rng.Perm(200)[:1+rng.IntN(32)])
			for _, m := range b.Masks {
				model.FillMask(rng, m, 0.2)
			}
			lambda := rng.Float64()
			var ls []train.Loss
			for i, tr := range trs {
				if err := tr.SetLambda(lambda); err != nil {
					t.Fatal(err)
				}
				l, err := tr.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				ls = append(ls, l)
				adams[i].Step(tr.Params(), tr.Grads())
			}
			if ls[0] != ls[1] || relDiff(trs[0].Grads(), trs[1].Grads()) != 0 {
				t.Fatalf("%v step %d: %+v with reused values, %+v with fresh ones", arch, step, ls[0], ls[1])
			}
			if !nearly(ls[0].Objective, ls[2].Objective, 1e-10) || relDiff(trs[0].Grads(), trs[2].Grads()) > 1e-8 {
				t.Fatalf("%v step %d: %+v with fast paths, %+v without (gradients %g apart)", arch, step, ls[0], ls[2],
					relDiff(trs[0].Grads(), trs[2].Grads()))
			}
		}
		for i, tr := range []*ConditionedTrainer{trs[0], trs[2]} {
			if !tr.trainM.reuses() {
				t.Errorf("%v: trainer %d does not reuse its values", arch, i)
			}
		}
	}
}

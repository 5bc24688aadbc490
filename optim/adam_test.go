package optim

import (
	"math"
	"testing"
)

// Two Adam steps on θ = [1, −2] with gradients g₁ = [0.5, −3] and
// g₂ = [−0.2, 0], lr 0.1, β = (0.9, 0.999), ε = 1e-8, worked out by hand:
//
// Step 1: m = 0.1·g₁ = [0.05, −0.3], v = 0.001·g₁² = [0.00025, 0.009].
// Bias corrections 1−0.9 = 0.1 and √(1−0.999) make m̂ = g₁ and √v̂ = |g₁|, so
// each entry moves by lr·g/(|g|+ε):
//
//	θ₁ = 1 − 0.1·0.5/0.50000001 = 0.900000002
//	θ₂ = −2 + 0.1·3/3.00000001 = −1.90000000033333…
//
// Step 2: m = 0.9·m + 0.1·g₂ = [0.025, −0.27], v = 0.999·v + 0.001·g₂² =
// [0.00028975, 0.008991]; m̂ = m/0.19, v̂ = v/0.001999:
//
//	θ₁ = 0.900000002 − 0.1·(0.025/0.19)/√(0.00028975/0.001999) = 0.900000002 − 0.03456058…  = 0.86543941…
//	θ₂ = −1.9000000003… − 0.1·(−0.27/0.19)/√(0.008991/0.001999) = −1.9000000003… + 0.06700582… = −1.83299417…
//
// (the second entry moves although its gradient is 0: momentum).
func TestAdamTwoSteps(t *testing.T) {
	a, err := NewAdam(AdamConfig{LR: 0.1, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	p := [][]float64{{1, -2}}
	a.Step(p, [][]float64{{0.5, -3}})
	want1 := []float64{0.900000002, -1.9000000003333333}
	for i := range p[0] {
		if math.Abs(p[0][i]-want1[i]) > 1e-15 {
			t.Errorf("θ[%d] after one step = %.17g, want %.17g", i, p[0][i], want1[i])
		}
	}
	a.Step(p, [][]float64{{-0.2, 0}})
	want2 := []float64{0.8654394181165108, -1.832994175235627}
	for i := range p[0] {
		if math.Abs(p[0][i]-want2[i]) > 1e-15 {
			t.Errorf("θ[%d] after two steps = %.17g, want %.17g", i, p[0][i], want2[i])
		}
	}
	if a.Steps() != 2 {
		t.Errorf("Steps() = %d, want 2", a.Steps())
	}
}

func TestAdamFirstStep(t *testing.T) {
	a, err := NewAdam(AdamConfig{LR: 0.1, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	p := [][]float64{{1, -2}, {5}}
	a.Step(p, [][]float64{{0.5, -3}, {0}})
	want := [][]float64{{0.900000002, -1.9000000003333333}, {5}} // a zero gradient does not move θ on step 1
	for k := range p {
		for i := range p[k] {
			if math.Abs(p[k][i]-want[k][i]) > 1e-15 {
				t.Errorf("θ[%d][%d] = %.17g, want %.17g", k, i, p[k][i], want[k][i])
			}
		}
	}
}

// SetLR changes the step size only; moments and the step count are kept.
func TestAdamSetLRKeepsMoments(t *testing.T) {
	cfg := AdamConfig{LR: 0.1, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	a, _ := NewAdam(cfg, []int{1})
	b, _ := NewAdam(cfg, []int{1})
	pa, pb := [][]float64{{1}}, [][]float64{{1}}
	a.Step(pa, [][]float64{{0.5}})
	b.Step(pb, [][]float64{{0.5}})
	b.SetLR(0.05)
	if b.LR() != 0.05 || a.LR() != 0.1 {
		t.Fatalf("LR() = %v, %v", a.LR(), b.LR())
	}
	before := pa[0][0]
	a.Step(pa, [][]float64{{-0.2}})
	b.Step(pb, [][]float64{{-0.2}})
	da, db := pa[0][0]-before, pb[0][0]-before
	if math.Abs(db-da/2) > 1e-16 {
		t.Errorf("step with half the rate moved %v, want half of %v", db, da)
	}
}

func TestNewAdamRejectsBadConfig(t *testing.T) {
	for _, c := range []AdamConfig{
		{},
		{LR: -1, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8},
		{LR: 1e-3, Beta1: 1, Beta2: 0.999, Eps: 1e-8},
		{LR: 1e-3, Beta1: 0.9, Beta2: -0.1, Eps: 1e-8},
		{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 0},
		{LR: math.NaN(), Beta1: 0.9, Beta2: 0.999, Eps: 1e-8},
	} {
		if _, err := NewAdam(c, []int{1}); err == nil {
			t.Errorf("NewAdam(%+v) accepted", c)
		}
	}
	if _, err := NewAdam(DefaultAdam, []int{3, 4}); err != nil {
		t.Errorf("DefaultAdam: %v", err)
	}
}

// Step allocates nothing.
func TestAdamStepDoesNotAllocate(t *testing.T) {
	a, _ := NewAdam(DefaultAdam, []int{100, 10})
	p := [][]float64{make([]float64, 100), make([]float64, 10)}
	g := [][]float64{make([]float64, 100), make([]float64, 10)}
	if n := testing.AllocsPerRun(100, func() { a.Step(p, g) }); n != 0 {
		t.Errorf("Step allocates %v times", n)
	}
}

// A restored state continues exactly as the optimizer it was taken from.
func TestAdamStateRestores(t *testing.T) {
	p1 := [][]float64{{1, -2}, {0.5}}
	p2 := [][]float64{{1, -2}, {0.5}}
	g := [][]float64{{0.3, -0.1}, {2}}
	a, _ := NewAdamFor(DefaultAdam, p1)
	a.Step(p1, g)
	a.SetLR(5e-4)
	b, _ := NewAdamFor(DefaultAdam, p2)
	if err := b.Restore(a.State()); err != nil {
		t.Fatal(err)
	}
	copy(p2[0], p1[0])
	copy(p2[1], p1[1])
	a.Step(p1, g)
	b.Step(p2, g)
	for i := range p1 {
		for j := range p1[i] {
			if p1[i][j] != p2[i][j] {
				t.Errorf("tensor %d [%d]: %v after restore, want %v", i, j, p2[i][j], p1[i][j])
			}
		}
	}
	if b.Steps() != 2 || b.LR() != 5e-4 {
		t.Errorf("restored: %d steps at lr %g, want 2 at 5e-4", b.Steps(), b.LR())
	}
	if err := b.Restore(AdamState{M: [][]float64{{1}}, V: [][]float64{{1}}}); err == nil {
		t.Error("a state of the wrong shape was accepted")
	}
}

package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
)

// The sweep's penalty decides at the sweep's threshold: dp-rate and eo-rate
// (two and three groups) carry Config.Threshold, fairness.DefaultThreshold
// when it is 0, and their U on a network's rows is the smoothed gap at that
// threshold computed from the network's logits; at 0.3 it differs from the
// one at the default.
func TestRatePenaltyReadsTheThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n, dim = 300, 3
	arch := model.Arch{Layers: 2, Hidden: 4}
	for _, groups := range []int{2, 3} {
		d := train.Data{N: n, Dim: dim, X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
		if groups > 2 {
			d.Groups = groups
		}
		for i := range n {
			for j := range dim {
				d.X[i*dim+j] = rng.NormFloat64()
			}
			d.Y[i], d.A[i], d.W[i] = float64(i%2), float64((i/2)%groups), 1
		}
		net := model.Init(arch, dim, rng)
		z := make([]float64, n)
		net.Forward(d.X, n, z)
		for _, name := range []string{penalties.NameDPRate, penalties.NameEORate} {
			us := map[float64]float64{}
			for _, stored := range []float64{0, 0.3} {
				c := DefaultConfig()
				c.Penalty, c.Threshold, c.groups = name, stored, groups
				p, err := c.penalty()
				if err != nil {
					t.Fatal(err)
				}
				want := fairness.ThresholdOr(stored)
				th, _, _ := p.(backprop.RatePenalty).SelectionRate()
				if th != want || train.TermGroups(p) != groups && groups > 2 {
					t.Errorf("%s, %d groups, threshold %g: penalty at %g with %d groups", name, groups, stored, th, train.TermGroups(p))
				}
				ev, err := train.NewEvaluator(backprop.Engine{}, train.Spec{Arch: arch, Dim: dim, BatchSize: n,
					Init: net, Penalty: p.(penalties.Penalty)}, n)
				if err != nil {
					t.Fatal(err)
				}
				l, err := ev.Loss(net.Tensors(), d)
				if err != nil {
					t.Fatal(err)
				}
				w := smoothedGap(name == penalties.NameEORate, z, d.Y, d.A, groups, want)
				if !(w > 0) || math.Abs(l.U-w) > 1e-12 {
					t.Errorf("%s, %d groups, threshold %g: U = %.15g, want %.15g", name, groups, want, l.U, w)
				}
				us[want] = l.U
			}
			if math.Abs(us[0.3]-us[fairness.DefaultThreshold]) < 1e-3 {
				t.Errorf("%s, %d groups: U = %g at 0.3 and %g at the default: the threshold is not read", name, groups, us[0.3], us[0.5])
			}
		}
	}
}

// smoothedGap is dp-rate (cond false) or eo-rate at threshold th, written
// from its definition: the largest gap over the groups of the mean of
// σ((z − logit th)/T), within each label for eo-rate.
func smoothedGap(cond bool, z, y, a []float64, groups int, th float64) float64 {
	gap := func(label float64) float64 {
		sum, cnt := make([]float64, groups), make([]float64, groups)
		for i, v := range z {
			if cond && y[i] != label {
				continue
			}
			sum[int(a[i])] += 1 / (1 + math.Exp(-(v-math.Log(th/(1-th)))/penalties.RateTemperature))
			cnt[int(a[i])]++
		}
		hi, lo := math.Inf(-1), math.Inf(1)
		for r := range sum {
			if cnt[r] == 0 {
				panic(fmt.Sprintf("group %d has no rows", r))
			}
			hi, lo = max(hi, sum[r]/cnt[r]), min(lo, sum[r]/cnt[r])
		}
		return hi - lo
	}
	if !cond {
		return gap(0)
	}
	return max(gap(0), gap(1))
}

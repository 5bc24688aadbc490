package penalties_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/penalties"
)

// ratePenalty returns dp-rate (cond false) or eo-rate at threshold t for
// groups groups (its R-group form for more than 2).
func ratePenalty(t *testing.T, cond bool, threshold float64, groups int) penalties.Penalty {
	t.Helper()
	mk := penalties.DPRate
	if cond {
		mk = penalties.EORate
	}
	p, err := mk(threshold)
	if err != nil {
		t.Fatal(err)
	}
	return forGroups(t, p, groups)
}

// rateGap is the largest difference over the groups of the mean smoothed
// selection σ((z − logit t)/temp) of the rows keep, written from the
// definition (0 when a group has no such row).
func rateGap(z, a []float64, groups int, threshold, temp float64, keep func(i int) bool) float64 {
	s := make([]float64, len(z))
	for i, v := range z {
		s[i] = sigmoid((v - math.Log(threshold/(1-threshold))) / temp)
	}
	return gap(s, a, groups, keep)
}

// wantRate is the value of dp-rate (cond false) or eo-rate on the rows.
func wantRate(cond bool, z, y, a []float64, groups int, threshold, temp float64) float64 {
	if !cond {
		return rateGap(z, a, groups, threshold, temp, func(int) bool { return true })
	}
	label := func(k float64) func(int) bool { return func(i int) bool { return y[i] == k } }
	return max(rateGap(z, a, groups, threshold, temp, label(0)), rateGap(z, a, groups, threshold, temp, label(1)))
}

// The values of dp-rate and eo-rate against the smoothed gaps written from
// their definition, for 2 and 3 groups and thresholds 0.5 and 0.3, on
// batches with padding rows. Logits within a few temperatures of the
// threshold make every row count partly.
func TestRatePenaltiesValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, groups := range []int{2, 3} {
		for _, threshold := range []float64{0.5, 0.3} {
			for _, cond := range []bool{false, true} {
				p := ratePenalty(t, cond, threshold, groups)
				t.Run(fmt.Sprintf("%s/R%d/t%g", p.Name(), groups, threshold), func(t *testing.T) {
					y, a, z := randomRows(rng, 17, groups)
					for i := range z {
						z[i] = math.Log(threshold/(1-threshold)) + z[i]/10
					}
					b := parityBatch(20, y, a, groups, p)
					u, _ := outRun(t, p, append(z, 0.2, -3, 9), b)
					w := wantRate(cond, z, y, a, groups, threshold, penalties.RateTemperature)
					if !(w > 0) || math.Abs(u-w) > 1e-12 {
						t.Errorf("U = %.15g, want %.15g", u, w)
					}
				})
			}
		}
	}
}

// Central finite differences of dp-rate and eo-rate with respect to the
// logits, for 2 and 3 groups, on batches with padding rows (which get no
// gradient).
func TestRatePenaltiesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, groups := range []int{2, 3} {
		for _, threshold := range []float64{0.5, 0.3} {
			for _, cond := range []bool{false, true} {
				p := ratePenalty(t, cond, threshold, groups)
				t.Run(fmt.Sprintf("%s/R%d/t%g", p.Name(), groups, threshold), func(t *testing.T) {
					y, a, z := randomRows(rng, 14, groups)
					for i := range z {
						z[i] = math.Log(threshold/(1-threshold)) + z[i]/10
					}
					z = append(z, 0.05, -0.04)
					b := parityBatch(16, y, a, groups, p)
					_, dz := outRun(t, p, z, b)
					const step = 1e-7
					var diff, ref float64
					for i := range z {
						old := z[i]
						z[i] = old + step
						up, _ := outRun(t, p, z, b)
						z[i] = old - step
						down, _ := outRun(t, p, z, b)
						z[i] = old
						num := (up - down) / (2 * step)
						diff += (dz[i] - num) * (dz[i] - num)
						ref += num * num
						if i >= 14 && dz[i] != 0 {
							t.Errorf("padding row %d has gradient %g", i, dz[i])
						}
					}
					if ref == 0 {
						t.Fatal("numeric gradient is zero")
					}
					if e := math.Sqrt(diff / ref); e > 1e-6 {
						t.Errorf("‖analytic − numeric‖/‖numeric‖ = %.3g", e)
					}
				})
			}
		}
	}
}

// As the temperature goes to 0, dp-rate and eo-rate are the dp_diff and
// eo_diff of fairness.DecideScores on the batch's probabilities at the
// same threshold; at RateTemperature on logits at least 0.5 from the
// threshold's they are within 1% of them.
func TestRateLimitIsTheDecisionMetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, groups := range []int{2, 3} {
		for _, threshold := range []float64{0.5, 0.3} {
			y, a, z := randomRows(rng, 60, groups)
			shift := math.Log(threshold / (1 - threshold))
			for i := range z {
				z[i] += shift
			}
			s, codes := make([]float64, len(z)), make([]int, len(z))
			for i, v := range z {
				s[i], codes[i] = sigmoid(v), int(a[i])
			}
			d, err := fairness.DecideScores(s, y, codes, threshold)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				cond bool
				want float64
			}{{false, d.DPDiff}, {true, d.EODiff}} {
				p := ratePenalty(t, c.cond, threshold, groups)
				b := parityBatch(60, y, a, groups, p)
				var errs []float64
				for _, temp := range []float64{1e-1, 1e-2, 1e-4} {
					u, _ := outRun(t, penalties.AtTemperature(p, temp), z, b)
					errs = append(errs, math.Abs(u-c.want))
				}
				if !(errs[2] < 1e-9 && errs[2] <= errs[1] && errs[1] <= errs[0]) || !(c.want > 0) {
					t.Errorf("%s, %d groups, t = %g: |U − metric| at T = 1e-1, 1e-2, 1e-4: %v (metric %g)", p.Name(), groups, threshold, errs, c.want)
				}
			}
			// The same rows pushed at least 0.5 in logit away from the
			// threshold, at the chosen temperature.
			for i, v := range z {
				if d := v - shift; math.Abs(d) < 0.5 {
					z[i] = shift + math.Copysign(0.5, d)
				}
			}
			for _, cond := range []bool{false, true} {
				p := ratePenalty(t, cond, threshold, groups)
				u, _ := outRun(t, p, z, parityBatch(60, y, a, groups, p))
				want := d.DPDiff
				if cond {
					want = d.EODiff
				}
				if math.Abs(u-want) > 0.01 {
					t.Errorf("%s, %d groups, t = %g, at T = %g on logits 0.5 from the threshold: %g, metric %g",
						p.Name(), groups, threshold, penalties.RateTemperature, u, want)
				}
			}
		}
	}
}

// A label subset that lacks one of the groups contributes 0 with a zero
// gradient: eo-rate is then its y = 0 part alone; a batch of one group
// gives 0 everywhere.
func TestRatePenaltiesMissingGroup(t *testing.T) {
	y := []float64{0, 0, 0, 0, 1, 1}
	a := []float64{0, 1, 0, 1, 1, 1}
	z := []float64{0.03, -0.12, 0.2, 0.05, -0.07, 0.11, 0}
	eo := ratePenalty(t, true, 0.5, 2)
	want := rateGap(z[:6], a, 2, 0.5, penalties.RateTemperature, func(i int) bool { return y[i] == 0 })
	u, dz := outRun(t, eo, z, parityBatch(7, y, a, 2, eo))
	if !(want > 0) || math.Abs(u-want) > 1e-12 {
		t.Errorf("eo-rate: U = %g, want the y = 0 part %g", u, want)
	}
	for _, i := range []int{4, 5, 6} {
		if dz[i] != 0 {
			t.Errorf("eo-rate: row %d (y = 1 or padding) has gradient %g", i, dz[i])
		}
	}
	one := []float64{1, 1, 1, 1, 1, 1}
	for _, cond := range []bool{false, true} {
		p := ratePenalty(t, cond, 0.5, 2)
		u, dz := outRun(t, p, z, parityBatch(7, y, one, 2, p))
		for _, v := range append(dz, u) {
			if v != 0 {
				t.Errorf("%s on one group: U = %g, dU/dz = %v; want zeros", p.Name(), u, dz)
				break
			}
		}
	}
}

// Builtin gives dp-rate and eo-rate at fairness.DefaultThreshold, BuiltinAt
// at the threshold asked for, and a threshold outside (0, 1) is refused
// with its value named.
func TestRatePenaltiesThreshold(t *testing.T) {
	y, a, z := randomRows(rand.New(rand.NewPCG(17, 18)), 12, 2)
	for _, name := range []string{penalties.NameDPRate, penalties.NameEORate} {
		cond := name == penalties.NameEORate
		for _, c := range []struct {
			get  func() (penalties.Penalty, error)
			want float64
		}{
			{func() (penalties.Penalty, error) { return penalties.Builtin(name) }, fairness.DefaultThreshold},
			{func() (penalties.Penalty, error) { return penalties.BuiltinAt(name, 0.3) }, 0.3},
		} {
			p, err := c.get()
			if err != nil {
				t.Fatal(err)
			}
			zz := make([]float64, len(z))
			for i, v := range z {
				zz[i] = math.Log(c.want/(1-c.want)) + v/10
			}
			u, _ := outRun(t, p, zz, parityBatch(12, y, a, 2, p))
			if w := wantRate(cond, zz, y, a, 2, c.want, penalties.RateTemperature); p.Name() != name || !(w > 0) || math.Abs(u-w) > 1e-12 {
				t.Errorf("%s at %g: U = %g, want %g", p.Name(), c.want, u, w)
			}
		}
		for _, bad := range []float64{0, 1, -0.2, math.NaN()} {
			if _, err := penalties.BuiltinAt(name, bad); err == nil || !strings.Contains(err.Error(), fmt.Sprint(bad)) {
				t.Errorf("%s at threshold %v: error %v, want one naming the threshold", name, bad, err)
			}
		}
	}
}

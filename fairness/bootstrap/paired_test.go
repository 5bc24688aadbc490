package bootstrap

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Multiplicities in the given order of the rows, mapped by ScoreOrder,
// give the metrics of the rows repeated that often in the given order:
// what a paired resample needs, since two networks sort the rows
// differently.
func TestScoreOrderIsTheGivenRowsRepeated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	z, y, a, e := synthetic(300, rng)
	// A second network that ranks the rows differently from the first.
	z2 := make([]float64, len(z))
	for i, v := range z {
		z2[i] = math.Round((-0.7*v+0.3*rng.NormFloat64())*1000) / 1000
	}
	for _, scores := range [][]float64{z, z2} {
		s, err := binaryLogits(scores, y, a, e)
		if err != nil {
			t.Fatal(err)
		}
		m, ms := make([]float64, s.Len()), make([]float64, s.Len())
		for range 3 {
			s.Draw(rng, m)
			s.ScoreOrder(m, ms)
			var ez, ey, ea, ee []float64
			for i, mi := range m {
				for range int(mi) {
					ez, ey, ea, ee = append(ez, scores[i]), append(ey, y[i]), append(ea, a[i]), append(ee, e[i])
				}
			}
			want, err := evalBinaryLogits(ez, ey, ea, ee)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.Metrics(ms)
			if !ok {
				t.Fatal("ok = false")
			}
			// Accuracy is the sample's at its threshold, 0.5 here, as
			// fairness.EvaluateLogits takes it.
			sameMetrics(t, "resample in the given order", got, want, 1e-9)
		}
	}
}

func TestDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	z, y, a, e := synthetic(2000, rng)
	// b: the same network's scores moved a little towards the label, so
	// that its risk is lower on nearly every row by a small amount: the
	// two networks' metrics vary together from resample to resample.
	zb := make([]float64, len(z))
	for i, v := range z {
		zb[i] = v + 0.05*(2*y[i]-1)
	}
	sa, err := binaryLogits(z, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := binaryLogits(zb, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	ia, err := sa.Intervals(500, 0.95, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := sb.Intervals(500, 0.95, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// The two risk intervals overlap: separately, the networks cannot be
	// told apart in risk.
	if !(ia.Risk.Lo <= ib.Risk.Hi && ib.Risk.Lo <= ia.Risk.Hi) {
		t.Fatalf("risk intervals %v and %v do not overlap: the case does not test pairing", ia.Risk, ib.Risk)
	}
	d, err := Differences(sa, sb, 500, 0.95, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	ma, _ := sa.Metrics(ones(sa.Len()))
	mb, _ := sb.Metrics(ones(sb.Len()))
	// Paired, the difference of their risks excludes 0 and holds the
	// observed difference.
	if !(d.Risk.Hi < 0) || !d.Risk.Contains(mb.Risk-ma.Risk) {
		t.Errorf("paired risk difference %v, observed %g: want an interval below 0 that holds it", d.Risk, mb.Risk-ma.Risk)
	}
	if !d.HasATO || d.Valid != 500 || d.Resamples != 500 {
		t.Errorf("HasATO %v, %d valid of %d", d.HasATO, d.Valid, d.Resamples)
	}
	// A network against itself: every difference is exactly 0.
	self, err := Differences(sa, sa, 200, 0.95, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	for name, iv := range map[string]Interval{"risk": self.Risk, "accuracy": self.Accuracy, "ato": self.ATO, "dp": self.DP,
		"eo": self.EO, "eopp": self.EOpp, "dp_diff": self.DPDiff, "dp_ratio": self.DPRatio, "eo_diff": self.EODiff, "eopp_diff": self.EOppDiff} {
		if iv.Lo != 0 || iv.Hi != 0 {
			t.Errorf("a network against itself: %s difference %v, want [0, 0]", name, iv)
		}
	}
	// The same seed gives the same intervals.
	again, _ := Differences(sa, sb, 500, 0.95, rand.New(rand.NewPCG(3, 3)))
	if again != d {
		t.Errorf("the same seed gave %+v, then %+v", d, again)
	}
}

func TestDifferencesRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	z, y, a, e := synthetic(200, rng)
	s, _ := binaryLogits(z, y, a, e)
	// Other rows: the labels differ.
	y2 := append([]float64(nil), y...)
	y2[17] = 1 - y2[17]
	other, _ := binaryLogits(z, y2, a, e)
	short, _ := binaryLogits(z[:150], y[:150], a[:150], e[:150])
	noATO, _ := binaryLogits(z, y, a, nil)
	cases := []struct {
		name      string
		b         *Sample
		resamples int
		level     float64
		want      string
	}{
		{"other labels", other, 100, 0.95, "not of the same rows"},
		{"fewer rows", short, 100, 0.95, "200 rows"},
		{"one resample", s, 1, 0.95, "resamples"},
		{"level 1", s, 100, 1, "level"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Differences(s, tc.b, tc.resamples, tc.level, rng)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
	// Without a propensity on one side there is no ATO difference; the
	// others are given.
	d, err := Differences(s, noATO, 100, 0.95, rng)
	if err != nil || d.HasATO || !math.IsNaN(d.ATO.Lo) || math.IsNaN(d.DP.Lo) {
		t.Errorf("one side without a propensity: %+v, %v", d, err)
	}
}

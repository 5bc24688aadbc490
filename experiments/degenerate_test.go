package experiments_test

import (
	"math"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/runfolder"
)

// TestRecordsCarryNearConstantAndConstRisk checks near_constant against the
// spread of each candidate's test predictions and const_risk against the
// log-loss, on the test rows, of the constant predictor at the base rate of
// the split's training rows, computed here from the rows themselves.
func TestRecordsCarryNearConstantAndConstRisk(t *testing.T) {
	adv := smallConfig()
	adv.Method, adv.Penalty, adv.Engine = experiments.MethodAdversarial, "", "graph"
	adv.AdvEpochs, adv.AdvPretrainClf, adv.AdvPretrainAdv = 2, 1, 1
	for _, c := range []experiments.Config{smallConfig(), adv} {
		t.Run(c.Method, func(t *testing.T) {
			dir := t.TempDir()
			recs := experimentstest.Train(t, c, dir)
			cfg, err := experiments.ReadConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			data, err := experiments.LoadDataset(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i := range recs {
				rec := &recs[i]
				p, err := runfolder.LoadPredictions(dir, rec)
				if err != nil {
					t.Fatal(err)
				}
				var s, ss float64
				for _, v := range p.P {
					s += v
					ss += v * v
				}
				n := float64(len(p.P))
				sd := math.Sqrt(math.Max(0, ss/n-(s/n)*(s/n)))
				if (sd < 1e-3) != rec.NearConstant || (sd < 1e-6) != rec.Collapsed {
					t.Errorf("%s: score sd %g, near_constant %v, collapsed %v", rec.Key(), sd, rec.NearConstant, rec.Collapsed)
				}
				sp, err := experiments.SplitOf(cfg, data, rec.Split)
				if err != nil {
					t.Fatal(err)
				}
				var pos float64
				for _, i := range sp.Train {
					pos += data.Y[i]
				}
				base := pos / float64(len(sp.Train))
				var want float64
				for _, i := range sp.Test {
					y := data.Y[i]
					want -= y*math.Log(base) + (1-y)*math.Log(1-base)
				}
				want /= float64(len(sp.Test))
				if rec.ConstRisk == nil || math.Abs(*rec.ConstRisk-want) > 1e-12 {
					t.Errorf("%s: const_risk %v, want %g (training base rate %g)", rec.Key(), rec.ConstRisk, want, base)
				}
				if got := rec.NoBetterThanConstant(); got != (rec.Risk >= want) {
					t.Errorf("%s: risk %g against constant %g: no better than constant = %v", rec.Key(), rec.Risk, want, got)
				}
			}
		})
	}
}

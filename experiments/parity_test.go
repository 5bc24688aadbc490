package experiments_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
)

// checkParitySweep runs c into a fresh folder and checks its records: one
// per λ of "0,0.5,1", all ok, naming the penalty, with finite training
// R and U, and the λ = 1 network (trained on U alone) with a lower training
// U than the λ = 0 one (trained on R alone).
func checkParitySweep(t *testing.T, c experiments.Config) []records.Record {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	if err := runSweep(c, out); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	u := map[float64]float64{}
	for _, rec := range recs {
		if !rec.OK() {
			t.Fatalf("λ = %g: %s", rec.Lambda, rec.FailReason)
		}
		if rec.Penalty != c.Penalty || rec.Engine != c.Engine {
			t.Errorf("λ = %g: penalty %q, engine %q; want %q, %q", rec.Lambda, rec.Penalty, rec.Engine, c.Penalty, c.Engine)
		}
		if math.IsNaN(rec.TrainU) || math.IsInf(rec.TrainU, 0) || !(rec.TrainR > 0) {
			t.Errorf("λ = %g: train_r %v, train_u %v", rec.Lambda, rec.TrainR, rec.TrainU)
		}
		u[rec.Lambda] = rec.TrainU
	}
	if !(u[1] < u[0]) {
		t.Errorf("train_u %v at λ = 1, %v at λ = 0: training on U did not lower it", u[1], u[0])
	}
	return recs
}

// Short sweeps on the embedded COMPAS data with each new penalty, on both
// engines, in lockstep and one network after another, under cheb, linear
// and cheb-aug.
func TestParityPenaltySweepsCOMPAS(t *testing.T) {
	for _, tc := range []struct {
		penalty, engine, method string
		lockstep                bool
	}{
		{"dp-mean", "backprop", experiments.MethodCheb, true},
		{"eo-mean", "backprop", experiments.MethodLinear, false},
		{"dp-mv", "graph", experiments.MethodCheb, false},
		{"eo-mv", "backprop", experiments.MethodChebAug, true},
		{"dp-mv", "backprop", experiments.MethodCheb, false},
		{"eo-mean", "graph", experiments.MethodChebAug, false},
		{"dp-rate", "backprop", experiments.MethodCheb, true},
		{"eo-rate", "graph", experiments.MethodCheb, false},
		{"eo-rate", "backprop", experiments.MethodLinear, true},
	} {
		name := fmt.Sprintf("%s/%s/%s/lockstep-%v", tc.penalty, tc.engine, tc.method, tc.lockstep)
		t.Run(name, func(t *testing.T) {
			c := experiments.DefaultConfig()
			c.Dataset, c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas, c.Workers = "compas", 1, 3, 3, "0,0.5,1", 2
			c.Penalty, c.Engine, c.Method, c.Lockstep = tc.penalty, tc.engine, tc.method, tc.lockstep
			if tc.method == experiments.MethodChebAug {
				c.Rho = 0.01
			}
			checkParitySweep(t, c)
		})
	}
}

// A CSV with an identifier column to leave out and a sensitive column of
// three groups (--sensitive-levels all) trains the R-group forms on both
// engines; the records name the three levels.
func TestParityPenaltySweepsCSVGroups(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,x1,x2,y,g\n")
	for i := range 900 {
		g := i % 3
		// x1 carries the group and the label; the network can lean on it or not.
		y := (i / 3) % 2
		x1 := float64(g) + 0.8*float64(y) + 0.3*math.Sin(float64(i))
		x2 := math.Cos(float64(7 * i))
		fmt.Fprintf(&b, "%d,%.4f,%.4f,%d,%s\n", 1000+i, x1, x2, y, []string{"north", "south", "west"}[g])
	}
	csv := filepath.Join(t.TempDir(), "three.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ penalty, engine string }{
		{"dp-mean", "graph"}, {"eo-mean", "backprop"}, {"dp-mv", "backprop"}, {"eo-mv", "graph"},
		{"dp-rate", "backprop"}, {"eo-rate", "graph"},
	} {
		t.Run(tc.penalty+"/"+tc.engine, func(t *testing.T) {
			c := experiments.DefaultConfig()
			c.Dataset, c.CSV, c.Target, c.Sensitive, c.Exclude = "", csv, "y", "g", []string{"id"}
			c.SensitiveLevels = []string{"all"}
			c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas, c.Workers = 1, 4, 3, "0,0.5,1", 2
			c.Penalty, c.Engine = tc.penalty, tc.engine
			for _, rec := range checkParitySweep(t, c) {
				if rec.Sensitive != "g[north|south|west]" || len(rec.GroupCounts) != 3 {
					t.Errorf("λ = %g: sensitive %q, group counts %v", rec.Lambda, rec.Sensitive, rec.GroupCounts)
				}
			}
		})
	}
}

// A λ-conditioned network trains with a penalty on the probability; where
// it would read hidden layers before the modulation it is refused in one
// line, as for ato-output.
func TestParityPenaltyConditioned(t *testing.T) {
	for _, pen := range []string{"eo-mv", "dp-rate"} {
		c := conditionedConfig()
		c.Splits, c.Lambdas, c.Epochs, c.EvalLambdas, c.Penalty = 1, "0,0.5,1", 3, "", pen
		out := filepath.Join(t.TempDir(), "run")
		if err := runSweep(c, out); err != nil {
			t.Fatal(err)
		}
		for _, rec := range readRecords(t, out) {
			if !rec.OK() || rec.Penalty != pen {
				t.Errorf("%s, λ = %g: ok %v (%s), penalty %q", pen, rec.Lambda, rec.OK(), rec.FailReason, rec.Penalty)
			}
		}
		c.Engine, c.FiLMPenalty = "graph", "before"
		err := c.Validate()
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), pen+" reads the predicted probability") {
			t.Errorf("--film-penalty before with %s: %v", pen, err)
		}
	}
}

// A sweep at a threshold other than the default trains dp-rate at it: the
// λ = 0 network, trained on R alone, is the same as at the default, while
// its train_u, the penalty at the sweep's threshold, differs.
func TestRatePenaltySweepThresholdCOMPAS(t *testing.T) {
	byThreshold := map[float64]records.Record{}
	for _, th := range []float64{0, 0.3} {
		c := experiments.DefaultConfig()
		c.Dataset, c.Splits, c.Epochs, c.PropensityEpochs, c.Lambdas, c.Workers = "compas", 1, 3, 3, "0,0.5,1", 2
		c.Penalty, c.Engine, c.Lockstep, c.Threshold = "dp-rate", "backprop", true, th
		for _, rec := range checkParitySweep(t, c) {
			if rec.Lambda == 0 {
				byThreshold[th] = rec
			}
		}
	}
	d, e := byThreshold[0], byThreshold[0.3]
	if d.TrainR != e.TrainR || d.Risk != e.Risk {
		t.Fatalf("λ = 0: train_r %v at the default, %v at 0.3: the networks differ", d.TrainR, e.TrainR)
	}
	if math.Abs(d.TrainU-e.TrainU) < 1e-3 {
		t.Errorf("λ = 0: train_u %v at the default, %v at 0.3: the penalty does not read the threshold", d.TrainU, e.TrainU)
	}
}

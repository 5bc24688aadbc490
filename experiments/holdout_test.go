package experiments_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/records"
)

// writeSignalCSV writes n rows of 60 numeric features x0 … x59, of which
// x0 … x9 carry the signal of a logistic model of y and the rest are noise,
// with a sensitive attribute a independent of them. It returns y's base rate.
func writeSignalCSV(t *testing.T, path string, n int, seed uint64) float64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for j := range 60 {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("a,y\n")
	pos := 0
	for range n {
		var z float64
		for j := range 60 {
			v := rng.NormFloat64()
			if j < 10 {
				z += 0.8 * v
			}
			fmt.Fprintf(&b, "%.5f,", v)
		}
		a := 0
		if rng.Float64() < 0.4 {
			a = 1
		}
		y := 0
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			y = 1
		}
		pos += y
		fmt.Fprintf(&b, "%d,%d\n", a, y)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return float64(pos) / float64(n)
}

// lambda0Risk runs a sweep of λ ∈ {0, 1} on the CSV with the given
// validation share and returns the λ = 0 record.
func lambda0Record(t *testing.T, csv string, val float64) records.Record {
	t.Helper()
	c := experiments.DefaultConfig()
	c.Dataset, c.CSV, c.Target, c.Sensitive = "", csv, "y", "a"
	c.Splits, c.Lambdas, c.Engine, c.PropensityEpochs = 1, "0,1", "backprop", 20
	c.ValFraction = val
	dir := t.TempDir()
	experimentstest.Run(t, c, dir)
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.Lambda == 0 {
			return rec
		}
	}
	t.Fatal("no λ = 0 record")
	return records.Record{}
}

// With 60 features of which 50 are noise and 500 training rows, 500 epochs
// on the whole training split overfit: the λ = 0 network's test log-loss
// exceeds that of the constant predictor at the base rate. The default for
// a CSV keeps a validation part and restores the best epoch, which does not.
func TestHeldOutStoppingPreventsOverfitting(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 4 networks for 500 epochs; run without -short")
	}
	csv := filepath.Join(t.TempDir(), "signal.csv")
	p := writeSignalCSV(t, csv, 1000, 7)
	// The split is stratified by y, so the training base rate is p up to
	// one row; the constant predictor's test log-loss is the entropy at p.
	constant := -(p*math.Log(p) + (1-p)*math.Log(1-p))

	full := lambda0Record(t, csv, 0)
	stopped := lambda0Record(t, csv, experiments.ValFractionAuto)
	t.Logf("constant predictor %.4f; 500 epochs on the whole split %.4f (train R %.4f); held-out stopping %.4f (train R %.4f, validation R %.4f, epoch %d)",
		constant, full.Risk, full.TrainR, stopped.Risk, stopped.TrainR, deref(stopped.ValR), stopped.KeptEpoch)
	if !(full.Risk > constant) {
		t.Errorf("without a validation part the λ = 0 test log-loss is %.4f, not above the constant predictor's %.4f: the setting does not overfit", full.Risk, constant)
	}
	if !(stopped.Risk < constant) {
		t.Errorf("with held-out stopping the λ = 0 test log-loss is %.4f, not below the constant predictor's %.4f", stopped.Risk, constant)
	}
	if full.ValR != nil || full.NVal != 0 || full.KeptEpoch != 0 {
		t.Errorf("no validation part was kept, yet the record has val_r %v, n_val %d, kept_epoch %d", full.ValR, full.NVal, full.KeptEpoch)
	}
	if stopped.ValR == nil || stopped.ValU == nil || stopped.NVal != 100 || stopped.NTrain != 400 ||
		stopped.KeptEpoch < 1 || stopped.KeptEpoch > 500 {
		t.Errorf("held-out record: val_r %v, val_u %v, n_val %d, n_train %d, kept_epoch %d; want both set, 100 and 400 rows, an epoch in 1…500",
			stopped.ValR, stopped.ValU, stopped.NVal, stopped.NTrain, stopped.KeptEpoch)
	}
	if !(full.TrainR < stopped.TrainR) {
		t.Errorf("training risk %.4f after 500 epochs is not below the stopped network's %.4f", full.TrainR, stopped.TrainR)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

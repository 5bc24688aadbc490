package conditionedtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Network pairs net (not copied) with a conditioning network moved off the
// identity, drawn from seed, so that the network it computes depends on λ.
func Network(net *model.Params, seed uint64) *model.Conditioned {
	rng := rand.New(rand.NewPCG(seed, 1))
	c := model.NewConditioned(net, 6, rng)
	for _, t := range [][]float64{c.FiLM.W2, c.FiLM.B2} {
		for i := range t {
			t[i] = rng.NormFloat64() * 0.5
		}
	}
	return c
}

// Path is where Convert stores split m's conditioned network, relative to
// the run folder.
func Path(m int) string {
	return filepath.Join("networks", fmt.Sprintf("split-%03d-conditioned.json", m))
}

// Convert rewrites the run folder dir, trained without selection rows, as
// the run of a λ-conditioned network per split: each split's network is
// Network of the MLP of its first candidate (seeded by the split), stored
// at Path; every record of the split points at it, is marked conditioned
// and gets the test metrics of that network at its λ; each split gains an
// eval_only record at evalLambda (a λ not in the grid). The plain network
// files are removed, and the failed records dropped. It returns the
// conditioned network of each split.
func Convert(dir string, evalLambda float64) (map[int]*model.Conditioned, error) {
	path := filepath.Join(dir, "records.jsonl")
	all, err := records.Read(path)
	if err != nil {
		return nil, err
	}
	recs, _ := records.Succeeded(all)
	files := map[int]*model.File{}
	nets := map[int]*model.Conditioned{}
	var out []records.Record
	for _, r := range recs {
		if r.HasSelection() {
			return nil, fmt.Errorf("%s: %s has selection rows; train without them", path, r.Key())
		}
		if _, ok := files[r.Split]; !ok {
			plain, err := model.Load(filepath.Join(dir, r.Weights))
			if err != nil {
				return nil, err
			}
			p, err := plain.Params()
			if err != nil {
				return nil, err
			}
			c := Network(p.Clone(), uint64(r.Split)+1)
			f := model.NewConditionedFile(c, plain.Features, plain.Mean, plain.SD)
			f.Schema = plain.Schema
			if plain.Card != nil {
				card := *plain.Card
				card.Lambda, card.Test, card.Conditioned = 0, model.Metrics{}, true
				f.Card = &card
			}
			files[r.Split], nets[r.Split] = f, c
			eval := r
			eval.Lambda, eval.EvalOnly = evalLambda, true
			out = append(out, eval)
		}
		out = append(out, r)
	}
	if err := os.RemoveAll(filepath.Join(dir, "networks")); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "networks"), 0o755); err != nil {
		return nil, err
	}
	for m, f := range files {
		if err := model.Save(filepath.Join(dir, Path(m)), f); err != nil {
			return nil, err
		}
	}
	// The metrics are computed from the conditioned network directly, not
	// through the code that reads records, which they are to check.
	splits := map[int]*runfolder.TestSplit{}
	for i := range out {
		r := &out[i]
		r.Weights, r.Conditioned = Path(r.Split), true
		ts, ok := splits[r.Split]
		if !ok {
			if ts, err = runfolder.LoadTestSplit(dir, r.Split); err != nil {
				return nil, err
			}
			splits[r.Split] = ts
		}
		z := Logits(nets[r.Split], files[r.Split], r.Lambda, ts.Data, ts.Rows)
		y, a := ts.Data.Subset(ts.Rows)
		g, w, err := fairness.Binary(a, ts.Propensity)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Key(), err)
		}
		met, err := fairness.EvaluateLogits(z, y, g, w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Key(), err)
		}
		r.Risk, r.Accuracy, r.ATO, r.DP, r.EO, r.EOpp = met.Risk, met.Accuracy, met.ATO, met.DP, met.EO, met.EOpp
	}
	if err := os.Remove(path); err != nil {
		return nil, err
	}
	w, err := records.Open(path)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if err := w.Append(&out[i]); err != nil {
			w.Close()
			return nil, err
		}
	}
	return nets, w.Close()
}

// Logits are the logits of c at λ on the given rows of data, standardized
// as f says (an sd of 0 makes the input 0): model.Conditioned.At and
// Forward, by hand.
func Logits(c *model.Conditioned, f *model.File, lambda float64, data *datasets.Dataset, rows []int) []float64 {
	x := make([]float64, len(rows)*data.Dim)
	for k, i := range rows {
		for j := range data.Dim {
			if f.SD[j] != 0 {
				x[k*data.Dim+j] = (data.X[i*data.Dim+j] - f.Mean[j]) / f.SD[j]
			}
		}
	}
	z := make([]float64, len(rows))
	c.At(lambda).Forward(x, len(rows), z)
	return z
}

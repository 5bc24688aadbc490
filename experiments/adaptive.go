package experiments

import (
	"context"
	"slices"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
)

// An adaptive grid (Lambdas "adaptive:N", scalarize.ParseAdaptive) trains N
// candidates per split: first its coarse grid, like any fixed grid, then one
// candidate at a time at scalarize.Adaptive.Next of the split's records. Each
// next λ is computed from the records of the split alone (their λ, their
// training R and U and the split's standardization constants), never from a
// test metric, so a resumed or resharded run, or one with another number of
// workers, chooses the same λs.

// lambdaGrid reads the config's grid: the fixed λs to train first (the
// coarse grid of an adaptive one) and, for "adaptive:N", the adaptive grid.
// For the adversarial baseline the λs are its weights β, the grid scaled by
// its β scale, as its records carry them.
func (c Config) lambdaGrid() ([]float64, *scalarize.Adaptive, error) {
	if scalarize.IsAdaptive(c.Lambdas) {
		if c.Method == MethodAdversarial {
			return nil, nil, fieldErr("lambdas", "%q: the adaptive grid places λ by the standardized R and U of cheb and linear sweeps; give the adversarial baseline a fixed β grid", c.Lambdas)
		}
		a, err := scalarize.ParseAdaptive(c.Lambdas)
		if err != nil {
			return nil, nil, &FieldError{Field: "lambdas", Err: err}
		}
		return slices.Clone(a.Coarse), &a, nil
	}
	g, err := scalarize.ParseGrid(c.Lambdas)
	if err != nil {
		return nil, nil, &FieldError{Field: "lambdas", Err: err}
	}
	if c.Method == MethodAdversarial {
		// The adversary's weight β is the grid scaled; records carry β.
		for i := range g {
			g[i] *= c.betaScale()
		}
	}
	return g, nil, nil
}

// perSplit is the number of candidates of one split.
func (r *Runner) perSplit() int {
	if r.adaptive != nil {
		return r.adaptive.N
	}
	return len(r.grid) + len(r.evalOnly)
}

// splitRecords returns the records of split m, in no particular order.
func (r *Runner) splitRecords(m int) []*records.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*records.Record
	for _, rec := range r.done {
		if rec.Split == m {
			out = append(out, rec)
		}
	}
	return out
}

// runAdaptive trains the adaptive candidates of a split, one after the
// other, once its coarse grid is recorded. reason, when set, says why the
// split's λ ∈ (0, 1) cannot be trained; the candidates are then recorded as
// failed with it (their λs halve the widest intervals of the grid).
func (r *Runner) runAdaptive(ctx context.Context, sd *splitData, std scalarize.Standardizer, reason string, workers chan struct{}) error {
	for {
		recs := r.splitRecords(sd.m)
		if len(recs) >= r.adaptive.N {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		l := nextLambda(*r.adaptive, recs, std)
		if reason != "" {
			rec := r.baseRecord(sd, scalarize.Method(r.cfg.Method), l)
			rec.RMin, rec.RMax, rec.UMin, rec.UMax = std.RMin, std.RMax, std.UMin, std.UMax
			rec.Status, rec.FailReason = records.StatusFailed, reason
			if err := r.finish(&rec); err != nil {
				return err
			}
			continue
		}
		if !acquire(ctx, workers) {
			return ctx.Err()
		}
		obj := r.objective(l, std)
		rec, _, err := r.trainCandidate(ctx, sd, obj)
		<-workers
		if err != nil {
			return err
		}
		rec.RMin, rec.RMax, rec.UMin, rec.UMax = std.RMin, std.RMax, std.UMin, std.UMax
		if err := r.finish(&rec); err != nil {
			return err
		}
	}
}

// nextLambda is the λ of a split's next adaptive candidate, from its records:
// the λs done, and where each candidate that trained landed in standardized
// training R̃ and Ũ. It reads no test metric.
func nextLambda(a scalarize.Adaptive, recs []*records.Record, std scalarize.Standardizer) float64 {
	done := make([]float64, 0, len(recs))
	var pts []scalarize.AdaptivePoint
	valid := std.Validate() == nil
	for _, rec := range recs {
		done = append(done, rec.Lambda)
		if rec.OK() && valid {
			pts = append(pts, frontPoint(rec, std))
		}
	}
	return a.Next(pts, done)
}

// frontPoint is where a candidate landed for the adaptive grid: its
// standardized training R̃ and Ũ.
func frontPoint(rec *records.Record, std scalarize.Standardizer) scalarize.AdaptivePoint {
	r, u := rec.TrainR, rec.TrainU
	if rec.ValR != nil && rec.ValU != nil {
		r, u = *rec.ValR, *rec.ValU // held-out figures, when a validation part was kept
	}
	rt, _ := std.R(r)
	ut, _ := std.U(u)
	return scalarize.AdaptivePoint{Lambda: rec.Lambda, R: rt, U: ut}
}

// betaScale is the adversary's β scale; configurations written before the
// scale existed carry none and mean 1.
func (c Config) betaScale() float64 {
	if c.AdvBetaScale > 0 {
		return c.AdvBetaScale
	}
	return 1
}

package train_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// quadTrainer is a test double: one parameter θ, objective (θ − target)²
// reported as R, optionally NaN from a given step on. It records the batches
// it saw.
type quadTrainer struct {
	theta, grad []float64
	size        int
	target      float64
	nanAt       int
	steps       int
	seen        []int // N of each batch
	complete    []bool
}

func (q *quadTrainer) BatchSize() int      { return q.size }
func (q *quadTrainer) Spec() train.Spec    { return train.Spec{BatchSize: q.size} }
func (q *quadTrainer) Params() [][]float64 { return [][]float64{q.theta} }
func (q *quadTrainer) Grads() [][]float64  { return [][]float64{q.grad} }
func (q *quadTrainer) Network() *model.Params {
	return &model.Params{Arch: model.Arch{Layers: 2, Hidden: 1}, Dim: 1}
}
func (q *quadTrainer) Predict(x []float64, n int, z []float64) error { return nil }
func (q *quadTrainer) Gradient(b *train.Batch) (train.Loss, error) {
	q.steps++
	q.seen = append(q.seen, b.N)
	q.complete = append(q.complete, b.Complete)
	d := q.theta[0] - q.target
	q.grad[0] = 2 * d
	l := d * d
	if q.nanAt > 0 && q.steps >= q.nanAt {
		l = math.NaN()
	}
	return train.Loss{R: l, Objective: l}, nil
}

func synth(n, dim int, rng *rand.Rand) train.Data {
	d := train.Data{N: n, Dim: dim, X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < dim; j++ {
			v := rng.NormFloat64()
			d.X[i*dim+j] = v
			s += v
		}
		if rng.Float64() < 0.5 {
			d.A[i] = 1
		}
		if s+d.A[i] > 0.5 {
			d.Y[i] = 1
		}
		d.W[i] = 0.2 + 0.6*rng.Float64()
	}
	return d
}

// weightShare is a test input column: each real row's share of the batch's
// total overlap weight, zero when a group is missing.
var weightShare = train.Input{Name: "weight-share", Fill: func(b *train.Batch, col []float64) {
	if !b.Complete {
		clear(col)
		return
	}
	var s float64
	for _, w := range b.W[:b.N] {
		s += w
	}
	for k := range col {
		col[k] = b.W[k] / s
	}
}}

func TestBatchFillPadsAndDerives(t *testing.T) {
	d := train.Data{N: 3, Dim: 2, X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{1, 0, 1}, A: []float64{1, 0, 0}, W: []float64{0.5, 0.25, 0.75}}
	// The column is declared twice (two terms reading it): the batch keeps one.
	b := train.NewBatch(5, 2, 1, 3, weightShare, weightShare)
	if len(b.Inputs()) != 1 || b.Column("weight-share") == nil || b.Column("other") != nil {
		t.Fatalf("inputs %v", b.Inputs())
	}
	b.Fill(d, []int{2, 0, 1})
	if b.N != 3 || !b.Complete {
		t.Fatalf("N = %d, complete = %v", b.N, b.Complete)
	}
	wantX := []float64{5, 6, 1, 2, 3, 4, 0, 0, 0, 0}
	for i, v := range wantX {
		if b.X[i] != v {
			t.Fatalf("X = %v, want %v", b.X, wantX)
		}
	}
	// Rows: w = .75, .5, .25 of total 1.5.
	wantCol := []float64{0.5, 1. / 3, 1. / 6, 0, 0}
	wantSW := []float64{1. / 3, 1. / 3, 1. / 3, 0, 0}
	col := b.Column("weight-share")
	for i := range wantCol {
		if math.Abs(col[i]-wantCol[i]) > 1e-15 || b.SW[i] != wantSW[i] {
			t.Fatalf("row %d: column %v SW %v", i, col, b.SW)
		}
	}
	// Refilling with fewer rows clears the old padding rows and the column.
	b.Fill(d, []int{1})
	if b.Complete || b.X[2] != 0 || b.Y[1] != 0 || col[0] != 0 || col[1] != 0 || b.SW[0] != 1 {
		t.Errorf("one-group batch: complete %v X %v column %v SW %v", b.Complete, b.X, col, b.SW)
	}
}

func TestFitCoversEveryRowEachEpochAndCountsSkipped(t *testing.T) {
	// 23 rows, batches of 5: 4 full batches and a short one of 3 per epoch.
	rng := rand.New(rand.NewPCG(1, 2))
	d := synth(23, 1, rng)
	for i := range d.A {
		d.A[i] = 0
	}
	d.A[7] = 1 // only one row of group 1: every batch without it lacks a group
	q := &quadTrainer{theta: []float64{3}, grad: []float64{0}, size: 5, target: 1}
	res, err := train.Fit(context.Background(), q, d, train.Options{Epochs: 4, Adam: optim.DefaultAdam}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps != 20 || len(q.seen) != 20 {
		t.Fatalf("steps = %d, want 4 epochs × 5 batches", res.Steps)
	}
	for e := 0; e < 4; e++ {
		sum := 0
		for _, n := range q.seen[e*5 : e*5+5] {
			sum += n
		}
		if sum != 23 || q.seen[e*5+4] != 3 {
			t.Errorf("epoch %d batch sizes %v", e+1, q.seen[e*5:e*5+5])
		}
	}
	if res.Skipped != 16 {
		t.Errorf("skipped = %d, want 20 batches − 4 containing the lone row = 16", res.Skipped)
	}
	if len(res.History) != 4 || !(res.RMin <= res.History[3].R && res.History[0].R <= res.RMax) {
		t.Errorf("history %v, extremes [%g, %g]", res.History, res.RMin, res.RMax)
	}
}

func TestFitReportsDivergence(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := synth(20, 1, rng)
	q := &quadTrainer{theta: []float64{3}, grad: []float64{0}, size: 5, target: 1, nanAt: 10}
	_, err := train.Fit(context.Background(), q, d, train.Options{Epochs: 5, Adam: optim.DefaultAdam}, rng)
	var div *train.DivergedError
	if !errors.As(err, &div) || div.Epoch != 3 {
		t.Fatalf("err = %v, want divergence in epoch 3 (step 10 of 4 per epoch)", err)
	}
}

func TestFitStopsWhenCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := synth(20, 1, rng)
	ctx, cancel := context.WithCancel(context.Background())
	q := &quadTrainer{theta: []float64{3}, grad: []float64{0}, size: 5, target: 1}
	opt := train.Options{Epochs: 100, Adam: optim.DefaultAdam, OnEpoch: func(s train.EpochStats) {
		if s.Epoch == 2 {
			cancel()
		}
	}}
	res, err := train.Fit(ctx, q, d, opt, rng)
	if !errors.Is(err, context.Canceled) || len(res.History) != 2 {
		t.Fatalf("err = %v after %d epochs, want context.Canceled after 2", err, len(res.History))
	}
}

func TestFitAppliesPlateauSchedule(t *testing.T) {
	// θ starts at the target: the loss is 0 every epoch, never improving on
	// the first epoch's 0, so after 1 + 11 epochs the rate drops by 0.9.
	rng := rand.New(rand.NewPCG(5, 6))
	d := synth(10, 1, rng)
	q := &quadTrainer{theta: []float64{1}, grad: []float64{0}, size: 10, target: 1}
	var lrs []float64
	p := optim.DefaultPlateau
	opt := train.Options{Epochs: 24, Adam: optim.DefaultAdam, Plateau: &p, OnEpoch: func(s train.EpochStats) { lrs = append(lrs, s.LR) }}
	if _, err := train.Fit(context.Background(), q, d, opt, rng); err != nil {
		t.Fatal(err)
	}
	for i, lr := range lrs {
		want := 1e-3
		if i >= 12 {
			want = 0.9e-3
		}
		if i >= 23 {
			want = 0.81e-3
		}
		if math.Abs(lr-want) > 1e-18 {
			t.Fatalf("epoch %d lr = %g, want %g (all: %v)", i+1, lr, want, lrs)
		}
	}
}

func TestFitIsDeterministicAndLearns(t *testing.T) {
	run := func(seed uint64) ([]float64, train.Result) {
		rng := rand.New(rand.NewPCG(seed, 99))
		d := synth(300, 4, rand.New(rand.NewPCG(7, 7)))
		arch := model.Arch{Layers: 3, Hidden: 6}
		tr, err := backprop.Engine{}.NewTrainer(train.Spec{Arch: arch, Dim: 4, BatchSize: 32, Dropout: 0.2,
			Init: model.Init(arch, 4, rng), Objective: scalarize.Objective{Method: scalarize.Penalty}, Penalty: penalties.ATOPenultimate})
		if err != nil {
			t.Fatal(err)
		}
		res, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: 30, Adam: optim.DefaultAdam}, rng)
		if err != nil {
			t.Fatal(err)
		}
		var w []float64
		for _, p := range tr.Params() {
			w = append(w, p...)
		}
		return w, res
	}
	w1, r1 := run(1)
	w2, _ := run(1)
	w3, _ := run(2)
	same, differ := true, false
	for i := range w1 {
		same = same && w1[i] == w2[i]
		differ = differ || w1[i] != w3[i]
	}
	if !same || !differ {
		t.Errorf("same seed identical: %v; other seed different: %v", same, differ)
	}
	if h := r1.History; !(h[len(h)-1].U < h[0].U) {
		t.Errorf("minimising U did not lower it: first epoch %g, last %g", h[0].U, h[len(h)-1].U)
	}
}

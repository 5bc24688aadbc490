package optim

import (
	"math"
	"testing"
)

// The decisions of PyTorch's ReduceLROnPlateau(mode='min', factor=0.9,
// patience=10, threshold=1e-4, threshold_mode='rel', cooldown=0) on a
// sequence of epoch losses, worked out by hand. A loss counts as an
// improvement only if it is below best·(1 − 1e-4); after a loss that is not
// one, the count of bad epochs grows; the rate is cut when that count
// exceeds the patience, i.e. on the 11th bad epoch in a row, and the count
// starts again from 0.
//
//	epoch  loss     best before  counts?                                    bad    lr after
//	1      1.0      +Inf         yes                                        0      1e-3
//	2      0.9      1.0          yes: 0.9 < 1.0·0.9999                      0      1e-3
//	3      0.89995  0.9          no: 0.89995 ≥ 0.9·0.9999 = 0.89991         1      1e-3   (lower, but by only 5.6e-5 relative)
//	4–12   0.95     0.9          no                                         2…10   1e-3   (10 bad epochs: not yet)
//	13     0.9      0.9          no (equal)                                 11 → 0 9e-4   (11th bad epoch: cut)
//	14     0.85     0.9          yes: 0.85 < 0.89991                        0      9e-4
//	15–24  0.86     0.85         no                                         1…10   9e-4
//	25     0.84995  0.85         no: 0.84995 ≥ 0.85·0.9999 = 0.849915       11 → 0 8.1e-4 (cut again)
//	26     0.5      0.85         yes                                        0      8.1e-4
func TestPlateauPyTorchSequence(t *testing.T) {
	type row struct {
		loss   float64
		best   float64 // best after the epoch
		bad    int     // bad epochs after the epoch
		lr     float64 // learning rate after the epoch
		epochs int     // how many epochs in a row have this row
	}
	seq := []row{
		{1.0, 1.0, 0, 1e-3, 1},
		{0.9, 0.9, 0, 1e-3, 1},
		{0.89995, 0.9, 1, 1e-3, 1},
		{0.95, 0.9, -1, 1e-3, 9}, // bad = 2 … 10
		{0.9, 0.9, 0, 9e-4, 1},
		{0.85, 0.85, 0, 9e-4, 1},
		{0.86, 0.85, -1, 9e-4, 10}, // bad = 1 … 10
		{0.84995, 0.85, 0, 8.1e-4, 1},
		{0.5, 0.5, 0, 8.1e-4, 1},
	}
	p := NewPlateau(PlateauConfig{Factor: 0.9, Patience: 10, Threshold: 1e-4, Cooldown: 0, Eps: 1e-8})
	lr := 1e-3
	epoch := 0
	for _, r := range seq {
		for k := 0; k < r.epochs; k++ {
			epoch++
			prevBad := p.Bad
			lr = p.Step(r.loss, lr)
			wantBad := r.bad
			if wantBad < 0 {
				wantBad = prevBad + 1
			}
			if p.Best != r.best || p.Bad != wantBad || math.Abs(lr-r.lr) > 1e-18 {
				t.Fatalf("epoch %d (loss %v): best %v, bad %d, lr %v; want best %v, bad %d, lr %v",
					epoch, r.loss, p.Best, p.Bad, lr, r.best, wantBad, r.lr)
			}
		}
	}
	if epoch != 26 {
		t.Fatalf("walked %d epochs, want 26", epoch)
	}
}

// With cooldown 2 and patience 1: after a cut, two epochs pass with the bad
// count held at 0 (PyTorch resets it while cooling down), so the next cut
// comes 4 epochs later rather than 2.
//
//	epoch  loss  bad  cooldown  lr
//	1      1     0    0         1
//	2      2     1    0         1
//	3      2     2>1 → cut      0.5 (bad 0, cooldown 2)
//	4      2     0    1         0.5
//	5      2     0    0         0.5
//	6      2     1    0         0.5
//	7      2     2>1 → cut      0.25
func TestPlateauCooldown(t *testing.T) {
	p := NewPlateau(PlateauConfig{Factor: 0.5, Patience: 1, Threshold: 1e-4, Cooldown: 2})
	lr := 1.0
	want := []float64{1, 1, 0.5, 0.5, 0.5, 0.5, 0.25}
	for e, w := range want {
		loss := 2.0
		if e == 0 {
			loss = 1
		}
		if lr = p.Step(loss, lr); lr != w {
			t.Fatalf("epoch %d: lr %v, want %v", e+1, lr, w)
		}
	}
}

// The rate never goes below MinLR, and a cut smaller than Eps is not made.
func TestPlateauFloor(t *testing.T) {
	p := NewPlateau(PlateauConfig{Factor: 0.5, Patience: 0, Threshold: 1e-4, MinLR: 0.3, Eps: 1e-8})
	lr := 1.0
	for _, want := range []float64{1, 0.5, 0.3, 0.3} { // epoch 1 improves on +Inf; then every epoch is bad
		if lr = p.Step(1, lr); lr != want {
			t.Fatalf("lr %v, want %v", lr, want)
		}
	}
	q := NewPlateau(PlateauConfig{Factor: 0.9, Patience: 0, Threshold: 1e-4, Eps: 1e-8})
	small := 5e-8 // 0.9·5e-8 is only 5e-9 lower: below Eps, so no cut
	q.Step(1, small)
	if got := q.Step(1, small); got != small {
		t.Errorf("a cut of %v was made, smaller than Eps", small-got)
	}
}

func TestDefaultPlateauIsSpec(t *testing.T) {
	if DefaultPlateau.Factor != 0.9 || DefaultPlateau.Patience != 10 || DefaultPlateau.Threshold != 1e-4 || DefaultPlateau.Cooldown != 0 {
		t.Errorf("DefaultPlateau = %+v, want factor 0.9, patience 10, threshold 1e-4, cooldown 0 (docs/method.md §5)", DefaultPlateau)
	}
}

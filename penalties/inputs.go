package penalties

import (
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/train"
)

// Per-row input columns of the penalties here, for penalties of one's own to
// declare (see NewPenalty). Each is 0 on every row of a batch that lacks one
// of the groups, so that a penalty built on it vanishes there.
var (
	// Contrast is the ATO contrast c of fairness.Contrast: Σ c·o is τ̂(o).
	Contrast = train.Input{Name: "ato-contrast", Fill: fillContrast}
	// Group1Mean is a_i/n₁: Σ Group1Mean·o is the mean of o over the rows
	// of group a = 1.
	Group1Mean = train.Input{Name: "group1-mean", Fill: func(b *train.Batch, col []float64) { fillGroupMean(b, col, 1) }}
	// Group0Mean is (1−a_i)/n₀: the same for group a = 0.
	Group0Mean = train.Input{Name: "group0-mean", Fill: func(b *train.Batch, col []float64) { fillGroupMean(b, col, 0) }}
)

func fillContrast(b *train.Batch, col []float64) {
	fairness.Contrast(b.A[:b.N], b.W[:b.N], col)
}

func fillGroupMean(b *train.Batch, col []float64, group float64) {
	if !b.Complete {
		clear(col)
		return
	}
	var n float64
	for k := range col {
		if b.A[k] == group {
			n++
		}
	}
	for k := range col {
		col[k] = 0
		if b.A[k] == group {
			col[k] = 1 / n
		}
	}
}

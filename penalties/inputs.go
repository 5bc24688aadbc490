package penalties

import (
	"fmt"

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

// Rows is a subset of a batch's real rows within which the columns of the
// demographic-parity and equalized-odds penalties compare the groups.
type Rows int

const (
	// AllRows is every real row of the batch (demographic parity).
	AllRows Rows = iota
	// LabelZero is the rows with y ≠ 1 (equalized odds, label 0; as
	// fairness.EO, any label other than 1 counts as 0).
	LabelZero
	// LabelOne is the rows with y = 1.
	LabelOne
)

// LabelRows are the two subsets equalized odds compares the groups within.
var LabelRows = []Rows{LabelZero, LabelOne}

func (s Rows) has(y float64) bool {
	switch s {
	case LabelZero:
		return y != 1
	case LabelOne:
		return y == 1
	}
	return true
}

// suffix tells the columns of the subsets apart: "", "-y0", "-y1".
func (s Rows) suffix() string {
	switch s {
	case LabelZero:
		return "-y0"
	case LabelOne:
		return "-y1"
	}
	return ""
}

// The unweighted columns below are computed within the rows s, with n_s
// the number of those rows and n_s,r those of group r (a_i = r; for a 0/1
// attribute the groups are 0 and 1). Every one is 0 on every row when the
// subset lacks one of the groups, so that a penalty built on them has
// neither value nor gradient there.

// GroupContrast is the unweighted contrast of group 1 against group 0 of a
// 0/1 attribute within the rows s:
//
//	c_i = [i ∈ s]·(a_i/n_s,1 − (1 − a_i)/n_s,0),
//
// so that Σ c·o is the difference of the mean of o over group 1 and over
// group 0. Its name is "group-contrast", with "-y0" or "-y1" for the label
// subsets.
func GroupContrast(s Rows) train.Input {
	return train.Input{Name: "group-contrast" + s.suffix(), Fill: func(b *train.Batch, col []float64) {
		var buf [2]float64
		n := buf[:]
		if !countGroups(b, col, s, n) {
			return
		}
		for i, a := range b.A[:len(col)] {
			if s.has(b.Y[i]) {
				col[i] = 1 / n[1]
				if a != 1 {
					col[i] = -1 / n[0]
				}
			}
		}
	}}
}

// DPContrast is GroupContrast(AllRows): Σ c·o is the gap of the group
// means of o on the batch.
var DPContrast = GroupContrast(AllRows)

// RowGroupMean is the unweighted group-mean column of group r of R within
// the rows s: g_r,i = [i ∈ s, a_i = r]/n_s,r, so that Σ g_r·o is the mean
// of o over those rows of group r. Its name is "group-mean-r-of-R", with
// "-y0" or "-y1" for the label subsets.
func RowGroupMean(s Rows, r, groups int) train.Input {
	return train.Input{Name: fmt.Sprintf("group-mean-%d-of-%d%s", r, groups, s.suffix()), Fill: func(b *train.Batch, col []float64) {
		var buf [countBuf]float64
		n := groupCounts(&buf, groups)
		if !countGroups(b, col, s, n) {
			return
		}
		for i, a := range b.A[:len(col)] {
			if s.has(b.Y[i]) && a == float64(r) {
				col[i] = 1 / n[r]
			}
		}
	}}
}

// RowGroupMeans are RowGroupMean(s, 0, R) … RowGroupMean(s, R−1, R).
func RowGroupMeans(s Rows, groups int) []train.Input {
	in := make([]train.Input, groups)
	for r := range in {
		in[r] = RowGroupMean(s, r, groups)
	}
	return in
}

// RowMean is [i ∈ s]/n_s: Σ RowMean·o is the mean of o over the rows s.
// Its name is "row-mean-of-R", with "-y0" or "-y1" for the label subsets
// (R enters because the column is 0 when the rows lack one of R groups).
func RowMean(s Rows, groups int) train.Input {
	return train.Input{Name: fmt.Sprintf("row-mean-of-%d%s", groups, s.suffix()), Fill: func(b *train.Batch, col []float64) {
		var buf [countBuf]float64
		n := groupCounts(&buf, groups)
		if !countGroups(b, col, s, n) {
			return
		}
		var all float64
		for _, v := range n {
			all += v
		}
		for i := range col {
			if s.has(b.Y[i]) {
				col[i] = 1 / all
			}
		}
	}}
}

// GroupShare is [i ∈ s]·n_s,r/n_s² for group r of R: the weight of row i's
// squared gap in the mean-variance index, P̂(Z = r)·(1/n) within the rows
// s. Its name is "group-share-r-of-R", with "-y0" or "-y1" for the label
// subsets.
func GroupShare(s Rows, r, groups int) train.Input {
	return train.Input{Name: fmt.Sprintf("group-share-%d-of-%d%s", r, groups, s.suffix()), Fill: func(b *train.Batch, col []float64) {
		var buf [countBuf]float64
		n := groupCounts(&buf, groups)
		if !countGroups(b, col, s, n) {
			return
		}
		var all float64
		for _, v := range n {
			all += v
		}
		for i := range col {
			if s.has(b.Y[i]) {
				col[i] = n[r] / (all * all)
			}
		}
	}}
}

// countBuf is the number of groups whose counts a column's Fill keeps on
// the stack; more groups take an allocation per batch.
const countBuf = 16

func groupCounts(buf *[countBuf]float64, groups int) []float64 {
	if groups <= countBuf {
		return buf[:groups]
	}
	return make([]float64, groups)
}

// countGroups clears col and sets n[r] to the number of the rows s (of the
// batch's len(col) real rows) in group r; it reports whether every group
// has one.
func countGroups(b *train.Batch, col []float64, s Rows, n []float64) bool {
	clear(col)
	clear(n)
	groups := len(n)
	for i, a := range b.A[:len(col)] {
		if r := int(a); s.has(b.Y[i]) && float64(r) == a && r >= 0 && r < groups {
			n[r]++
		}
	}
	for _, v := range n {
		if v == 0 {
			return false
		}
	}
	return true
}

package penalties

import (
	"fmt"

	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// EOMean is U = max_y |mean σ(z) over the rows with y and a = 1 − mean σ(z)
// over the rows with y and a = 0|, y ∈ {0, 1} (unweighted means, padding
// rows excluded): the gap of dp-mean within each label, combined as the
// metric eo combines its two conditional parts, by their maximum. A label
// subset that lacks one of the groups contributes 0, with a zero gradient.
var EOMean Penalty = eoMeanPenalty{}

// MVTemperature is the temperature T of the smoothed indicator
// 1{s_j ≤ t} ≈ σ((t − s_j)/T) in DPMV and EOMV, on the probability scale.
// The exact index is a step function of the scores, with a zero gradient
// almost everywhere; the sigmoid spreads each step over about ±2T. With
// T = 0.02 a pair of scores 0.1 apart is counted to within 0.7% of the
// indicator, so on the score spreads a classifier gives the smooth index
// tracks the one fp reports (docs/method.md §3.3), while on a batch of 150
// rows each row still has tens of neighbours within the ramp to take a
// gradient from; a much smaller T leaves only the nearest few and a noisy
// gradient that vanishes where scores are far apart.
const MVTemperature = 0.02

// MVEvalRows is the most rows on which a trained network's dp-mv or eo-mv
// is measured at once (train_u, val_u; train.BlockLimited): a block of n
// rows takes n² kernel values, 8 MB at 1,024 rows, where the 4,096 rows
// of other penalties would take 16 times as much per matrix of the graph.
const MVEvalRows = 1024

// DPMV is a differentiable form of the mean-variance index of demographic
// parity (fairness.DP) on the batch, s = σ(z):
//
//	U = Σ_r P̂(Z = r)·(1/n) Σ_i (F̂_r(s_i) − F̂(s_i))²,
//
// with F̂(t) = (1/n) Σ_j K(t, s_j) and F̂_r(t) = (1/n_r) Σ_{j: a_j = r}
// K(t, s_j) over the batch's n real rows, where the indicator 1{s_j ≤ t}
// is smoothed to K(t, s_j) = σ((t − s_j)/T), T = MVTemperature, except that
// a row compared with itself counts 1, as the indicator does. As T → 0 it
// is fairness.DP of the batch (for distinct scores). Its cost is O(n²) per
// batch (n² kernel values).
var DPMV Penalty = mvPenalty{r: 2}

// EOMV is the equalized-odds form of DPMV: the larger over y ∈ {0, 1} of
// the smoothed index within the rows with label y (P̂, F̂ and F̂_r all
// computed within them), as fairness.EO takes the larger of its two
// conditional indices. A label subset that lacks one of the groups
// contributes 0, with a zero gradient.
var EOMV Penalty = mvPenalty{cond: true, r: 2}

// eoMeanPenalty is eo-mean for a 0/1 attribute.
type eoMeanPenalty struct{}

func (eoMeanPenalty) Name() string { return NameEOMean }

// Version is empty: the built-ins are identified by fp's own version.
func (eoMeanPenalty) Version() string { return "" }

// Inputs are the unweighted contrasts within y = 0 and within y = 1.
func (eoMeanPenalty) Inputs() []train.Input {
	return []train.Input{GroupContrast(LabelZero), GroupContrast(LabelOne)}
}

// EqualizedOddsMean is how the handwritten engine recognises the penalty
// (backprop.EOMeanPenalty).
func (eoMeanPenalty) EqualizedOddsMean() {}

// OutputOnly marks a penalty that reads no hidden layer.
func (eoMeanPenalty) OutputOnly() {}

// Node builds max(|c⁰ᵀσ(z)|, |c¹ᵀσ(z)|). A subset lacking a group has
// c = 0: its part is 0 and so is its gradient.
func (p eoMeanPenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if n.Logit == nil {
		return nil, fmt.Errorf("%s: the network has no logit", p.Name())
	}
	cols, err := inputColumns(b, p.Inputs())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	prob, err := G.Sigmoid(n.Logit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	u, err := subsetGaps(cols, prob, 2, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return u, nil
}

// groupEOMean is eo-mean for R groups: the larger over y of the spread
// D_y = max_r m_y,r − min_r m_y,r of the unweighted group means of σ(z)
// within the rows with label y.
type groupEOMean struct{ r int }

func (groupEOMean) Name() string { return NameEOMean }

// Version is empty: the built-ins are identified by fp's own version.
func (groupEOMean) Version() string { return "" }

// Inputs are the R group-mean columns within y = 0, then those within y = 1.
func (p groupEOMean) Inputs() []train.Input {
	return append(RowGroupMeans(LabelZero, p.r), RowGroupMeans(LabelOne, p.r)...)
}

// Groups is R (train.GroupTerm).
func (p groupEOMean) Groups() int { return p.r }

// EqualizedOddsMean is, with Groups, how the handwritten engine recognises
// the penalty.
func (groupEOMean) EqualizedOddsMean() {}

// OutputOnly marks a penalty that reads no hidden layer.
func (groupEOMean) OutputOnly() {}

// Node builds max(D_0, D_1).
func (p groupEOMean) Node(n Net, b BatchNodes) (*G.Node, error) {
	if n.Logit == nil {
		return nil, fmt.Errorf("%s: the network has no logit", p.Name())
	}
	cols, err := inputColumns(b, p.Inputs())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	prob, err := G.Sigmoid(n.Logit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	u, err := subsetGaps(cols, prob, 2, p.r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return u, nil
}

// subsetGaps builds, for each of the subsets of rows (every row, or y = 0
// then y = 1), the gap between the groups' plain means of s, and returns
// the larger over the subsets. cols holds each subset's columns in turn:
// one GroupContrast c for a 0/1 attribute (r = 0), the gap being |cᵀs|, or
// R RowGroupMeans, the gap being their spread max_r − min_r (probSpread).
// eo-mean and the rate penalties share it; they differ only in s.
func subsetGaps(cols []*G.Node, s *G.Node, subsets, r int) (*G.Node, error) {
	per := len(cols) / subsets
	parts := make([]*G.Node, subsets)
	for k := range parts {
		c := cols[k*per : (k+1)*per]
		var err error
		if r == 0 {
			var v *G.Node
			if v, err = G.Mul(c[0], s); err == nil {
				parts[k], err = G.Abs(v)
			}
		} else {
			parts[k], err = probSpread(c, s)
		}
		if err != nil {
			return nil, fmt.Errorf("subset %d of %d: %w", k+1, subsets, err)
		}
	}
	if subsets == 1 {
		return parts[0], nil
	}
	return maxOf(parts[0], parts[1])
}

// maxOf builds max{a, b} of two scalar nodes as ½(a + b + |a − b|): the
// gradient goes to a on a tie (Gorgonia's scalar |x|′(0) = +1), never to
// both, as it would with Max over a vector.
func maxOf(a, b *G.Node) (*G.Node, error) {
	s, err := G.Add(a, b)
	if err != nil {
		return nil, err
	}
	d, err := G.Sub(a, b)
	if err != nil {
		return nil, err
	}
	if d, err = G.Abs(d); err != nil {
		return nil, err
	}
	if s, err = G.Add(s, d); err != nil {
		return nil, err
	}
	return G.Mul(s, G.NewConstant(0.5))
}

// mvPenalty is dp-mv (cond false) or eo-mv (cond true) over r groups (2
// for a 0/1 attribute), at temperature temp (MVTemperature; 0 means it).
type mvPenalty struct {
	cond bool
	r    int
	temp float64
}

func (p mvPenalty) Name() string {
	if p.cond {
		return NameEOMV
	}
	return NameDPMV
}

// Version is empty: the built-ins are identified by fp's own version.
func (mvPenalty) Version() string { return "" }

// rows are the subsets the index is computed within.
func (p mvPenalty) rows() []Rows { return subsets(p.cond) }

// subsets are the rows a parity penalty compares the groups within: every
// row, or (conditional on the label, as eo) the rows with y = 0 and those
// with y = 1.
func subsets(conditional bool) []Rows {
	if conditional {
		return LabelRows
	}
	return []Rows{AllRows}
}

// Inputs are, for each subset (all rows, or y = 0 then y = 1), its
// RowMean, the R RowGroupMeans and the R GroupShares.
func (p mvPenalty) Inputs() []train.Input {
	var in []train.Input
	for _, s := range p.rows() {
		in = append(in, RowMean(s, p.r))
		in = append(in, RowGroupMeans(s, p.r)...)
		for r := 0; r < p.r; r++ {
			in = append(in, GroupShare(s, r, p.r))
		}
	}
	return in
}

// MeanVariance is how the handwritten engine recognises the penalty
// (backprop.MVPenalty): the temperature, and whether the index is taken
// within each label.
func (p mvPenalty) MeanVariance() (temperature float64, conditional bool) {
	return p.temperature(), p.cond
}

func (p mvPenalty) temperature() float64 {
	if p.temp > 0 {
		return p.temp
	}
	return MVTemperature
}

// OutputOnly marks a penalty that reads no hidden layer.
func (mvPenalty) OutputOnly() {}

// EvalRows is MVEvalRows (train.BlockLimited).
func (mvPenalty) EvalRows() int { return MVEvalRows }

// Node builds the smoothed index. With K the batch×batch matrix
// K_ij = σ((s_i − s_j)/T) off the diagonal and 1 on it, and for a subset
// its columns w (RowMean), g_r (RowGroupMeans) and q_r (GroupShares):
// F = K·w and F_r = K·g_r are F̂ and F̂_r at every row's score, and the
// index is Σ_r q_rᵀ(F_r − F)², one batch×batch matrix and R matrix–vector
// products per subset. Padding rows, and rows outside the subset,
// are 0 in w, g_r and q_r, so they enter neither the distributions nor
// the sum.
func (p mvPenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if n.Logit == nil {
		return nil, fmt.Errorf("%s: the network has no logit", p.Name())
	}
	wrap := func(err error) error { return fmt.Errorf("%s: %w", p.Name(), err) }
	cols, err := inputColumns(b, p.Inputs())
	if err != nil {
		return nil, wrap(err)
	}
	prob, err := G.Sigmoid(n.Logit)
	if err != nil {
		return nil, wrap(err)
	}
	k, err := smoothIndicator(prob, p.temperature())
	if err != nil {
		return nil, wrap(err)
	}
	per := 1 + 2*p.r
	var parts []*G.Node
	for s := range p.rows() {
		c := cols[s*per : (s+1)*per]
		v, err := meanVariance(k, c[0], c[1:1+p.r], c[1+p.r:])
		if err != nil {
			return nil, wrap(err)
		}
		parts = append(parts, v)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	u, err := maxOf(parts[0], parts[1])
	if err != nil {
		return nil, wrap(err)
	}
	return u, nil
}

// smoothIndicator builds the batch×batch matrix S_ij = σ((s_i − s_j)/T)
// from the batch vector s, diagonal included: there s_i − s_i = 0 exactly,
// so S_ii = σ(0) = ½ and its derivative, through both of its arguments,
// is 0. K = S + ½I is the kernel with 1 on the diagonal; meanVariance adds
// the ½I as a vector, so that no further batch×batch matrix is built. The
// differences are two outer products with the constant vector 1/T
// (matrix products, whose gradients are plain).
func smoothIndicator(s *G.Node, temp float64) (*G.Node, error) {
	n := s.Shape()[0]
	col, err := G.Reshape(s, []int{n, 1})
	if err != nil {
		return nil, err
	}
	row, err := G.Reshape(s, []int{1, n})
	if err != nil {
		return nil, err
	}
	inv := make([]float64, n)
	for i := range inv {
		inv[i] = 1 / temp
	}
	invRow := G.NewConstant(tensor.New(tensor.WithShape(1, n), tensor.WithBacking(inv)))
	invCol := G.NewConstant(tensor.New(tensor.WithShape(n, 1), tensor.WithBacking(append([]float64(nil), inv...))))
	si, err := G.Mul(col, invRow) // s_i/T in row i
	if err != nil {
		return nil, err
	}
	sj, err := G.Mul(invCol, row) // s_j/T in column j
	if err != nil {
		return nil, err
	}
	d, err := G.Sub(si, sj)
	if err != nil {
		return nil, err
	}
	return G.Sigmoid(d)
}

// meanVariance builds Σ_r q_rᵀ(F_r − F)² for one subset from S of
// smoothIndicator: with v_r = g_r − w (data), F_r − F = K·v_r =
// S·v_r + ½v_r.
func meanVariance(s, w *G.Node, g, q []*G.Node) (*G.Node, error) {
	half := G.NewConstant(0.5)
	var u *G.Node
	for r := range g {
		v, err := G.Sub(g[r], w)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		sv, err := G.Mul(s, v)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		hv, err := G.Mul(v, half)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		d, err := G.Add(sv, hv)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		sq, err := G.HadamardProd(d, d)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		t, err := G.Mul(q[r], sq)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		if u == nil {
			u = t
		} else if u, err = G.Add(u, t); err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
	}
	return u, nil
}

// groupMV is dp-mv or eo-mv for R ≥ 3 groups.
type groupMV struct{ mvPenalty }

// Groups is R (train.GroupTerm).
func (p groupMV) Groups() int { return p.r }

package penalties

import (
	"fmt"
	"strings"

	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// The built-in penalties for a sensitive attribute of R groups
// (docs/method.md §3.3). With m_r,u the overlap-weighted mean of unit u
// over the batch's rows of group r, a unit's disparity is the largest
// pairwise difference of its group means,
//
//	D_u = max_{r,s} |m_r,u − m_s,u| = max_r m_r,u − min_r m_r,u,
//
// the R-group ATO (fairness.ATO) of the unit on the batch; U sums D_u
// over the units the penalty covers, as the binary penalties sum |τ̂_u|.
// At R = 2, D_u = |m_1,u − m_0,u| = |τ̂_u|. Its subgradient goes through
// the group of the maximum and the group of the minimum, the lowest group
// index on a tie.

// GroupMean is the per-row input column of group r of R (0 ≤ r < R):
//
//	g_r,i = w_i·[a_i = r] / Σ_{j: a_j = r} w_j,
//
// so that Σ_i g_r,i·o_i is m_r(o), the overlap-weighted mean of o over the
// batch's rows of group r. Every row is 0 when the batch lacks one of the R
// groups (train.Batch.Complete) or one of them has zero total weight, so
// that a penalty built on the columns vanishes there. Its name is
// "overlap-mean-r-of-R".
func GroupMean(r, groups int) train.Input {
	return train.Input{
		Name: fmt.Sprintf("overlap-mean-%d-of-%d", r, groups),
		Fill: func(b *train.Batch, col []float64) { fillOverlapMean(b, col, r, groups) },
	}
}

// GroupMeans are the R columns GroupMean(0, R) … GroupMean(R−1, R).
func GroupMeans(groups int) []train.Input {
	in := make([]train.Input, groups)
	for r := range in {
		in[r] = GroupMean(r, groups)
	}
	return in
}

func fillOverlapMean(b *train.Batch, col []float64, group, groups int) {
	clear(col)
	if !b.Complete {
		return
	}
	a, w := b.A[:len(col)], b.W[:len(col)]
	var own float64
	for k := 0; k < groups; k++ {
		var s float64
		for i, ai := range a {
			if ai == float64(k) {
				s += w[i]
			}
		}
		if !(s > 0) {
			return // a group without weight has no mean: no penalty
		}
		if k == group {
			own = s
		}
	}
	for i, ai := range a {
		if ai == float64(group) {
			col[i] = w[i] / own
		}
	}
}

// ForGroups returns the R-group form of the built-in penalty p (one of
// BuiltinNames) for a sensitive attribute of R ≥ 2 groups: the same name
// and layers, U built from the spread D_u = max_r m_r,u − min_r m_r,u of
// the overlap-weighted group means instead of |τ̂_u| (docs/method.md §3.3);
// for dp-mean and eo-mean the spread of the plain group means (within each
// label for eo-mean), for dp-mv and eo-mv the index over the R groups, for
// dp-rate and eo-rate the spread of the groups' smoothed selection rates
// (within each label for eo-rate), at p's threshold. It
// reads the columns of its R groups (GroupMeans(R) for the ATO penalties)
// and is a train.GroupTerm: the data it trains on must have R groups
// (train.Data.Groups). At R = 2 it computes the binary
// penalty's value to rounding; runs with two groups use p itself, so that
// their numbers stay those of the binary code.
func ForGroups(p Penalty, groups int) (Penalty, error) {
	if groups < 2 {
		return nil, fmt.Errorf("penalty %s for %d groups: want at least 2", p.Name(), groups)
	}
	switch q := p.(type) {
	case atoPenalty:
		return groupLayers{all: q.all, r: groups}, nil
	case normalizedPenalty:
		return groupNormalized{r: groups}, nil
	case outputPenalty:
		return groupOutput{r: groups, dp: q.dp}, nil
	case eoMeanPenalty:
		return groupEOMean{r: groups}, nil
	case mvPenalty:
		return groupMV{mvPenalty{cond: q.cond, r: groups, temp: q.temp}}, nil
	case ratePenalty:
		q.r = groups
		return groupRate{q}, nil
	}
	return nil, fmt.Errorf("penalty %s has no R-group form: want one of %s", p.Name(), strings.Join(BuiltinNames, ", "))
}

// groupLayers is ato-penultimate or ato-all for R groups.
type groupLayers struct {
	all bool
	r   int
}

func (p groupLayers) Name() string {
	if p.all {
		return NameATOAll
	}
	return NameATOPenultimate
}

// Version is empty: the built-ins are identified by fp's own version.
func (groupLayers) Version() string { return "" }

// Inputs are the R overlap-mean columns.
func (p groupLayers) Inputs() []train.Input { return GroupMeans(p.r) }

// Groups is R (train.GroupTerm).
func (p groupLayers) Groups() int { return p.r }

// ATOAllLayers says which hidden layers the penalty covers; with Groups it
// is how the handwritten engine recognises the penalty.
func (p groupLayers) ATOAllLayers() bool { return p.all }

// Node builds Σ_l Σ_u D_u(h^(l)) over the covered layers.
func (p groupLayers) Node(n Net, b BatchNodes) (*G.Node, error) {
	if len(n.Hidden) == 0 {
		return nil, fmt.Errorf("%s: the network has no hidden layer", p.Name())
	}
	layers := n.Hidden
	if !p.all {
		layers = layers[len(layers)-1:]
	}
	cols, err := groupColumns(b, p.r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return sumOverLayers(p.Name(), layers, func(h *G.Node) (*G.Node, error) { return spread(cols, h) })
}

// groupNormalized is ato-penultimate-normalized for R groups:
// Σ_u D_u / σ'_u with σ'_u as in ATOPenultimateNormalized.
type groupNormalized struct{ r int }

func (groupNormalized) Name() string { return NameATOPenultimateNormalized }

// Version is empty: the built-ins are identified by fp's own version.
func (groupNormalized) Version() string { return "" }

// Inputs are the R overlap-mean columns.
func (p groupNormalized) Inputs() []train.Input { return GroupMeans(p.r) }

// Groups is R (train.GroupTerm).
func (p groupNormalized) Groups() int { return p.r }

// ATOPenultimateNormalized is, with Groups, how the handwritten engine
// recognises the penalty.
func (groupNormalized) ATOPenultimateNormalized() {}

// Node builds Σ_u D_u(h) / σ'_u for the last hidden layer h.
func (p groupNormalized) Node(n Net, b BatchNodes) (*G.Node, error) {
	if len(n.Hidden) == 0 {
		return nil, fmt.Errorf("%s: the network has no hidden layer", p.Name())
	}
	h := n.Hidden[len(n.Hidden)-1]
	cols, err := groupColumns(b, p.r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	if b.SW == nil {
		return nil, fmt.Errorf("%s: the batch has no row weights SW", p.Name())
	}
	wrap := func(err error) error { return fmt.Errorf("%s: %w", p.Name(), err) }
	d, err := spread(cols, h)
	if err != nil {
		return nil, wrap(err)
	}
	sd, err := unitSD(h, b.SW)
	if err != nil {
		return nil, wrap(err)
	}
	r, err := G.HadamardDiv(d, sd)
	if err != nil {
		return nil, wrap(err)
	}
	u, err := G.Sum(r)
	if err != nil {
		return nil, wrap(err)
	}
	return u, nil
}

// groupOutput is ato-output for R groups: D(σ(z)), the R-group ATO of the
// predicted probability on the batch; with dp, dp-mean for R groups: the
// same spread of the unweighted group means (RowGroupMeans(AllRows, R)).
type groupOutput struct {
	r  int
	dp bool
}

func (p groupOutput) Name() string { return outputPenalty{dp: p.dp}.Name() }

// Version is empty: the built-ins are identified by fp's own version.
func (groupOutput) Version() string { return "" }

// Inputs are the R overlap-mean columns, or for dp-mean the R unweighted
// group-mean columns.
func (p groupOutput) Inputs() []train.Input {
	if p.dp {
		return RowGroupMeans(AllRows, p.r)
	}
	return GroupMeans(p.r)
}

// Groups is R (train.GroupTerm).
func (p groupOutput) Groups() int { return p.r }

// ATOOutput is, with Groups, how the handwritten engine recognises the
// penalty.
func (groupOutput) ATOOutput() {}

// OutputOnly marks a penalty that reads no hidden layer.
func (groupOutput) OutputOnly() {}

// Node builds D(σ(z)), the probability taken as a layer of one unit.
func (p groupOutput) Node(n Net, b BatchNodes) (*G.Node, error) {
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
	u, err := probSpread(cols, prob)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return u, nil
}

// probSpread builds the scalar D = max_r m_r − min_r m_r of the means
// m_r = Σ_i g_r,i p_i of the probabilities p (a batch vector), g_r the
// columns cols.
func probSpread(cols []*G.Node, prob *G.Node) (*G.Node, error) {
	// A batch×1 matrix, so that the means are 1-vectors and the
	// comparisons of spread run on tensors, as for a hidden layer.
	col, err := G.Reshape(prob, []int{prob.Shape()[0], 1})
	if err != nil {
		return nil, err
	}
	d, err := spread(cols, col)
	if err != nil {
		return nil, err
	}
	return G.Sum(d)
}

// inputColumns returns the nodes of the columns ins, in order.
func inputColumns(b BatchNodes, ins []train.Input) ([]*G.Node, error) {
	cols := make([]*G.Node, len(ins))
	for k, in := range ins {
		c, err := b.Column(in.Name)
		if err != nil {
			return nil, err
		}
		cols[k] = c
	}
	return cols, nil
}

// groupColumns returns the nodes of the R overlap-mean columns.
func groupColumns(b BatchNodes, groups int) ([]*G.Node, error) {
	cols := make([]*G.Node, groups)
	for r := range cols {
		c, err := b.Column(GroupMean(r, groups).Name)
		if err != nil {
			return nil, err
		}
		cols[r] = c
	}
	return cols, nil
}

// spread builds the H-vector D_u = max_r m_r,u − min_r m_r,u of the group
// means m_r = hᵀg_r of the batch×H matrix h. The maximum and minimum are
// running selections, M ← s⊙m_r + (1−s)⊙M with the 0/1 mask s = [m_r > M]
// (or [m_r < M]) and its complement computed as comparisons: those are
// constants to the differentiation, so the gradient flows to the first
// group that attains the maximum (minimum) and to no other, and the
// selected value is m_r exactly. (Gorgonia's Max reduction would send the
// whole gradient to every tied entry.)
func spread(cols []*G.Node, h *G.Node) (*G.Node, error) {
	means := make([]*G.Node, len(cols))
	for r, g := range cols {
		m, err := G.Mul(g, h) // (batch)·(batch×H) = hᵀg_r, an H-vector
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r, err)
		}
		means[r] = m
	}
	hi, err := running(means, G.Gt, G.Lte)
	if err != nil {
		return nil, fmt.Errorf("maximum: %w", err)
	}
	lo, err := running(means, G.Lt, G.Gte)
	if err != nil {
		return nil, fmt.Errorf("minimum: %w", err)
	}
	return G.Sub(hi, lo)
}

// running folds means into their elementwise maximum (take = Gt, keep =
// Lte) or minimum (Lt, Gte), the earliest group winning ties.
func running(means []*G.Node, take, keep func(a, b *G.Node, retSame bool) (*G.Node, error)) (*G.Node, error) {
	acc := means[0]
	for r, m := range means[1:] {
		s, err := take(m, acc, true)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r+1, err)
		}
		k, err := keep(m, acc, true)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r+1, err)
		}
		a, err := G.HadamardProd(s, m)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r+1, err)
		}
		c, err := G.HadamardProd(k, acc)
		if err != nil {
			return nil, fmt.Errorf("group %d: %w", r+1, err)
		}
		if acc, err = G.Add(a, c); err != nil {
			return nil, fmt.Errorf("group %d: %w", r+1, err)
		}
	}
	return acc, nil
}

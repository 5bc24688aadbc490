package backprop

import (
	"fmt"

	"github.com/fpareto/fp/internal/gemm"
	"github.com/fpareto/fp/train"
)

// Group trains several networks of one shape in lockstep on shared
// batches (train.Group). Member k's gradient equals, bit for bit, what its
// own Trainer computes on the shared batch with its masks.
//
// On CPUs with the register-tiled kernel of internal/gemm the members'
// first layers are computed together: their weights side by side, W =
// [W₁ … W_K] (dim × K·h), make one product X·W with the shared batch X, and
// their gradients at the first layer's pre-activations, D = [D₁ … D_K],
// one product Xᵀ·D for all first-layer weight gradients. Those products
// round with FMA where the single trainer's narrow loops do not, so a
// member then agrees with its own trainer to the last few bits (1e-12
// after several epochs), not bit for bit. Width-4 members (the COMPAS
// shape) then go on in quads, four networks in the lanes of one vector
// (quad.go).
type Group struct {
	ts      []*Trainer
	members []train.Trainer
	view    train.Batch // the shared batch with one member's masks
	fused   bool        // the first layers are computed together
	wide    int         // K·h: columns of w, pre and d
	w       []float64   // dim × K·h: the members' first-layer weights
	pre     []float64   // size × K·h: their first-layer pre-activations
	d       []float64   // size × K·h: ∂objective/∂pre of the first layers
	gw      []float64   // dim × K·h: their first-layer weight gradients
	// quad: width-4 members go in quads (quad.go); the wide buffers'
	// columns are then in quad order and K·h is rounded up to 16.
	quad *quadState
	bias []float64 // K·h: the first layers' biases, in quad order
}

var _ train.GroupEngine = Engine{}

// NewGroup builds a group of one trainer per spec (train.GroupEngine).
func (Engine) NewGroup(specs []train.Spec) (train.Group, error) { return NewGroup(specs) }

// NewGroup is Engine.NewGroup with the concrete type.
func NewGroup(specs []train.Spec) (*Group, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("backprop: a group needs at least one network")
	}
	g := &Group{}
	for k, s := range specs {
		if s.Arch != specs[0].Arch || s.Dim != specs[0].Dim || s.BatchSize != specs[0].BatchSize || s.Dropout != specs[0].Dropout {
			return nil, fmt.Errorf("backprop: group member %d is %v on %d inputs, batch %d, dropout %g; member 0 is %v on %d, batch %d, dropout %g",
				k, s.Arch, s.Dim, s.BatchSize, s.Dropout, specs[0].Arch, specs[0].Dim, specs[0].BatchSize, specs[0].Dropout)
		}
		t, err := New(s)
		if err != nil {
			return nil, fmt.Errorf("group member %d: %w", k, err)
		}
		g.ts = append(g.ts, t)
		g.members = append(g.members, t)
	}
	t0 := g.ts[0]
	g.wide = len(g.ts) * t0.h
	g.fused = gemm.Have && g.wide >= 8
	if g.fused && quadOK(g.ts) {
		g.quad = newQuadState(g.ts)
		g.wide = g.quad.nq * 16
		g.bias = make([]float64, g.wide)
	}
	if g.fused {
		g.w = make([]float64, t0.dim*g.wide)
		g.gw = make([]float64, t0.dim*g.wide)
		g.pre = make([]float64, t0.size*g.wide)
		g.d = make([]float64, t0.size*g.wide)
	}
	return g, nil
}

// Members returns the group's trainers.
func (g *Group) Members() []train.Trainer { return append([]train.Trainer(nil), g.members...) }

// Gradients computes the gradients of the active members on b, member k
// with masks[k] (train.Group).
func (g *Group) Gradients(b *train.Batch, masks [][][]float64, active []bool, losses []train.Loss) error {
	if len(masks) != len(g.ts) || len(active) != len(g.ts) || len(losses) != len(g.ts) {
		return fmt.Errorf("backprop: group of %d members given %d masks, %d flags, %d losses", len(g.ts), len(masks), len(active), len(losses))
	}
	g.view = *b
	if !g.fused {
		for k, t := range g.ts {
			if !active[k] {
				continue
			}
			g.view.Masks = masks[k]
			l, err := t.Gradient(&g.view)
			if err != nil {
				return fmt.Errorf("group member %d: %w", k, err)
			}
			losses[k] = l
		}
		return nil
	}
	for k, t := range g.ts {
		if active[k] {
			g.view.Masks = masks[k]
			if err := t.check(&g.view); err != nil {
				return fmt.Errorf("group member %d: %w", k, err)
			}
		}
	}
	t0 := g.ts[0]
	n, dim, h, wide := b.N, t0.dim, t0.h, g.wide
	if g.quad != nil {
		g.gradientsInQuads(b, masks, active, losses)
		return nil
	}
	// Pre = X·[W₁ … W_K] + [b₁ … b_K]. An inactive member's columns are
	// computed and ignored: a column of the product depends on its own
	// weights only.
	for k, t := range g.ts {
		for r := 0; r < dim; r++ {
			move(g.w[r*wide+k*h:], t.w[0][r*h:r*h+h])
		}
		for i := 0; i < n; i++ {
			move(g.pre[i*wide+k*h:], t.b[0][:h])
		}
	}
	if n > 0 {
		gemm.Add(n, wide, dim, b.X, dim, 1, g.w, wide, g.pre, wide)
	}
	for k, t := range g.ts {
		if !active[k] {
			continue
		}
		pre := t.gate[0]
		for i := 0; i < n; i++ {
			move(pre[i*h:], g.pre[i*wide+k*h:i*wide+k*h+h])
		}
		g.view.Masks = masks[k]
		losses[k] = t.gradient(&g.view, true)
		d := t.d0
		for i := 0; i < n; i++ {
			move(g.d[i*wide+k*h:], d[i*h:i*h+h])
		}
	}
	g.firstWeightGrads(b)
	for k, t := range g.ts {
		if !active[k] {
			continue
		}
		for r := 0; r < dim; r++ {
			move(t.gw[0][r*h:], g.gw[r*wide+k*h:r*wide+k*h+h])
		}
	}
	return nil
}

// firstWeightGrads sets g.gw = Xᵀ·[D₁ … D_K], every member's first-layer
// weight gradient from ∂objective/∂pre in g.d (X read transposed: row
// stride 1, column stride dim).
func (g *Group) firstWeightGrads(b *train.Batch) {
	dim := g.ts[0].dim
	if b.N > 0 {
		gemm.Set(dim, g.wide, b.N, b.X, 1, dim, g.d, g.wide, g.gw, g.wide)
	} else {
		clear(g.gw)
	}
}

// gradientsInQuads is Gradients for members in quads (quad.go).
func (g *Group) gradientsInQuads(b *train.Batch, masks [][][]float64, active []bool, losses []train.Loss) {
	t0 := g.ts[0]
	n, dim, wide := b.N, t0.dim, g.wide
	for m, t := range g.ts {
		for u := 0; u < 4; u++ {
			col := quadColumn(m, u)
			for r := 0; r < dim; r++ {
				g.w[r*wide+col] = t.w[0][r*4+u]
			}
			g.bias[col] = t.b[0][u]
		}
	}
	// The product alone; the quads add the biases as they read it, as
	// gemm.Add would have added them to its sums.
	if n > 0 {
		gemm.Set(n, wide, dim, b.X, dim, 1, g.w, wide, g.pre, wide)
	}
	g.gradientsQuads(b, masks, active, losses)
	g.firstWeightGrads(b)
	for m, t := range g.ts {
		if !active[m] {
			continue
		}
		for u := 0; u < 4; u++ {
			col := quadColumn(m, u)
			for r := 0; r < dim; r++ {
				t.gw[0][r*4+u] = g.gw[r*wide+col]
			}
		}
	}
	g.scatterQuads(active)
}

// move copies src into dst: the runs are a few entries long (a layer's
// width), too short for copy's call to pay off.
func move(dst, src []float64) {
	dst = dst[:len(src)]
	//lint:ignore S1001 copy's call costs more than these few entries
	for j, v := range src {
		dst[j] = v
	}
}

package backprop

import (
	"fmt"

	"github.com/fpareto/fp/train"
)

// Group trains several networks of one shape in lockstep on shared
// batches (train.Group). Member k's gradient equals, bit for bit, what its
// own Trainer computes on the shared batch with its masks.
type Group struct {
	ts      []*Trainer
	members []train.Trainer
	view    train.Batch // the shared batch with one member's masks
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

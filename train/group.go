package train

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Group holds networks of one architecture, input width and batch size
// that train in lockstep: every step evaluates all of them on one shared
// batch, each with its own dropout masks, so an engine can compute the
// members together (one matrix product for all first layers) instead of
// one network at a time. Each member is an ordinary Trainer with its own
// parameters and gradients; a member's gradient from Gradients equals the
// one its Gradient would compute on the shared batch with its masks.
type Group interface {
	// Members are the group's trainers, in the order of the specs it was
	// built from.
	Members() []Trainer
	// Gradients evaluates member k, for every k with active[k], on b with
	// the dropout masks masks[k] (one per hidden layer; b.Masks is not
	// read), writes its gradient into the member's Grads and its loss into
	// losses[k].
	Gradients(b *Batch, masks [][][]float64, active []bool, losses []Loss) error
}

// GroupEngine is an engine that can train networks in lockstep. An engine
// without it cannot; callers find out with a type assertion, never by the
// engine's name.
type GroupEngine interface {
	Engine
	// NewGroup builds a group of one trainer per spec; the specs differ at
	// most in Init, Objective and Penalty.
	NewGroup(specs []Spec) (Group, error)
}

// GroupResult is one member's outcome of FitGroup.
type GroupResult struct {
	Result
	// Err is the member's own failure (a *DivergedError, or an error of
	// its holdout); the other members go on without it.
	Err error
}

// FitGroup trains the members of g together for opt[k].Epochs epochs
// (equal for all). Each epoch shuffles the rows once with order, shared by
// every member; member k draws its dropout masks from rngs[k] and has its
// own Adam state, plateau schedule and holdout (opts[k]). Member k ends
// exactly as Fit would leave it had it trained alone with Loop.EpochOrder
// on the same orders and rngs[k]. A member that diverges stops and reports
// it in its GroupResult; FitGroup itself fails only on bad arguments, an
// engine error or ctx.
func FitGroup(ctx context.Context, g Group, d Data, opts []Options, order *rand.Rand, rngs []*rand.Rand) ([]GroupResult, error) {
	ms := g.Members()
	if len(ms) == 0 || len(opts) != len(ms) || len(rngs) != len(ms) {
		return nil, fmt.Errorf("fit group: %d members, %d options, %d generators", len(ms), len(opts), len(rngs))
	}
	epochs := opts[0].Epochs
	loops := make([]*Loop, len(ms))
	keep := make([]keeper, len(ms))
	var inputs []Input
	for k, tr := range ms {
		if opts[k].Epochs != epochs {
			return nil, fmt.Errorf("fit group: member %d trains %d epochs, member 0 %d", k, opts[k].Epochs, epochs)
		}
		h, err := checkFit(tr, d, &opts[k])
		if err != nil {
			return nil, err
		}
		keep[k].h = h
		if loops[k], err = NewLoop(tr, opts[k]); err != nil {
			return nil, err
		}
		inputs = append(inputs, tr.Spec().Inputs()...)
	}
	net := ms[0].Network()
	b := NewBatch(ms[0].BatchSize(), net.Dim, net.Arch.HiddenLayers(), net.Arch.Hidden, inputs...)
	out := make([]GroupResult, len(ms))
	active := make([]bool, len(ms))
	for k := range active {
		active[k] = true
	}
	masks := make([][][]float64, len(ms))
	losses := make([]Loss, len(ms))
	sums := make([][3]float64, len(ms))
	lrs := make([]float64, len(ms))
	perm := make([]int, d.N)
	for i := range perm {
		perm[i] = i
	}
	for epoch := 1; epoch <= epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		order.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for k, l := range loops {
			sums[k], lrs[k] = [3]float64{}, l.adam.LR()
		}
		batches := 0
		for start := 0; start < d.N; start += b.Size {
			b.Fill(d, perm[start:min(start+b.Size, d.N)])
			for k, l := range loops {
				if active[k] {
					l.fillMasks(l.batch.Masks, rngs[k])
					masks[k] = l.batch.Masks
				}
			}
			if err := g.Gradients(b, masks, active, losses); err != nil {
				return nil, fmt.Errorf("epoch %d: %w", epoch, err)
			}
			for k, l := range loops {
				if !active[k] {
					continue
				}
				if err := l.apply(losses[k], b.Complete); err != nil {
					active[k], out[k].Err = false, err
					continue
				}
				s := &sums[k]
				s[0], s[1], s[2] = s[0]+losses[k].R, s[1]+losses[k].U, s[2]+losses[k].Objective
			}
			batches++
		}
		for k, l := range loops {
			if !active[k] {
				continue
			}
			l.endEpoch(sums[k][0], sums[k][1], sums[k][2], batches, lrs[k])
			if err := keep[k].after(l, epoch); err != nil {
				active[k], out[k].Err = false, err
			}
		}
	}
	for k, l := range loops {
		if out[k].Err == nil {
			keep[k].finish(l)
		}
		out[k].Result = l.res
	}
	return out, nil
}

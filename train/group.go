package train

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/fpareto/fp/optim"
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
//
// With ck.Every > 0 it hands ck.Save the group's state after every
// ck.Every epochs (not after the last); with ck.From it goes on from such
// a state, given the same group as built at the start (same specs) and the
// generators as they were then: it replays their draws up to the saved
// epoch, so the result equals the uninterrupted run's bit for bit.
func FitGroup(ctx context.Context, g Group, d Data, opts []Options, order *rand.Rand, rngs []*rand.Rand, ck Checkpoints) ([]GroupResult, error) {
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
	if ck.Done != nil && len(ck.Done) != len(ms) {
		return nil, fmt.Errorf("fit group: %d members, %d done flags", len(ms), len(ck.Done))
	}
	for k := range active {
		active[k] = ck.Done == nil || !ck.Done[k]
	}
	masks := make([][][]float64, len(ms))
	losses := make([]Loss, len(ms))
	sums := make([][3]float64, len(ms))
	lrs := make([]float64, len(ms))
	perm := make([]int, d.N)
	for i := range perm {
		perm[i] = i
	}
	first := 1
	if ck.From != nil {
		if err := restore(ck.From, loops, keep, active, out, epochs); err != nil {
			return nil, err
		}
		// Replay the draws of the saved epochs: the shuffles of the shared
		// order (on perm itself, as each shuffle starts from the last) and
		// every active member's dropout masks.
		for e := 1; e <= ck.From.Epoch; e++ {
			order.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for start := 0; start < d.N; start += b.Size {
				for k, l := range loops {
					if active[k] {
						l.fillMasks(l.batch.Masks, rngs[k])
					}
				}
			}
		}
		first = ck.From.Epoch + 1
	}
	for epoch := first; epoch <= epochs && slices.Contains(active, true); epoch++ {
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
				if err := l.apply(losses[k], b.Complete); err != nil { // a *DivergedError
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
				var div *DivergedError
				if !errors.As(err, &div) {
					return nil, fmt.Errorf("member %d: %w", k, err)
				}
				active[k], out[k].Err = false, err
			}
		}
		if ck.Every > 0 && ck.Save != nil && epoch%ck.Every == 0 && epoch < epochs {
			if err := ck.Save(snapshot(epoch, loops, keep, out)); err != nil {
				return nil, fmt.Errorf("epoch %d: checkpoint: %w", epoch, err)
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

// Checkpoints configures FitGroup's saving and resuming; the zero value
// does neither.
type Checkpoints struct {
	Every int                     // epochs between saves; 0: none
	Save  func(*GroupState) error // called with the state after every Every epochs
	From  *GroupState             // a saved state to go on from
	// Done marks the members whose outcome is known already (nil: none).
	// They train no more, as a diverged member, and their GroupResults
	// mean nothing; the others train in the group as built, so that an
	// engine computes them as in the whole group (its fused products and
	// lanes depend on the group's shape), bit for bit.
	Done []bool
}

// GroupState is a lockstep group's training state after a whole epoch, in
// a form that encoding/json writes and reads back exactly.
type GroupState struct {
	Epoch   int           `json:"epoch"` // epochs done
	Members []MemberState `json:"members"`
}

// MemberState is one member's state in a GroupState.
type MemberState struct {
	Params  [][]float64     `json:"params"`
	Adam    optim.AdamState `json:"adam"`
	Plateau *optim.Plateau  `json:"plateau,omitempty"`
	Result  Result          `json:"result"`
	// Best and Kept are the holdout's best network so far and its epoch.
	Best [][]float64 `json:"best,omitempty"`
	Kept int         `json:"kept,omitempty"`
	// Diverged is the member's divergence; it trains no more.
	Diverged *DivergedError `json:"diverged,omitempty"`
}

// snapshot copies the group's state after epoch.
func snapshot(epoch int, loops []*Loop, keep []keeper, out []GroupResult) *GroupState {
	st := &GroupState{Epoch: epoch, Members: make([]MemberState, len(loops))}
	for k, l := range loops {
		m := &st.Members[k]
		m.Params = cloneTensors(l.params)
		m.Adam = l.adam.State()
		if l.plateau != nil {
			p := *l.plateau
			m.Plateau = &p
		}
		m.Result = l.res
		m.Result.History = append([]EpochStats(nil), l.res.History...)
		m.Best, m.Kept = keep[k].best, keep[k].kept
		var div *DivergedError
		if errors.As(out[k].Err, &div) {
			m.Diverged = div
			// A member that diverged in its first step has no extremes;
			// JSON has no infinities, and a failed run reports none.
			r := &m.Result
			for _, v := range []*float64{&r.RMin, &r.RMax, &r.UMin, &r.UMax} {
				if !finite(*v) {
					*v = 0
				}
			}
		}
	}
	return st
}

// restore puts a saved state into the group's loops.
func restore(st *GroupState, loops []*Loop, keep []keeper, active []bool, out []GroupResult, epochs int) error {
	if len(st.Members) != len(loops) || st.Epoch < 1 || st.Epoch > epochs {
		return fmt.Errorf("fit group: saved state of %d members after epoch %d, want %d members and an epoch in 1…%d",
			len(st.Members), st.Epoch, len(loops), epochs)
	}
	for k, l := range loops {
		m := st.Members[k]
		if len(m.Params) != len(l.params) {
			return fmt.Errorf("fit group: saved member %d has %d tensors, want %d", k, len(m.Params), len(l.params))
		}
		for i, p := range l.params {
			if len(m.Params[i]) != len(p) {
				return fmt.Errorf("fit group: saved member %d, tensor %d has %d entries, want %d", k, i, len(m.Params[i]), len(p))
			}
			copy(p, m.Params[i])
		}
		if err := l.adam.Restore(m.Adam); err != nil {
			return fmt.Errorf("fit group: saved member %d: %w", k, err)
		}
		if (m.Plateau == nil) != (l.plateau == nil) {
			return fmt.Errorf("fit group: saved member %d and its options disagree on the plateau schedule", k)
		}
		if l.plateau != nil {
			*l.plateau = *m.Plateau
		}
		l.res, l.epoch = m.Result, st.Epoch
		keep[k].best, keep[k].kept = m.Best, m.Kept
		if m.Diverged != nil {
			active[k], out[k].Err = false, m.Diverged
		}
	}
	return nil
}
